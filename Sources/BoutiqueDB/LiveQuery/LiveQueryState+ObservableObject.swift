#if canImport(Combine)
import Combine
#endif

extension LiveQueryState {
    /// Makes an `ObservableObject` owner publish `objectWillChange` before each new value, so SwiftUI
    /// views holding it with `@ObservedObject` or `@StateObject` refresh. Elsewhere (Linux, plain classes,
    /// `@Observable` owners, which observe the state directly) it does nothing.
    ///
    /// ```swift
    /// final class NotesModel: ObservableObject {
    ///     @LiveQuery(db, { Note.all.asSelect() }) var notes: [Note] = []   // publishes objectWillChange
    /// }
    /// ```
    func connect(to owner: AnyObject) {
        #if canImport(Combine)
        guard willChange == nil, owner is any ObservableObject else { return }
        willChange = { [weak owner] in
            guard let observable = owner as? any ObservableObject else { return }
            Self.publishWillChange(of: observable)
        }
        #endif
    }

    #if canImport(Combine)
    private static func publishWillChange<Owner: ObservableObject>(of owner: Owner) {
        (owner.objectWillChange as? ObservableObjectPublisher)?.send()
    }
    #endif
}
