@_exported import BoutiqueSQLite
