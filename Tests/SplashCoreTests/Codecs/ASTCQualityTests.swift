// Expectations: a 40 dB PSNR bar (a rule of thumb for invisible loss) against splashgen's own
// lossless PNG build of campaigns/double11.yaml: the reference pixels come from the code under
// test, so this measures ASTC loss only, not whether the drawing is right.
import Foundation
import SplashCore
import SplashFormat
import SplashImaging
import Testing

@Suite struct ASTCQualityTests {
    /// A person sees no difference above about 40 dB on photographic art; launch art is mostly flat
    /// colour and gradients, where ASTC 4x4 at `medium` does better still. 40 dB is the bar.
    static let minimumPSNR = 40.0

    @Test func astcObjectsMatchTheLosslessRenderOfEverySnapshot() throws {
        let ktx = try Built.double11.get(), png = try Built.double11PNG.get()
        let pairs = zip(ktx.manifest.campaigns[0].snapshots, png.manifest.campaigns[0].snapshots)
        var worst = Double.infinity, worstName = ""
        for (a, b) in pairs {
            #expect(a.pixels == b.pixels && a.orientation == b.orientation && a.appearance == b.appearance)
            let value = psnr(try ktx.decoded(a), try png.decoded(b))
            if value < worst { (worst, worstName) = (value, "\(a.devices[0]) \(a.orientation) \(a.appearance)") }
        }
        print(
            "ASTC 4x4 medium vs lossless render: lowest PSNR \(String(format: "%.2f", worst)) dB (\(worstName)) over \(ktx.manifest.campaigns[0].snapshots.count) snapshots"
        )
        #expect(worst >= Self.minimumPSNR)
    }
}
