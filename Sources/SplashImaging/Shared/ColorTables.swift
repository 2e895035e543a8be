import Foundation

/// The sRGB transfer function, tabulated.
public enum ColorTables {
    /// sRGB byte → linear light in 0…1.
    public static let srgbToLinear: [Float] = (0..<256).map { value in
        let c = Float(value) / 255
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }

    /// Linear light in 1/65535 steps → sRGB byte.
    public static let linear16ToSRGB: [UInt8] = (0..<65536).map { value in
        let l = Float(value) / 65535
        let c = l <= 0.0031308 ? l * 12.92 : 1.055 * powf(l, 1 / 2.4) - 0.055
        return UInt8((c * 255).rounded())
    }
}
