import CareStatistics
import StillpointCatalog
import StillpointTool

// Every command and option of `stillpoint`, with the care statistics next to the built-in ones. A manifest's
// `modules:` list registers the ones a report uses.
await Stillpoint.main(modules: BuiltInStatistics.modules + [CareStatisticsModule.self], origin: "care-stillpoint")
