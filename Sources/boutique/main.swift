// `boutique`: the BoutiqueDB command-line tool.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let status = Tool.run(Array(CommandLine.arguments.dropFirst()))
exit(status)
