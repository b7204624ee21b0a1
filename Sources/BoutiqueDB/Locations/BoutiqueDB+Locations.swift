import Foundation

extension BoutiqueDB {
    /// A database file in the app's private data folder, which is created when missing.
    ///
    /// ```swift
    /// let url = try BoutiqueDB.applicationSupportURL(filename: "app.db")
    /// let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan)
    /// ```
    ///
    /// Apple platforms: `Application Support/<bundle identifier>/`. Linux: `$XDG_DATA_HOME/<app>/`, or
    /// `~/.local/share/<app>/`, where `<app>` is the bundle identifier or the executable's name.
    ///
    /// - Throws: ``BoutiqueError/invalidArgument(_:)`` for a file name that is a path;
    ///   ``BoutiqueError/fileSystem(path:message:)`` when the folder cannot be found or created.
    public nonisolated static func applicationSupportURL(filename: String = "database.sqlite") throws -> URL {
        #if canImport(Darwin)
        let base: URL
        do {
            base = try FileManager.default.url(
                for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        } catch {
            throw BoutiqueError.fileSystem(path: "Application Support", message: error.localizedDescription)
        }
        let folder = base.appendingPathComponent(StandardDirectories.current.applicationName, isDirectory: true)
        #else
        let folder = StandardDirectories.current.linuxApplicationSupport
        #endif
        return try fileURL(filename, in: folder)
    }

    /// A database file in the user's documents folder (visible to them, e.g. in the Files app when the
    /// app shares its documents), which is created when missing.
    ///
    /// ```swift
    /// let url = try BoutiqueDB.documentsURL(filename: "library.db")
    /// ```
    ///
    /// Apple platforms: the app's `Documents` folder. Linux: `$XDG_DOCUMENTS_DIR`, or `~/Documents`.
    public nonisolated static func documentsURL(filename: String = "database.sqlite") throws -> URL {
        #if canImport(Darwin)
        let folder: URL
        do {
            folder = try FileManager.default.url(
                for: .documentDirectory, in: .userDomainMask, appropriateFor: nil, create: true)
        } catch {
            throw BoutiqueError.fileSystem(path: "Documents", message: error.localizedDescription)
        }
        #else
        let folder = StandardDirectories.current.linuxDocuments
        #endif
        return try fileURL(filename, in: folder)
    }

    /// A database file in an App Group container, shared by an app and its extensions. Open it with
    /// `options: .init(multiProcess: true)`.
    ///
    /// ```swift
    /// let url = try BoutiqueDB.sharedContainerURL(groupIdentifier: "group.com.example.notes", filename: "notes.db")
    /// let db = try await BoutiqueDB.open(url: url, migrations: AppMigrations.plan, options: .init(multiProcess: true))
    /// ```
    ///
    /// Apple platforms: the container of `groupIdentifier` (the app needs the App Groups entitlement).
    /// Linux, which has no App Groups: `$XDG_DATA_HOME/<groupIdentifier>/` (or
    /// `~/.local/share/<groupIdentifier>/`), which every process of the same user can open.
    ///
    /// - Throws: ``BoutiqueError/invalidArgument(_:)`` for an empty group or a file name that is a path;
    ///   ``BoutiqueError/fileSystem(path:message:)`` when the group has no container (a missing
    ///   entitlement) or the folder cannot be created.
    public nonisolated static func sharedContainerURL(
        groupIdentifier: String, filename: String = "database.sqlite"
    ) throws -> URL {
        guard !groupIdentifier.isEmpty else { throw BoutiqueError.invalidArgument("the App Group identifier is empty") }
        #if canImport(Darwin)
        guard let folder = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: groupIdentifier) else {
            throw BoutiqueError.fileSystem(
                path: groupIdentifier,
                message: "no container for this App Group: is it in the app's App Groups entitlement?")
        }
        #else
        let folder = StandardDirectories.current.linuxSharedContainer(groupIdentifier: groupIdentifier)
        #endif
        return try fileURL(filename, in: folder)
    }

    /// A fresh, empty database that lives while it is open, for tests and previews. Every call returns a
    /// new one.
    ///
    /// ```swift
    /// let db = try await BoutiqueDB.open(url: BoutiqueDB.inMemoryURL(), migrations: AppMigrations.plan)
    /// ```
    ///
    /// It behaves exactly like a file database: a writer and concurrent readers, each read one snapshot.
    /// That is why it is a WAL file in memory-backed storage (`/dev/shm` on Linux; the temporary folder,
    /// with durability off, elsewhere) rather than SQLite's `:memory:`: SQLite's shared in-memory
    /// databases (shared cache, or the `memdb` VFS) make every read wait while a write transaction is
    /// open. The files are removed when the last database opened on the URL closes.
    public nonisolated static func inMemoryURL() -> URL {
        TemporaryStores.makeURL()
    }

    /// `folder/filename`, after checking that `filename` is a plain name and creating `folder`.
    nonisolated static func fileURL(_ filename: String, in folder: URL) throws(BoutiqueError) -> URL {
        guard !filename.isEmpty, !filename.contains("/"), filename != ".", filename != ".." else {
            throw .invalidArgument("'\(filename)' is not a file name")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw .fileSystem(path: folder.path, message: "cannot create the folder: \(error.localizedDescription)")
        }
        return folder.appendingPathComponent(filename, isDirectory: false)
    }
}
