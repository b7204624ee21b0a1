import BoutiqueMacros
import Testing

/// A model nested in another type names its columns' types through aliases the macro declares inside the
/// struct: the generated extension, at file scope, cannot see the surrounding type's members.
@Suite struct NestedModelExpansionTests {
    @Test func aNestedTableAliasesTheTypesOfItsColumns() {
        let source = """
            enum Shop {
                enum Size: String { case small }
                @Table struct Item {
                    let id: Int
                    var size: Size?
                    @Column(as: [Size].JSONRepresentation.self) var history: [Size]
                    @Column(as: Date.ISO8601Representation.self) var at: Date
                }
            }
            """
        let expanded = MacroExpansionResult(expanding: source, macros: boutiqueMacros, fixItIndex: 0).expandedSource
        #expect(expanded.contains("""
                    enum _BoutiqueTypes {
                        typealias _Size = Size
                    }
            """))
        // An optional type the text does not tell from an optional group of columns: its handle comes
        // from the overloaded call.
        #expect(expanded.contains("let size = BoutiqueQueries.TableColumn<Shop.Item, _BoutiqueTypes._Size?>.handle(\"size\")"))
        #expect(expanded.contains("decoder.decode([_BoutiqueTypes._Size].JSONRepresentation.self)"))
        // Standard types keep their names (a UUID key or an Int's plain encoding is recognised by name).
        #expect(expanded.contains("decoder.decode(Date.ISO8601Representation.self)"))
        #expect(expanded.contains("encoder.encode(self.id)"))
        #expect(!expanded.contains("_BoutiqueTypes._Int") && !expanded.contains("_BoutiqueTypes._Date"))
    }

    @Test func aTopLevelTableIsExpandedAsBefore() {
        let expanded = MacroExpansionResult(
            expanding: "enum Size: String { case small }\n@Table struct Item { let id: Int; var size: Size }",
            macros: boutiqueMacros, fixItIndex: 0
        ).expandedSource
        #expect(!expanded.contains("_BoutiqueTypes"))
        #expect(expanded.contains("decoder.decode(Size.self)"))
    }

    @Test func aNestedSelectionAliasesItsFieldsTypes() {
        let source = """
            extension Shop {
                @Selection struct Row {
                    let item: Item
                    let count: Int
                }
            }
            """
        let expanded = MacroExpansionResult(expanding: source, macros: boutiqueMacros, fixItIndex: 0).expandedSource
        #expect(expanded.contains("typealias _Item = Item"))
        #expect(expanded.contains("item: some BoutiqueQueries.QueryExpression<_BoutiqueTypes._Item>"))
        #expect(expanded.contains("self.item = try decoder.decode(_BoutiqueTypes._Item.self)"))
    }

    @Test func qualifiedAndBacktickedNamesGetAliasesTheCompilerTakes() {
        let source = """
            enum Shop {
                @Table @Selection struct Delivery {
                    let id: Int
                    var mode: `Mode`
                    var size: Shop.Size
                    var other: OtherModule.Thing?
                    var link: Foundation.URL
                    var page: Page<Int>
                }
            }
            """
        let expanded = MacroExpansionResult(expanding: source, macros: boutiqueMacros, fixItIndex: 0).expandedSource
        #expect(expanded.contains("typealias _Mode = `Mode`"))
        #expect(expanded.contains("typealias _Shop_Size = Shop.Size"))
        #expect(expanded.contains("typealias _OtherModule_Thing = OtherModule.Thing"))
        #expect(expanded.contains("_BoutiqueTypes._OtherModule_Thing?"))
        // Foundation's names stay; a generic type keeps its name (an alias would need its parameters).
        #expect(expanded.contains("decoder.decode(Foundation.URL.self)"))
        #expect(expanded.contains("decoder.decode(Page<Int>.self)"))
        // @Table adds the aliases; @Selection on the same struct does not add them again.
        #expect(expanded.components(separatedBy: "enum _BoutiqueTypes").count == 2)
    }
}

