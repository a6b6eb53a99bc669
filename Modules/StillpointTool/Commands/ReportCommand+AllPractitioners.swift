import Foundation
import StillpointCore
import StillpointReport
import StillpointStatistics
import StillpointManifest

extension ReportCommand {
    /// The format of `--all-practitioners`: JSON Lines, one practitioner's report a line.
    static let linesFormat = "jsonl"

    /// `report --all-practitioners --format jsonl`: every practitioner's report, one JSON line each with its
    /// `practitioner`, in id order, written as each is made (a file through a temporary file renamed at the end).
    func writeAllPractitioners(_ entries: [PreparedEntry], environment: ReportEnvironment, from container: PersistentContainer) async throws {
        let file = try ExportFile(destination: OutputDestination(path: output ?? "-"))
        let lines = ReportLines(file)
        try await AllPractitionerReports.run(entries, environment: environment, in: container) { id, report in
            try lines.append(JSONReportRenderer().line(report, practitioner: id))
        }
        try lines.commit()
        if let output, output != "-" { Output.printError("wrote \(lines.count) practitioners' reports to \(file.destination.displayPath)") }
    }
}

/// The lines of the batch job on their way to the file, in chunks. Used by one context's executor at a time (the
/// batch job's read), then by the command once it is over: never at once, hence unchecked.
private final class ReportLines: @unchecked Sendable {
    private let file: ExportFile
    private var bytes = ExportFile.makeBuffer()
    private(set) var count = 0

    init(_ file: ExportFile) {
        self.file = file
    }

    func append(_ line: String) throws {
        bytes.append(contentsOf: line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        count += 1
        try file.writeIfFull(&bytes)
    }

    func commit() throws {
        try file.commit(&bytes)
    }
}
