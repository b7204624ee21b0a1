@_exported import BoutiqueQueries
@_exported import BoutiqueSQLite
