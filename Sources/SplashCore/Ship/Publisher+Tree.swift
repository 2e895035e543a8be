import Foundation
import SplashFormat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Publisher {
    /// Checks, before the first write, every name a publication writes in `tree`: the `objects`
    /// and `screens` folders, the manifest and its signature, each object raw and deflated, each
    /// served slice and its signature. A missing name is fine (publish makes it). A link is refused
    /// (publish follows none inside its tree), and so is a name that holds what publish does not
    /// write there: another kind of file, or at a slice's name anything but a slice of `app`
    /// signed under `root` (the slices an earlier publication wrote, before a key change too). Object files named by their
    /// hash are publish's own, and a damaged one is written anew.
    static func refuseWhatItDidNotWrite(in tree: URL, objects: Set<String>, slices: [String], app: String, root: Data) throws(PublishError) {
        try expect(tree, "objects", S_IFDIR)
        try expect(tree, "screens", S_IFDIR)
        let files =
            ["manifest.json", BundleSignature.fileName, historyFile, prunedFile] + objects.sorted().flatMap { ["objects/" + $0, "objects/" + $0 + ".deflate"] }
        for name in files + slices.sorted().flatMap({ [$0, $0 + ".sig"] }) { try expect(tree, name, S_IFREG) }
        let screens = tree.appendingPathComponent("screens")
        for slice in slices.sorted() {
            let name = String(slice.dropFirst("screens/".count))
            let present = [name, name + ".sig"].contains { FileManager.default.fileExists(atPath: screens.appendingPathComponent($0).path) }
            guard !present || ownSlice(name, in: screens, app: app, root: root) != nil else {
                throw .notWrittenByPublish(tree.appendingPathComponent(slice).path, found: "not a slice of \(app) signed under this key's root (with its .sig)")
            }
        }
    }

    /// Throws unless `name` in `tree` is missing or of `kind`, and not a link.
    private static func expect(_ tree: URL, _ name: String, _ kind: mode_t) throws(PublishError) {
        let path = tree.appendingPathComponent(name).path
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        let found = info.st_mode & S_IFMT
        guard found != S_IFLNK else { throw .linkInTree(path) }
        guard found == kind else { throw .notWrittenByPublish(path, found: FileKind.describe(info.st_mode)) }
    }
}
