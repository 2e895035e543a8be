// The curated API an app does reach (the counterpart of AppReach.swift).
import Foundation
import SplashApplier

func useCuratedNames(key: String) throws {
    let trust = BundleTrust.pinned(try PinnedKey(key))
    _ = SnapshotApplier(
        container: URL(fileURLWithPath: NSHomeDirectory()), bundle: nil, appVersion: "1.0", appBuild: "1",
        osVersion: OSVersion(major: 17), decoder: ImageIODecoder(), trust: trust)
    _ = ScreenSize(width: 1179, height: 2556)
}
