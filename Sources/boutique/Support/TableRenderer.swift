import BoutiqueDB

/// Renders rows as an aligned text table, with a line under the header.
///
/// ```
/// id | title
/// ---+------
///  1 | Hello
/// ```
enum TableRenderer {
    static func render(columns: [String], rows: [[DatabaseValue]]) -> String {
        let cells = rows.map { row in row.map(cellText) }
        var widths = columns.map(\.count)
        for row in cells {
            for (index, cell) in row.enumerated() where index < widths.count {
                widths[index] = max(widths[index], cell.count)
            }
        }
        let numeric = columns.indices.map { index in
            !rows.isEmpty && rows.allSatisfy { row in
                guard index < row.count else { return true }
                switch row[index] {
                case .integer, .real, .null: return true
                default: return false
                }
            }
        }
        func line(_ values: [String], alignNumbers: Bool) -> String {
            values.enumerated().map { index, value in
                let padding = String(repeating: " ", count: max(0, widths[index] - value.count))
                return alignNumbers && numeric[index] ? padding + value : value + padding
            }.joined(separator: " | ")
        }
        var output = [line(columns, alignNumbers: false)]
        output.append(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-+-"))
        for row in cells { output.append(line(row, alignNumbers: true)) }
        output.append("(\(rows.count) row\(rows.count == 1 ? "" : "s"))")
        return output.map { $0.trailingSpacesTrimmed }.joined(separator: "\n")
    }

    /// One value as a single-line cell.
    static func cellText(_ value: DatabaseValue) -> String {
        let text = value.description
        return text.replacingNewlines
    }
}

extension String {
    var trailingSpacesTrimmed: String {
        var copy = self
        while copy.last == " " { copy.removeLast() }
        return copy
    }

    var replacingNewlines: String {
        String(map { $0 == "\n" ? "⏎" : $0 == "\t" ? " " : $0 })
    }
}
