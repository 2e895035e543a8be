import Foundation

/// One folder below the system's temporary directory for every scratch folder of a test process,
/// `splashgen-tests-<UUID>`, removed when the process exits (a crash leaves it, for a look).
private enum ScratchRoot {
    static let url: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("splashgen-tests-\(UUID().uuidString)")
        make(url)
        atexit { try? FileManager.default.removeItem(at: ScratchRoot.url) }
        return url
    }()

    static func make(_ url: URL) {
        do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
            fatalError("cannot create a scratch folder at \(url.path): \(error)")
        }
    }
}

/// A fresh folder `<label>-<UUID>` below the test process's scratch root: the one scratch-folder
/// maker every test target shares.
public func temporaryFolder(_ label: String = "test") -> URL {
    let url = ScratchRoot.url.appendingPathComponent("\(label)-\(UUID().uuidString)")
    ScratchRoot.make(url)
    return url
}
