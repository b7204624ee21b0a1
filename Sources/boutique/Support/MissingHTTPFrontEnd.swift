/// Why `boutique serve` cannot run in a build made without the HTTP front end, and what to install:
/// the package leaves BoutiqueSyncHTTP out where GNU libmicrohttpd is missing, so that the database
/// and the rest of the tool build with nothing but the toolchain.
struct MissingHTTPFrontEnd: Error, CustomStringConvertible {
    var description: String {
        """
        this build has no HTTP front end: GNU libmicrohttpd was not installed when it was built. Install it and build again:
          Debian or Ubuntu:  sudo apt-get install libmicrohttpd-dev
          macOS (Homebrew):  brew install libmicrohttpd
        (`swift build` finds it by itself; BOUTIQUE_SYNC_HTTP=1 makes a build fail instead of leaving it out.)
        """
    }
}
