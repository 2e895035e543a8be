import Foundation

/// A bundle folder as the applier sees it: the manifest, and objects checked before use.
struct ApplierBundle {
    let root: URL
    let manifest: Manifest

    var manifestURL: URL { root.appendingPathComponent("manifest.json") }

    /// Reads and checks the manifest.
    init(root: URL) throws(ApplierError) {
        self.root = root
        guard let data = try? Data(contentsOf: root.appendingPathComponent("manifest.json")) else {
            throw .badBundle(.missingManifest)
        }
        do { manifest = try Manifest.decode(from: data) } catch {
            switch error {
            case .newerSchema(let found, let supported): throw .badBundle(.newerSchema(found: found, supported: supported))
            case .malformed(let detail): throw .badBundle(.malformedManifest(detail))
            }
        }
    }

    /// Size and modification time of `manifest.json`: a cheap way to notice a new bundle.
    static func stamp(_ root: URL) -> String? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: root.appendingPathComponent("manifest.json").path),
              let size = attributes[.size] as? NSNumber, let date = attributes[.modificationDate] as? Date else { return nil }
        return "\(size.intValue)@\(date.timeIntervalSince1970)"
    }

    /// The object's bytes after every check: its name is a hash, it exists, it has the manifest's size,
    /// it hashes to its name, its header reads, and its pixels are `width`×`height`.
    func verifiedObject(_ snapshot: Manifest.Snapshot, width: Int, height: Int) throws(ApplierError) -> Data {
        let name = snapshot.object
        guard isObjectName(name) else { throw .badBundle(.notAnObjectName(name)) }
        guard let data = try? Data(contentsOf: root.appendingPathComponent("objects").appendingPathComponent(name)) else {
            throw .badBundle(.missingObject(name))
        }
        guard data.count == snapshot.bytes else { throw .badBundle(.sizeMismatch(object: name, expected: snapshot.bytes, found: data.count)) }
        let actual = sha256Hex(data)
        guard actual == name else { throw .badBundle(.hashMismatch(object: name, actual: actual)) }
        let size: (width: Int, height: Int)
        do { size = try SnapshotHeader.pixelSize(of: data) } catch {
            throw .badBundle(.unreadableObject(object: name, detail: error.description))
        }
        guard size == (width, height), snapshot.pixels == Manifest.Size(width: width, height: height) else {
            throw .badBundle(.wrongPixelSize(object: name, expected: "\(width)x\(height)", found: "\(size.width)x\(size.height)"))
        }
        return data
    }
}

/// Pixel sizes from the headers of the formats splashgen writes, without decoding.
public enum SnapshotHeader {
    /// The width and height a KTX (ASTC 4×4, whole level) or PNG file declares.
    public static func pixelSize(of data: Data) throws(SnapshotHeaderError) -> (width: Int, height: Int) {
        switch SnapshotContent(sniffing: data) {
        case .ktx:
            let file: KTXFile
            do { file = try KTXFile(parsing: data, includingLevel: false) } catch { throw .ktx(error) }
            guard file.glInternalFormat == KTXFile.astc4x4RGBA, !file.isAppleCompressed else { throw .unsupported("KTX that is not plain ASTC 4x4") }
            return (Int(file.pixelWidth), Int(file.pixelHeight))
        case .png:
            // IHDR is always the first chunk: length 13, type, then width and height big-endian.
            let bytes = [UInt8](data.prefix(24))
            guard bytes.count == 24, bytes[12..<16] == [0x49, 0x48, 0x44, 0x52][...] else { throw .unsupported("PNG without an IHDR header") }
            func be(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
            return (be(16), be(20))
        case .atx: throw .unsupported("Apple ATX container")
        case .jpeg: throw .unsupported("JPEG")
        case nil: throw .unsupported("unrecognised content")
        }
    }
}

/// Why a header could not give a pixel size.
public enum SnapshotHeaderError: Error, Equatable, CustomStringConvertible {
    /// The KTX file is damaged.
    case ktx(KTXError)
    /// A format the applier does not read.
    case unsupported(String)

    public var description: String {
        switch self {
        case .ktx(let error): return error.description
        case .unsupported(let what): return "cannot read the size of \(what)"
        }
    }
}
