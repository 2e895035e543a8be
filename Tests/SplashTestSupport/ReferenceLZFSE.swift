import Foundation

/// Apple's reference LZFSE (pyliblzfse, which `make deps` installs), run once on many inputs: the
/// tests' one oracle for what splashgen's LZFSE writes and reads.
public enum ReferenceLZFSE {
    /// A python3 that can `import liblzfse`, if any: the one on the PATH, or a usual place.
    public static let python: String? = {
        var candidates: [String] = []
        if let found = try? runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import sys; print(sys.executable)"]), found.status == 0 {
            candidates.append(found.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        candidates += ["/usr/bin/python3", "/usr/local/bin/python3", "/opt/homebrew/bin/python3"]
        return candidates.first { path in
            FileManager.default.isExecutableFile(atPath: path) && (try? runProcess(URL(fileURLWithPath: path), ["-c", "import liblzfse"]))?.status == 0
        }
    }()

    /// Whether the reference is here.
    public static var available: Bool { python != nil }

    /// `liblzfse.compress` of each input, in order; nil where the reference fails.
    public static func compress(_ inputs: [Data]) throws -> [Data?] { try run("compress", inputs) }

    /// `liblzfse.decompress` of each stream, in order; nil where the reference refuses it (or fails on
    /// it, as pyliblzfse does with a `MemoryError` for a size a header lies about).
    public static func decompress(_ streams: [Data]) throws -> [Data?] { try run("decompress", streams) }

    /// One python run over files `0`, `1`, … in a scratch folder, each answered in `<n>.out`
    /// unless the reference refuses it.
    private static func run(_ function: String, _ inputs: [Data]) throws -> [Data?] {
        guard let python else { throw ReferenceError(description: "no python3 with pyliblzfse (make deps installs it)") }
        let folder = temporaryFolder("lzfse")
        for (index, input) in inputs.enumerated() { try input.write(to: folder.appendingPathComponent("\(index)")) }
        let script = """
            import sys, liblzfse
            for i in range(int(sys.argv[2])):
                path = sys.argv[1] + '/' + str(i)
                try:
                    out = liblzfse.\(function)(open(path, 'rb').read())
                except Exception:  # liblzfse.error, or MemoryError for a size a header lies about
                    continue
                open(path + '.out', 'wb').write(out)
            """
        let run = try runProcess(URL(fileURLWithPath: python), ["-c", script, folder.path, String(inputs.count)])
        guard run.status == 0 else { throw ReferenceError(description: "python3 with pyliblzfse failed: \(run.stderr)") }
        return inputs.indices.map { try? Data(contentsOf: folder.appendingPathComponent("\($0).out")) }
    }

    /// Why the oracle gave no answer.
    public struct ReferenceError: Error, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }
}
