import Foundation
import SplashFormat

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP GET whose body is never held beyond `limit` bytes (a `Content-Length` above it is refused
/// before the body, a longer body is cut off and refused) and which gives up after `timeout`,
/// however slowly the server trickles. Runs on URLSession's own queue, never the main thread.
///
/// The first failure answers the caller at once and cancels the transfer from another queue: the
/// delegate queue goes on draining (and dropping) what URLSession already handed over, so nothing
/// piles up behind a cancel that waits for the transfer's own queue. On Linux that queue is
/// libcurl's, which inflates a whole gzip-encoded read in one call (a 1 MB read can become 1 GiB),
/// so a body with a `Content-Encoding` is refused at its headers: sizes are checked on the bytes
/// as published, and `identity` is what is asked for.
final class BoundedGET: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// What came back.
    struct Response {
        var status: Int
        var body: Data
        var etag: String?
        /// Bytes received: headers as URLSession reports them are not counted, only the body.
        var bodyBytes: Int { body.count }
    }

    private let limit: Int
    private let timeout: TimeInterval
    /// What the delegate's callbacks, the deadline and the caller share.
    private struct State {
        var body = Data()
        var failure: FetchError?
        var continuation: CheckedContinuation<Result<Response, FetchError>, Never>?
        var response: HTTPURLResponse?
        var deadline: DispatchWorkItem?
    }
    private let state = Locked(State())
    private let progress: BundleFetcher.Progress?

    private init(limit: Int, timeout: TimeInterval, progress: BundleFetcher.Progress?) {
        self.limit = limit
        self.timeout = timeout
        self.progress = progress
    }

    /// Fetches `url`, with `If-None-Match: etag` when one is given; `progress` hears of each part
    /// of the body as it arrives (the body's bytes so far).
    static func get(
        _ url: URL, limit: Int, etag: String?, timeout: TimeInterval, progress: BundleFetcher.Progress? = nil
    ) async -> Result<Response, FetchError> {
        let getter = BoundedGET(limit: limit, timeout: timeout, progress: progress)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        // URLSession's own timeouts are only a backstop past ours: Foundation on Linux counts them
        // in whole seconds, rounded down, so a try given 0.9 s would time out after 1 ms.
        let backstop = timeout.rounded(.up) + 1
        configuration.timeoutIntervalForRequest = backstop
        configuration.timeoutIntervalForResource = backstop
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: getter, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: backstop)
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        // Sizes are checked against the bytes on the wire: no transparent decompression.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        // The server may not take longer than `timeout` in all: a deadline of our own, since a body that
        // trickles in never lets an idle timeout fire. It is cancelled when the request ends, and holds
        // nothing of the body meanwhile.
        let task = session.dataTask(with: request)
        // A cancelled caller cancels the transfer at once: the caller hears `.cancelled`.
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                getter.state.withLock { $0.continuation = continuation }
                if Task.isCancelled {
                    getter.fail(.cancelled(url.absoluteString), cancelling: task)
                    return
                }
                let deadline = DispatchWorkItem { [weak getter, weak task] in
                    getter?.fail(.timedOut(url.absoluteString, timeout), cancelling: task)
                }
                getter.state.withLock { $0.deadline = deadline }
                task.resume()
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: deadline)
            }
        } onCancel: { [weak getter, weak task] in
            getter?.fail(.cancelled(url.absoluteString), cancelling: task)
        }
    }

    /// Answers the caller with `error` (the first failure only), drops the body, and cancels the
    /// transfer off this queue.
    private func fail(_ error: FetchError, cancelling task: URLSessionTask?) {
        let waiting = state.withLock { state -> CheckedContinuation<Result<Response, FetchError>, Never>? in
            guard state.failure == nil, let waiting = state.continuation else { return nil }
            state.failure = error
            state.continuation = nil
            state.deadline?.cancel()
            state.deadline = nil
            state.body = Data()
            return waiting
        }
        guard let waiting else { return }
        waiting.resume(returning: .failure(error))
        if let task { DispatchQueue.global(qos: .utility).async { task.cancel() } }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        state.withLock { $0.response = http }
        // Only 200 and 304 are read; any other answer's body is not wanted (a 5xx is retried).
        if let http, http.statusCode != 200, http.statusCode != 304 {
            fail(.httpStatus(response.url?.absoluteString ?? "", http.statusCode), cancelling: dataTask)
            completionHandler(.cancel)
            return
        }
        if let encoding = http?.value(forHTTPHeaderField: "Content-Encoding"), encoding.lowercased() != "identity" {
            fail(
                .transport(response.url?.absoluteString ?? "", "the server sent a body with Content-Encoding \(encoding), though identity was asked for"),
                cancelling: dataTask)
            completionHandler(.cancel)
            return
        }
        if response.expectedContentLength > Int64(limit) {
            fail(.tooLarge(response.url?.absoluteString ?? "", limit), cancelling: dataTask)
            completionHandler(.cancel)
            return
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let limit = limit
        let (over, received) = state.withLock { state -> (Bool, Int?) in
            guard state.failure == nil else { return (false, nil) }  // answered already: dropped
            guard state.body.count + data.count <= limit else { return (true, nil) }
            state.body.append(data)
            return (false, state.body.count)
        }
        if over { fail(.tooLarge(dataTask.originalRequest?.url?.absoluteString ?? "", limit), cancelling: dataTask) }
        if let received, let progress, let url = dataTask.originalRequest?.url { progress(url, received) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let timeout = timeout
        let (continuation, result) = state.withLock {
            state -> (CheckedContinuation<Result<Response, FetchError>, Never>?, Result<Response, FetchError>) in
            defer {
                state.continuation = nil
                state.deadline?.cancel()
                state.deadline = nil
                state.body = Data()
            }
            let url = task.originalRequest?.url?.absoluteString ?? ""
            if let failure = state.failure { return (nil, .failure(failure)) }  // the caller was answered when it failed
            if let error = error as NSError? {
                // URLSession's own resource timeout may fire before ours: the same failure.
                if error.domain == NSURLErrorDomain, error.code == NSURLErrorTimedOut { return (state.continuation, .failure(.timedOut(url, timeout))) }
                return (state.continuation, .failure(.transport(url, error.localizedDescription)))
            }
            guard let response = state.response else { return (state.continuation, .failure(.transport(url, "no HTTP response"))) }
            let body = state.body
            if response.expectedContentLength >= 0, Int64(body.count) != response.expectedContentLength, response.statusCode == 200 {
                return (state.continuation, .failure(.transport(url, "the body ended after \(body.count) of \(response.expectedContentLength) bytes")))
            }
            return (
                state.continuation,
                .success(Response(status: response.statusCode, body: body, etag: response.value(forHTTPHeaderField: "ETag")))
            )
        }
        continuation?.resume(returning: result)
    }
}
