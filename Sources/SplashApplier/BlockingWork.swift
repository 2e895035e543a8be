import Dispatch
import SplashFormat

/// Where the async entry points do their blocking work (flushes, lock waits of up to `lockTimeout`
/// seconds, whole apply runs): a dispatch queue of its own, never Swift's cooperative thread pool,
/// whose few threads such work would hold up for every other task of the app.
package enum BlockingWork {
    private static let queue = DispatchQueue(label: "splashgen.blocking-work", qos: .utility, attributes: .concurrent)

    /// The value of `work`, run on the queue; its error, thrown here.
    package static func run<Value: Sendable, Failure: Error>(_ work: @escaping @Sendable () throws(Failure) -> Value) async throws(Failure) -> Value {
        let result: Result<Value, Failure> = await withCheckedContinuation { continuation in
            queue.async {
                do throws(Failure) { continuation.resume(returning: .success(try work())) } catch { continuation.resume(returning: .failure(error)) }
            }
        }
        return try result.get()
    }

    /// The value of `work`, run on the queue, told through its ``Cancellation`` when the awaiting
    /// task is cancelled (the queue's threads are not the task's, so `Task.isCancelled` does not
    /// reach them).
    package static func run<Value: Sendable, Failure: Error>(
        cancellable work: @escaping @Sendable (Cancellation) throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let cancellation = Cancellation()
        let result = await withTaskCancellationHandler {
            await run { () -> Result<Value, Failure> in
                do throws(Failure) { return .success(try work(cancellation)) } catch { return .failure(error) }
            }
        } onCancel: {
            cancellation.cancel()
        }
        return try result.get()
    }
}

/// Whether the task awaiting blocking work was cancelled: raised by the task's cancellation
/// handler, asked by the work where it may stop.
package final class Cancellation: Sendable {
    private let raised = Locked(false)

    package var isCancelled: Bool { raised.withLock { $0 } }

    fileprivate func cancel() { raised.withLock { $0 = true } }
}
