import BoutiqueDB
import Foundation

/// Models nested in a namespace, whose columns name the namespace's other types: the generated code
/// must see `Size` and `Item` although Swift does not look into `Shop` from an extension of `Shop.Item`.
public enum Shop {
    public enum Size: String, QueryBindable, Sendable, Codable { case small, large }

    public struct Box: Codable, Sendable, Equatable {
        public var width: Int
        public init(width: Int) { self.width = width }
    }

    @Table @BoutiqueTable
    public struct Item: Sendable, Equatable {
        public let id: Int
        public var size: Size
        public var previousSize: Size?
        @Column(as: [Size].JSONRepresentation.self) public var history: [Size]
        @Column(as: JSONRepresentation<Box>.self) public var box: Box

        public init(id: Int, size: Size, previousSize: Size? = nil, history: [Size] = [], box: Box) {
            self.id = id
            self.size = size
            self.previousSize = previousSize
            self.history = history
            self.box = box
        }
    }

    /// An item with how many orders it has.
    @Selection
    public struct ItemWithOrders: Sendable {
        public let item: Item
        public let size: Size
        public let orderCount: Int
    }

    /// Items of a size, each with its number of orders.
    public static func items(of size: Size) -> Select<(Item.TableColumns, OptionalTableColumns<Order.TableColumns>), ItemWithOrders> {
        Item
            .where { $0.size == size }
            .leftJoin(Order.all) { $0.id == $1.itemID }
            .group { item, _ in item.id }
            .select { ItemWithOrders.Columns(item: $0, size: $0.size, orderCount: $1.id.count()) }
    }
}

extension Shop {
    @Table @BoutiqueTable
    public struct Order: Sendable, Equatable {
        public let id: Int
        public var itemID: Int
        public var size: Size

        public init(id: Int, itemID: Int, size: Size) {
            self.id = id
            self.itemID = itemID
            self.size = size
        }
    }
}

extension Shop {
    /// A type whose name is written in backticks.
    public enum `Mode`: Int, QueryBindable, Sendable, Codable { case pickup, delivery }

    /// A nested table that is also a selection, naming types qualified, in backticks and from Foundation.
    @Table @Selection
    public struct Delivery: Sendable, Equatable {
        public let id: Int
        public var mode: `Mode`
        public var size: Shop.Size
        public var when: Foundation.Date

        public init(id: Int, mode: `Mode`, size: Shop.Size, when: Foundation.Date) {
            self.id = id
            self.mode = mode
            self.size = size
            self.when = when
        }
    }
}
