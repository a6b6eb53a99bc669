extension FetchPredicate {
    /// `_id IN {ids}`: the rows named by id.
    ///
    /// ```swift
    /// FetchPredicate.rowIDs([3, 7])   // _id IN {3, 7}
    /// ```
    static func rowIDs(_ ids: [Int64]) -> FetchPredicate {
        FetchPredicate(root: .comparison(PredicateComparison(lhs: .key("_id"), op: .in, options: [], rhs: .list(ids.map(AttributeValue.integer)))))
    }

    /// The rows whose ids are in `runs`: `_id BETWEEN` for each run of several ids and one `_id IN` for the
    /// single ids, so that a save's thousand new rows (one run) cost two parameters, not a thousand.
    ///
    /// ```swift
    /// FetchPredicate.rowIDs(inRuns: [1...1_000, 1_005...1_005])   // _id BETWEEN {1, 1000} OR _id IN {1005}
    /// ```
    static func rowIDs(inRuns runs: [ClosedRange<Int64>]) -> FetchPredicate {
        let singles = runs.filter { $0.lowerBound == $0.upperBound }.map(\.lowerBound)
        let ranges = runs.filter { $0.lowerBound < $0.upperBound }.map { run in
            FetchPredicate(root: .comparison(PredicateComparison(lhs: .key("_id"), op: .between, options: [],
                                                                 rhs: .list([.integer(run.lowerBound), .integer(run.upperBound)]))))
        }
        return .or(ranges + (singles.isEmpty ? [] : [rowIDs(singles)]))
    }
}
