import Foundation

/// A ZIP archive of uncompressed ("stored") entries, written by hand so the tool tests need no ZIP library,
/// and so a test can damage an entry's bytes at a known place.
///
/// ```swift
/// let zip = StoredZip.archive([("apple_health_export/export.xml", Data(xml.utf8))])
/// ```
enum StoredZip {
    static func archive(_ entries: [(path: String, data: Data)]) -> Data {
        var output = Data()
        var central = Data()
        for entry in entries {
            let name = Data(entry.path.utf8)
            let crc = crc32(entry.data)
            let offset = UInt32(output.count)
            output.append(le32(0x0403_4B50))
            output.append(le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21))
            output.append(le32(crc) + le32(UInt32(entry.data.count)) + le32(UInt32(entry.data.count)))
            output.append(le16(UInt16(name.count)) + le16(0))
            output.append(name)
            output.append(entry.data)
            central.append(le32(0x0201_4B50))
            central.append(le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21))
            central.append(le32(crc) + le32(UInt32(entry.data.count)) + le32(UInt32(entry.data.count)))
            central.append(le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0))
            central.append(le32(0) + le32(offset))
            central.append(name)
        }
        let centralOffset = UInt32(output.count)
        output.append(central)
        output.append(le32(0x0605_4B50) + le16(0) + le16(0))
        output.append(le16(UInt16(entries.count)) + le16(UInt16(entries.count)))
        output.append(le32(UInt32(central.count)) + le32(centralOffset) + le16(0))
        return output
    }

    private static func le16(_ value: UInt16) -> Data {
        Data([UInt8(value & 0xFF), UInt8(value >> 8)])
    }

    private static func le32(_ value: UInt32) -> Data {
        Data((0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) })
    }

    /// CRC-32 (IEEE 802.3), as ZIP stores it.
    static func crc32(_ data: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in data {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }
}
