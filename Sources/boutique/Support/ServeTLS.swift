/// `boutique serve --tls-cert FILE --tls-key FILE`: the PEM certificate chain and private key it serves
/// HTTPS with. Both or neither; the files are read when the server starts (the key file, like the
/// token secret, must be readable by its owner only).
struct ServeTLS {
    var certificateFile: String
    var keyFile: String

    /// Reads the two flags: `nil` when neither is given, a usage error when one is.
    static func take(_ arguments: inout ArgumentParser) throws -> ServeTLS? {
        let certificate = try arguments.takeOption("--tls-cert")
        let key = try arguments.takeOption("--tls-key")
        switch (certificate, key) {
        case (nil, nil): return nil
        case (let certificate?, let key?): return ServeTLS(certificateFile: certificate, keyFile: key)
        case (nil, _?): throw UsageError("--tls-key FILE goes with --tls-cert FILE: give both to serve HTTPS")
        case (_?, nil): throw UsageError("--tls-cert FILE goes with --tls-key FILE: give both to serve HTTPS")
        }
    }
}
