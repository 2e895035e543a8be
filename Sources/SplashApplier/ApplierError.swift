import Foundation
import SplashFormat

/// Why the applier stopped. In every case it has changed nothing it could not finish safely:
/// each cached file is its original or its replacement, and the backups are intact.
public enum ApplierError: Error, Equatable, CustomStringConvertible {
    /// The bundle cannot be trusted, or is for another app; nothing was changed.
    case badBundle(BundleProblem)
    /// The container folder does not exist (it is never created).
    case noContainer(String)
    /// A path between the container and a file the applier would touch is a symbolic link.
    case symbolicLink(String)
    /// Another applier held the container's lock for longer than the wait allowed (and only that:
    /// a lock that cannot be taken for another reason is ``fileSystem(_:)``).
    case busy(seconds: TimeInterval)
    /// A file operation failed: which, on what path, and the system's error number.
    case fileSystem(FileSystemError)
    /// A number the applier was given cannot be used (``SnapshotApplier/lockTimeout``).
    case badParameter(String, String)
    /// The task awaiting the run was cancelled before the run changed anything: the container is as
    /// it was. (A run that has begun to change the cache finishes instead.)
    case cancelled

    public var description: String {
        switch self {
        case .badBundle(let problem): return "bad bundle: \(problem)"
        case .noContainer(let path): return "no app container at \(path)"
        case .symbolicLink(let path): return "refusing \(path): it is a symbolic link, and the applier follows none"
        case .busy(let wait): return "another applier is working on this container (waited \(wait.formatted()) s)"
        case .fileSystem(let error): return error.description
        case .badParameter(let name, let reason): return "\(name) \(reason)"
        case .cancelled: return "cancelled before it changed anything; the container is as it was"
        }
    }
}
