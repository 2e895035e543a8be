/// ITU-R BT.709's luma weights, written once: the build greys snapshots with them (on linear light)
/// and the applier tells light from dark with them (on sRGB-encoded values).
package enum Rec709 {
    /// `0.2126 r + 0.7152 g + 0.0722 b`, in whatever units the channels are given.
    @inline(__always) package static func luma<T: BinaryFloatingPoint>(_ r: T, _ g: T, _ b: T) -> T {
        0.2126 * r + 0.7152 * g + 0.0722 * b
    }
}
