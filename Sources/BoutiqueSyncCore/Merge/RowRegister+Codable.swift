extension CellRegister: Codable {
    private enum CodingKeys: String, CodingKey { case value, stamp }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        value = try container.decode(WireValue.self, forKey: .value).value
        stamp = try container.decode(SyncStamp.self, forKey: .stamp)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(WireValue(value), forKey: .value)
        try container.encode(stamp, forKey: .stamp)
    }
}
