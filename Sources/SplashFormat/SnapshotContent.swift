import Foundation

/// What a cached snapshot file really holds, told by its first bytes (the OS decides by the
/// extension, but what a `.ktx` file holds varies: KTX, Apple's ATX, or PNG/JPEG from libraries).
package enum SnapshotContent: String, Sendable {
    /// Khronos KTX 1.1.
    case ktx
    /// Apple's ATX container (`AAPL\r\n\x1A\n`).
    case atx
    /// PNG.
    case png
    /// JPEG.
    case jpeg

    /// Recognises the content from its leading bytes, or nil when it is none of these.
    package init?(sniffing data: Data) {
        let head = [UInt8](data.prefix(12))
        func starts(_ magic: [UInt8]) -> Bool { head.starts(with: magic) }
        if starts(KTXFile.identifier) {
            self = .ktx
        } else if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if starts([0x41, 0x41, 0x50, 0x4C, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .atx
        } else if starts([0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else {
            return nil
        }
    }
}
