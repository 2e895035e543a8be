import Foundation

/// Apple's reference LZFSE (pyliblzfse, which `make deps` installs), run once on many inputs: the
/// tests' oracle for what splashgen's LZFSE writes and reads.
public enum ReferenceLZFSE {
    /// `liblzfse.compress` of each input, in order.
    public static func compress(_ inputs: [Data]) throws -> [Data] { try run("compress", inputs) }

    /// `liblzfse.decompress` of each stream, in order.
    public static func decompress(_ streams: [Data]) throws -> [Data] { try run("decompress", streams) }

    /// One python3 run over files `0`, `1`, … in a scratch folder, each answered in `<n>.out`.
    private static func run(_ function: String, _ inputs: [Data]) throws -> [Data] {
        let folder = temporaryFolder("lzfse")
        for (index, input) in inputs.enumerated() { try input.write(to: folder.appendingPathComponent("\(index)")) }
        let script = """
            import sys, liblzfse
            for i in range(int(sys.argv[2])):
                path = sys.argv[1] + '/' + str(i)
                open(path + '.out', 'wb').write(liblzfse.\(function)(open(path, 'rb').read()))
            """
        let run = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, folder.path, String(inputs.count)])
        guard run.status == 0 else { throw ReferenceError(description: "python3 with pyliblzfse failed (make deps installs it): \(run.stderr)") }
        return try inputs.indices.map { try Data(contentsOf: folder.appendingPathComponent("\($0).out")) }
    }

    /// Why the oracle gave no answer.
    public struct ReferenceError: Error, CustomStringConvertible {
        public let description: String
    }
}
