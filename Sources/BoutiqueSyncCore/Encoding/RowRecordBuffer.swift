/// Row states' records (``RowRegister/record()``) written one after another into one buffer: a pull
/// writes thousands of states, and this costs no array per state.
///
/// ```swift
/// var buffer = RowRecordBuffer()
/// let range = buffer.append(state)
/// try buffer.bytes.withUnsafeBytes { bytes in … bytes[range] … }   // the state's record
/// ```
package struct RowRecordBuffer: Sendable {
    /// The records, back to back.
    package private(set) var bytes: [UInt8] = []
    /// The values of the record being written, kept between records for their storage.
    private var values: [DatabaseValue] = []

    /// An empty buffer.
    package init() {}

    /// Appends `state`'s record; returns where it is in ``bytes``.
    package mutating func append(_ state: RowRegister) -> Range<Int> {
        values.removeAll(keepingCapacity: true)
        state.appendRecordValues(to: &values)
        return flush()
    }

    /// Appends the record of the state `change` describes (``MergeRule/register(for:)``), without
    /// building that state: for a row with no state yet, changed once, it is the merged state.
    ///
    /// The change should name each column once: a repeated name is written twice, and reading the
    /// record back keeps the last value, as the register does.
    package mutating func append(stateOf change: SyncChange) -> Range<Int> {
        values.removeAll(keepingCapacity: true)
        RowRegister.appendRecordValues(for: change, to: &values)
        return flush()
    }

    /// Empties the buffer, keeping its storage for the next records.
    package mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    private mutating func flush() -> Range<Int> {
        let start = bytes.count
        RecordEncoder.append(values, to: &bytes)
        return start..<bytes.count
    }
}
