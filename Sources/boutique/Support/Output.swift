import Foundation

/// Writing to standard output and standard error.
///
/// Both are written unbuffered, so that a program reading `watch` or `changes --follow` through a pipe
/// sees each line as soon as it is printed.
enum Output {
    static func line(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }
}
