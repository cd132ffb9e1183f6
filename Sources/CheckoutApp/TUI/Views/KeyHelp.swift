/// The `?` overlay's lines: every line a binding names, in the bindings' order, each once.
enum KeyHelp {
    static let rows: [KeyHelpRow] = {
        var rows: [KeyHelpRow] = []
        for binding in KeyBindings.all {
            if let row = binding.help, !rows.contains(row) { rows.append(row) }
        }
        return rows
    }()
}
