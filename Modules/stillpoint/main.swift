import StillpointCatalog
import StillpointTool

// `stillpoint` with the statistic modules that ship with Stillpoint; see `Stillpoint.main(modules:origin:)`
// for a tool with modules of its own.
await Stillpoint.main(modules: BuiltInStatistics.modules)
