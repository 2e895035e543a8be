// What an app must not reach (issue 26): SplashFormat's writers, compressors, signing and file
// helpers are `package`, and the applier's test hooks and unsigned bundles are behind an SPI the app
// does not import. Each line below must be an error in an app module; AppAllowed.swift must not.
import Foundation
import SplashApplier
import SplashFormat

func reachWriters(_ applier: inout SnapshotApplier) {
    _ = LZFSE.compress([1, 2, 3])
    _ = KTXFile(astc4x4Width: 4, height: 4, blocks: Data(count: 16)).serialized()
    _ = BundleSignature.verify(Data(), signature: nil, publicKey: Data())
    _ = ContainedFolder(URL(fileURLWithPath: "/"))
    let trust: BundleTrust = .acceptingUnsignedBundles
    applier.trust = trust
    applier.fileSystem = nil
}
