import Foundation

/// A fresh folder under the system's temporary directory, `splashgen-<label>-<UUID>`: the one
/// scratch-folder maker every test target shares.
public func temporaryFolder(_ label: String = "test") -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("splashgen-\(label)-\(UUID().uuidString)")
    do { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) } catch {
        fatalError("cannot create a scratch folder at \(url.path): \(error)")
    }
    return url
}
