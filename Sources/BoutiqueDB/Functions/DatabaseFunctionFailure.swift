import BoutiqueSQLite
import Foundation

/// The message a failing database function gives the statement that called it.
enum DatabaseFunctionFailure {
    /// `name: argument 2: expected Int, found TEXT 'a'` for an argument that does not decode (the
    /// argument row's columns are named by their position); `name: ` and the description of any other
    /// error: a `LocalizedError`'s `errorDescription`, or what `String(describing:)` gives.
    static func message(for error: any Error, in name: String) -> SQLFunctionError {
        if let error = error as? SQLFunctionError { return error }
        if case .decoding(let failure) = error as? BoutiqueError {
            return SQLFunctionError(
                "\(name): argument \(failure.column): expected \(failure.expectedType), found \(failure.found)")
        }
        if let localized = error as? any LocalizedError, let description = localized.errorDescription {
            return SQLFunctionError("\(name): \(description)")
        }
        return SQLFunctionError("\(name): \(error)")
    }
}
