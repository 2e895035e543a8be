import Dispatch

/// Where the async entry points do their blocking work (flushes, lock waits of up to `lockTimeout`
/// seconds, whole apply runs): a dispatch queue of its own, never Swift's cooperative thread pool,
/// whose few threads such work would hold up for every other task of the app.
enum BlockingWork {
    private static let queue = DispatchQueue(label: "splashgen.blocking-work", qos: .utility, attributes: .concurrent)

    /// The value of `work`, run on the queue; its error, thrown here.
    static func run<Value: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> Value) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(Failure) { continuation.resume(returning: .success(try work())) } catch { continuation.resume(returning: .failure(error)) }
            }
        }
        return try result.get()
    }
}
