import Foundation

/// Where the platform keeps an app's data, documents and shared containers.
///
/// ```swift
/// let folder = StandardDirectories.current.applicationSupport   // ~/.local/share/<app> on Linux
/// ```
///
/// On Linux it follows the XDG base-directory convention: `$XDG_DATA_HOME` (absolute), else
/// `~/.local/share`. It is a value built from an environment so that tests can check the rules without
/// changing the process's environment.
struct StandardDirectories: Sendable {
    var environment: [String: String]
    var homeDirectory: URL
    /// The folder name that keeps this app's files apart from other apps' (the bundle identifier, or the
    /// executable name).
    var applicationName: String

    static var current: StandardDirectories {
        let bundleID = Bundle.main.bundleIdentifier.flatMap { $0.isEmpty ? nil : $0 }
        return StandardDirectories(
            environment: ProcessInfo.processInfo.environment,
            homeDirectory: FileManager.default.homeDirectoryForCurrentUser,
            applicationName: safeFolderName(bundleID ?? ProcessInfo.processInfo.processName))
    }

    /// `$XDG_DATA_HOME` when it is an absolute path, else `~/.local/share`.
    var dataHome: URL {
        if let path = environment["XDG_DATA_HOME"], path.hasPrefix("/") {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return homeDirectory.appendingPathComponent(".local/share", isDirectory: true)
    }

    /// Linux: `<data home>/<app>`.
    var linuxApplicationSupport: URL {
        dataHome.appendingPathComponent(applicationName, isDirectory: true)
    }

    /// Linux: `$XDG_DOCUMENTS_DIR` when absolute, else `~/Documents`.
    var linuxDocuments: URL {
        if let path = environment["XDG_DOCUMENTS_DIR"], path.hasPrefix("/") {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return homeDirectory.appendingPathComponent("Documents", isDirectory: true)
    }

    /// Linux: `<data home>/<group identifier>`, a folder every process of the user can reach, standing in
    /// for an App Group container.
    func linuxSharedContainer(groupIdentifier: String) -> URL {
        dataHome.appendingPathComponent(Self.safeFolderName(groupIdentifier), isDirectory: true)
    }

    /// `name` with path separators replaced, so that it is one folder name.
    static func safeFolderName(_ name: String) -> String {
        let cleaned = name.replacingOccurrences(of: "/", with: "_")
        return cleaned.isEmpty || cleaned == "." || cleaned == ".." ? "BoutiqueDB" : cleaned
    }
}
