/// A command that uses a store named by `--store` (or the default store).
///
/// Before such a command runs, the tool refuses standard output or standard error opened onto the store's files,
/// so that not even a message the command writes before it opens the store (a `--verbose` line, a skipped row of
/// `import --strict`) lands in the store; ``StoreOption/open(fallback:for:addingToForeignDatabase:logger:)``
/// checks again against the store it finally opens (a manifest's `store:`).
///
/// ```swift
/// if let command = command as? any StoreCommand { try command.storeOption.refuseStandardStreams() }
/// ```
protocol StoreCommand {
    var storeOption: StoreOption { get }
}

extension ReportCommand: StoreCommand {}
extension SessionsCommand: StoreCommand {}
extension ExportCommand: StoreCommand {}
extension CheckCommand: StoreCommand {}
extension ImportCommand: StoreCommand {}
extension DemoCommand: StoreCommand {}
extension ImportsCommand.List: StoreCommand {}
extension ImportsCommand.Remove: StoreCommand {}
extension PractitionersCommand.List: StoreCommand {}
extension PractitionersCommand.Add: StoreCommand {}
extension PractitionersCommand.Rename: StoreCommand {}
extension PractitionersCommand.Remove: StoreCommand {}
