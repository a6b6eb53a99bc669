import StillpointStatistics

extension HTMLReportRenderer {
    /// A card for every statistic presented as a value or by name (`by_import`, keyed as written): its value large,
    /// or a breakdown for a record, and its notes; failed and cancelled statistics say so in their card.
    func cards(_ page: Page) -> String {
        var html = "<section class=\"cards\">\n"
        for entry in page.report.entries where entry.presentation == .value || entry.presentation == .byName {
            html += card(entry)
        }
        return html + "</section>\n"
    }

    /// Always a title, a value and a block of notes (empty or not): the three rows of the cards' subgrid.
    private func card(_ entry: ReportEntry) -> String {
        let title = "<h3>\(HTMLText.escape(entry.label))</h3>"
        let notes = { (notes: [String]) in
            "<div class=\"notes\">" + notes.map { "<p class=\"note\">\(HTMLText.escapeKeepingDates($0))</p>" }.joined() + "</div>"
        }
        switch entry.outcome {
        case .finished(let result):
            // A breakdown with nothing to break down (by_kind of an empty store) says so, instead of a line of
            // dashes too wide for its card.
            if case .record(let fields) = result.value, !fields.isEmpty, fields.allSatisfy({ Self.isEmptyGroup($0.value) }) {
                return "<article class=\"card\">\(title)<p class=\"big\">\(ValueText.noValue)</p>\(notes(["no sessions to group yet"] + result.notes))</article>\n"
            }
            if let text = ValueText.inline(result.value) {
                let big = if case .quantity = result.value { Self.numberWithSmallUnits(text) } else { HTMLText.escape(text) }
                return "<article class=\"card\">\(title)<p class=\"big\">\(big)</p>\(notes(result.notes))</article>\n"
            }
            return "<article class=\"card wide\">\(title)\(breakdown(result.value, presentation: entry.presentation))\(notes(result.notes))</article>\n"
        case .failed(let message):
            return "<article class=\"card failed\">\(title)<p class=\"big\">Failed</p>\(notes([message]))</article>\n"
        case .waiting, .running, .cancelled:
            return "<article class=\"card cancelled\">\(title)<p class=\"big\">Cancelled</p>\(notes([]))</article>\n"
        }
    }

    /// Whether a value is an empty record or list: a group without members.
    static func isEmptyGroup(_ value: StatisticValue) -> Bool {
        switch value {
        case .record(let fields): fields.isEmpty
        case .list(let items): items.isEmpty
        default: false
        }
    }

    /// `1,310<span class="unit">h</span> 7<span class="unit">m</span>`: the digits of a quantity large, its units
    /// smaller, so that the number is what the eye finds and long values fit a card.
    static func numberWithSmallUnits(_ text: String) -> String {
        HTMLText.escape(text).replacing(/\s?([a-z%]+)/) { match in
            "<span class=\"unit\">\(match.output.0)</span>"
        }
    }

    /// A record or list as a list of rows; the tallies of one record get a bar for their share of its time,
    /// which makes `by_kind` read at a glance.
    private func breakdown(_ value: StatisticValue, presentation: StatisticPresentation) -> String {
        // A record of records (by_kind: kind and source) shows its groups side by side.
        if case .record(let fields) = value, fields.count > 1, fields.allSatisfy({ ValueText.inline($0.value) == nil }) {
            return "<div class=\"groups\">" + fields.map { field in
                "<ul class=\"breakdown\"><li class=\"heading\"><span>\(HTMLText.escape(ValueText.label(forKey: field.key)))</span></li>"
                    + list(field.value, presentation: presentation) + "</ul>"
            }.joined() + "</div>"
        }
        return "<ul class=\"breakdown\">" + list(value, presentation: presentation) + "</ul>"
    }

    private func list(_ value: StatisticValue, presentation: StatisticPresentation) -> String {
        var html = ""
        append(value, presentation: presentation, to: &html)
        return html
    }

    private func append(_ value: StatisticValue, presentation: StatisticPresentation, to html: inout String) {
        let fields: [(key: String, value: StatisticValue)]
        switch value {
        case .record(let record): fields = record.map { ($0.key, $0.value) }
        case .list(let items):
            // Runs of days by their dates, other items by position (see ValueText.listEntries).
            for entry in ValueText.listEntries(items) {
                if let text = entry.text {
                    html += "<li class=\"plain\"><span>\(HTMLText.escape(entry.key))</span><span class=\"v\">\(HTMLText.escape(text))</span></li>"
                } else {
                    html += "<li class=\"heading\"><span>\(HTMLText.escape(entry.key))</span></li>"
                    append(entry.value, presentation: presentation, to: &html)
                }
            }
            return
        default: return
        }
        let totalTime = fields.compactMap { ValueText.tally($0.value)?.time }.reduce(0, +)
        for field in fields {
            let key = HTMLText.escape(ValueText.label(forKey: field.key, presentation: presentation))
            if let tally = ValueText.tally(field.value), totalTime > 0 {
                let share = HTMLText.number(100 * tally.time / totalTime)
                html += "<li><span>\(key)</span><span class=\"share\"><i style=\"width:\(share)%\"></i></span>"
                    + "<span class=\"v\">\(HTMLText.escape(Self.describe(tally)))</span></li>"
            } else if let text = ValueText.inline(field.value) {
                html += "<li class=\"plain\"><span>\(key)</span><span class=\"v\">\(HTMLText.escape(text))</span></li>"
            } else {
                html += "<li class=\"heading\"><span>\(key)</span></li>"
                append(field.value, presentation: presentation, to: &html)
            }
        }
    }
}
