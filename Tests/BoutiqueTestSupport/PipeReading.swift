import Foundation

/// Reads `descriptor` until end of file, handing each chunk to `body` as it arrives.
///
/// read(2) itself rather than `FileHandle.availableData` or `readDataToEndOfFile()`: Foundation's
/// trap when a signal interrupts the read (EINTR), and signals reach a test process while its
/// children run. An interrupted read is retried; any other error ends the reading like end of file.
public func readUntilEnd(_ descriptor: Int32, _ body: (ArraySlice<UInt8>) -> Void) {
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR { continue }
        if count <= 0 { return }
        body(buffer[..<count])
    }
}

extension FileHandle {
    /// Everything left to read, up to end of file, with interrupted reads retried (see ``readUntilEnd(_:_:)``).
    public func readToEndRetryingInterrupts() -> Data {
        var data = Data()
        readUntilEnd(fileDescriptor) { data.append(contentsOf: $0) }
        return data
    }
}
