import CMicroHTTPD

/// An answer's body while libmicrohttpd sends it from where it is, and its bytes' share of the
/// budget, given back when the library lets go of it.
final class QueuedBody {
    let bytes: UnsafeMutableRawBufferPointer
    private let budget: QueuedResponseBytes

    init(_ body: [UInt8], budget: QueuedResponseBytes) {
        // One byte at least: a buffer of none has no address to hand over.
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, body.count), alignment: 1)
        body.withUnsafeBytes { source in
            if let base = source.baseAddress, let target = bytes.baseAddress { target.copyMemory(from: base, byteCount: source.count) }
        }
        self.bytes = bytes
        self.budget = budget
        count = body.count
    }

    /// The body's length (``bytes`` may be a byte longer).
    let count: Int

    deinit {
        bytes.deallocate()
        budget.give(count)
    }

    /// What libmicrohttpd calls, with the body it was given retained, once it is done with it.
    static let release: MHD_ContentReaderFreeCallback = { owner in
        guard let owner else { return }
        Unmanaged<QueuedBody>.fromOpaque(owner).release()
    }
}
