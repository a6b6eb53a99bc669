/// Suggests the known name closest to a misspelled one, for "did you mean" hints in error messages.
///
/// ```swift
/// NameSuggestion.nearestName(to: "duraton", in: ["kind", "duration"])   // "duration"
/// ```
package enum NameSuggestion {
    /// The candidate with the smallest edit distance to `name`, or `nil` when none is close enough to be a typo.
    ///
    /// Case is ignored; a swap of two adjacent letters counts as one edit. Ties go to the earlier candidate.
    package static func nearestName(to name: String, in candidates: [String]) -> String? {
        let target = Array(name.lowercased())
        // Allow about one edit per four characters: "duraton" finds "duration", "id" doesn't find "kind".
        let limit = max(1, (target.count + 2) / 4)
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased()))
            if distance <= limit, distance < (best?.distance ?? .max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousRow: [Int] = []
        var row = Array(0...b.count)
        for i in 1...a.count {
            let rowBeforePrevious = previousRow
            previousRow = row
            row = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                row[j] = min(previousRow[j] + 1, row[j - 1] + 1, previousRow[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], rowBeforePrevious[j - 2] + 1)
                }
            }
        }
        return row[b.count]
    }
}
