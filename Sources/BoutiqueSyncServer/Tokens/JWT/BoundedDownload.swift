import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The body of a GET that is refused once it passes a size, without holding more of it than that: a
/// JWK Set URL that answers with gigabytes cannot fill the server's memory.
final class BoundedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // `@unchecked Sendable`: the fields are touched only by the session's delegate queue, a serial
    // OperationQueue, and `continuation` is resumed once, at completion.
    private let maximumBytes: Int
    private var received = Data()
    private var problem: String?
    private var continuation: CheckedContinuation<[UInt8], any Error>?

    private init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

    static func bytes(of url: URL, maximumBytes: Int, timeout: Duration) async throws -> [UInt8] {
        let download = BoundedDownload(maximumBytes: maximumBytes)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = Double(timeout.components.seconds)
        configuration.timeoutIntervalForResource = Double(timeout.components.seconds)
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: queue)
        defer { session.finishTasksAndInvalidate() }
        var building = URLRequest(url: url)
        building.setValue("application/json", forHTTPHeaderField: "Accept")
        let request = building
        return try await withCheckedThrowingContinuation { continuation in
            queue.addOperation {
                download.continuation = continuation
                session.dataTask(with: request).resume()
            }
        }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        if status != 200 {
            problem = "it answered HTTP \(status)"
            completionHandler(.cancel)
        } else if response.expectedContentLength > Int64(maximumBytes) {
            problem = "it is larger than \(maximumBytes) bytes"
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    /// No redirect is followed: a key set moved elsewhere (to plain HTTP, say) would be keys the
    /// operator did not name.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        problem = "it redirects to \(request.url?.absoluteString ?? "another address"); give that URL instead"
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard problem == nil else { return }
        if received.count + data.count > maximumBytes {
            problem = "it is larger than \(maximumBytes) bytes"
            dataTask.cancel()
            return
        }
        received.append(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let url = task.originalRequest?.url?.absoluteString ?? ""
        if let problem {
            continuation?.resume(throwing: BoutiqueError.invalidArgument("cannot read the JWK Set at \(url): \(problem)"))
        } else if let error {
            continuation?.resume(throwing: BoutiqueError.invalidArgument("cannot read the JWK Set at \(url): \(error.localizedDescription)"))
        } else {
            continuation?.resume(returning: [UInt8](received))
        }
        continuation = nil
    }
}
