extension ReportEntry {
    /// What reports written for people call the entry: its human title, or its `as` name when the manifest
    /// gave one, since two entries of one statistic share a title.
    ///
    /// ```swift
    /// ReportEntry(id: "current_streak", name: "current_streak", title: "Current streak", outcome: .waiting).label
    /// // "Current streak"
    /// ```
    public var label: String {
        if name != id || title.isEmpty { return name }
        return title
    }
}
