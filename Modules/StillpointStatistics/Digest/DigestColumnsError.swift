import Foundation

/// Why a digest cannot hold the sessions it reads.
///
/// ```swift
/// do { try columns.kindNames.number(of: buffer) } catch let error as DigestColumnsError { print(error.localizedDescription) }
/// ```
package enum DigestColumnsError: Error, Equatable, LocalizedError {
    /// More different texts in a column (`kind`, `source`, `timeZone`) than the digest numbers: 65,535.
    case tooManyTexts(column: String)

    package var errorDescription: String? {
        switch self {
        case .tooManyTexts(let column):
            "the sessions read hold more than \(ByteInterner.capacity) different values of \(column), the most a "
                + "report's digest holds; report on fewer sessions (one practitioner's) or merge the store's \(column) values"
        }
    }
}
