import Foundation
import SplashFormat
import SplashImaging

/// The PNG files a campaign uses, read once: their bytes' SHA-256 (which keys the build cache),
/// their pixel size from the header, and, when a snapshot must actually be drawn, their pixels.
package struct Artwork: Sendable {
    /// One image file.
    package struct Item: Sendable {
        /// The path as written in the campaign.
        package var path: String
        /// Where the campaign first names it.
        package var source: SourceLocation
        /// The file's bytes.
        package var data: Data
        /// SHA-256 of `data`, lowercase hex.
        package var contentHash: String
        /// Pixel size from the PNG header.
        package var width: Int, height: Int
    }

    /// Every image the campaign names, by path.
    package var items: [String: Item]

    /// Reads and checks every image of `campaign` (signature, header, pixel limit). All problems
    /// are reported together, each at the layer that names the image.
    package static func read(_ campaign: Campaign, maxPixels: Int) throws(CampaignError) -> Artwork {
        var items: [String: Item] = [:]
        var problems: [Diagnostic] = []
        var seen: Set<String> = []
        for appearance in campaign.renderedAppearances {
            for layer in campaign.appearances[appearance]!.layers where seen.insert(layer.image).inserted {
                do {
                    let data = try Self.readFile(campaign.url(of: layer))
                    let size = try PNGCodec.size(of: data)
                    guard size.width * size.height <= maxPixels else {
                        throw ImageError.tooLarge(width: size.width, height: size.height, limit: maxPixels)
                    }
                    let hash = sha256Hex(data)
                    items[layer.image] = Item(
                        path: layer.image, source: layer.source, data: data, contentHash: hash,
                        width: size.width, height: size.height)
                } catch {
                    problems.append(Diagnostic(layer.source, "\"\(layer.image)\": \(error)"))
                }
            }
        }
        guard problems.isEmpty else { throw CampaignError(problems) }
        return Artwork(items: items)
    }

    /// A regular file's bytes (links followed); anything else — a FIFO would block the build for
    /// ever — is refused by what it is, before it is opened.
    static func readFile(_ url: URL) throws(ImageError) -> Data {
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw .unreadable(FileSystemError(.read, path: url.path, systemCall: "stat", errno: errno)) }
        switch info.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw .notAFile("a folder")
        case S_IFIFO: throw .notAFile("a FIFO (named pipe)")
        case S_IFCHR, S_IFBLK: throw .notAFile("a device")
        case S_IFSOCK: throw .notAFile("a socket")
        default: throw .notAFile("something other than a file")
        }
        do { return try Data(contentsOf: url) } catch { throw .unreadable(FileSystemError(.read, path: url.path, cause: error)) }
    }

    /// Decodes the named images to pixels, reporting every one that fails.
    package func decode(_ paths: Set<String>, maxPixels: Int) throws(CampaignError) -> [String: RGBAImage] {
        var images: [String: RGBAImage] = [:]
        var problems: [Diagnostic] = []
        for path in paths.sorted() {
            guard let item = items[path] else { continue }
            do {
                images[path] = try PNGCodec.decode(item.data, maxPixels: maxPixels)
            } catch {
                problems.append(Diagnostic(item.source, "\"\(path)\": \(error)"))
            }
        }
        guard problems.isEmpty else { throw CampaignError(problems) }
        return images
    }
}
