// `boutique`: the BoutiqueDB command-line tool.
import Foundation

@main
struct Boutique {
    static func main() async {
        let status = await Tool.run(Array(CommandLine.arguments.dropFirst()))
        exit(status)
    }
}
