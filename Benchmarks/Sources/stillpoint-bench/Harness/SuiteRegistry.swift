/// Every benchmark suite, in the order `all` runs them. A new suite adds its line here.
enum SuiteRegistry {
    static let all: [any BenchmarkSuite] = [
        Seed004Suite(),
        TopologiesSuite(),
        MergeSuite(),
        LiveSuite(),
        CancelSuite(),
        ImportSuite(),
        ExportSuite(),
        ResponsivenessSuite(),
        ReportSuite(),
        OpenSuite(),
        PractitionersSuite(),
        ServeSuite(),
    ]

    static func suite(named name: String) -> (any BenchmarkSuite)? {
        all.first { $0.name == name }
    }
}
