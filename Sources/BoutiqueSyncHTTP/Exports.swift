// A server written against the HTTP front end needs the server's logic and stores too.
@_exported import BoutiqueSyncServer
