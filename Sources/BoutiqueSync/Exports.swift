@_exported import BoutiqueSyncCore
