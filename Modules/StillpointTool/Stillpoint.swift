import StillpointCatalog
import StillpointReport
import StillpointStatistics

/// The `stillpoint` command-line tool, every command and option of it, over the statistic modules it is given.
///
/// Stillpoint's own executable runs it with the built-in modules. A package of its own adds its modules and
/// builds its own tool in one line; a manifest then registers them by name under `modules:`:
///
/// ```swift
/// import CareStatistics
/// import StillpointCatalog
/// import StillpointTool
///
/// await Stillpoint.main(modules: BuiltInStatistics.modules + [CareStatisticsModule.self], origin: "the CareStatistics package")
/// ```
public enum Stillpoint {
    /// Runs the tool with the command line's arguments; a failure is one line on standard error and a
    /// `sysexits.h` status.
    ///
    /// - Parameters:
    ///   - modules: the statistic modules the tool has, in the order `stillpoint statistics` lists them.
    ///   - origin: where the modules that are not built in come from, as `stillpoint statistics` and
    ///     `stillpoint validate` show it.
    ///   - renderers: the report formats the tool writes, `--format` and a manifest's `output.formats` accept;
    ///     Stillpoint's own unless a package adds its renderers (`ReportRenderers.add(_:)`).
    public static func main(modules: [any StatisticModule.Type], origin: String = "this tool",
                            renderers: ReportRenderers = .builtIn) async {
        await ToolModules.$current.withValue(ToolModules.catalog(modules, origin: origin)) {
            await ToolModules.$renderers.withValue(renderers) {
                await StillpointCommand.runTool()
            }
        }
    }
}
