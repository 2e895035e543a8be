import Foundation
import SplashFormat

/// Earlier build results, keyed by ``RenderRecipe/key``: `keys/<recipe key>` names an object and
/// `objects/<sha256>` holds it. An unchanged rebuild links these instead of rendering again.
/// The folder (`Output/.cache`) can be deleted at any time.
struct BuildCache: Sendable {
    let root: URL

    private var keys: URL { root.appendingPathComponent("keys") }
    private var objects: URL { root.appendingPathComponent("objects") }

    /// The object rendered earlier for a recipe, if it is still there and its bytes still hash to its name.
    func lookup(_ recipeKey: String) -> (hash: String, url: URL, bytes: Int)? {
        // Bounded and below the cache's folder, like every other read: a damaged cache is a miss.
        let folder = ContainedFolder(root)
        guard let key = readBounded(keys.appendingPathComponent(recipeKey), limit: 128, within: folder) else { return nil }
        let hash = String(decoding: key, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard isObjectName(hash) else { return nil }
        let url = objects.appendingPathComponent(hash)
        guard let data = readBounded(url, limit: ReadLimits.snapshotBytes, within: folder), sha256Hex(data) == hash else { return nil }
        return (hash, url, data.count)
    }

    /// Stores a freshly encoded object and remembers which recipe made it; returns its file.
    func store(_ data: Data, hash: String, recipeKey: String) throws -> URL {
        try FileManager.default.createDirectory(at: keys, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: objects, withIntermediateDirectories: true)
        let url = objects.appendingPathComponent(hash)
        // An object already there is reused only when its bytes still hash to its name.
        if readBounded(url, limit: ReadLimits.snapshotBytes, within: ContainedFolder(root)).map(sha256Hex) != hash {
            try data.write(to: url, options: .atomic)
        }
        try Data((hash + "\n").utf8).write(to: keys.appendingPathComponent(recipeKey), options: .atomic)
        return url
    }
}
