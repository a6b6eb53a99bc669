import Foundation

/// Turns the activity names of the exports into the normalized kinds: lowercase `snake_case`, with known
/// synonyms and translations folded together (`PracticeType.TaiChi`, `Tai Chi`, `太極拳` → `tai_chi`).
enum KindNormalizer {
    /// The normalized kind, or `nil` when `raw` is blank.
    static func normalize(_ raw: String) -> String? {
        var text = raw.trimmed()
        if text.hasPrefix("PracticeType.") { text.removeFirst("PracticeType.".count) }
        guard !text.isEmpty else { return nil }
        let snake = snakeCase(text)
        guard !snake.isEmpty else { return nil }
        let folded = snake.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: nil)
        return synonyms[folded] ?? snake
    }

    /// Remembers the kinds of one import: a file uses a handful of activity names over and over.
    struct Memo {
        private var kinds: [String: String] = [:]

        mutating func normalize(_ raw: String) -> String? {
            if let kind = kinds[raw] { return kind }
            let kind = KindNormalizer.normalize(raw)
            // Bounded, so a file with a new word in every row can't grow it without end.
            if let kind, kinds.count < 256 { kinds[raw] = kind }
            return kind
        }
    }

    /// `TaiChi` → `tai_chi`, `Walking Meditation` → `walking_meditation`.
    private static func snakeCase(_ text: String) -> String {
        var result = ""
        var previous: Character?
        for character in text {
            if character.isUppercase, let previous, previous.isLowercase || previous.isNumber {
                result.append("_")
            }
            if character.isLetter || character.isNumber {
                result.append(contentsOf: character.lowercased())
            } else if !result.isEmpty, result.last != "_" {
                result.append("_")
            }
            previous = character
        }
        while result.last == "_" { result.removeLast() }
        return result
    }

    /// Older and localized Insight Timer exports write the activity in the app's language.
    private static let synonyms: [String: String] = {
        let groups: [String: [String]] = [
            "meditation": ["meditation", "meditacion", "meditacao", "meditazione", "meditatie", "medytacja",
                           "meditasyon", "meditace", "meditaatio", "meditasjon", "meditering", "медитация",
                           "瞑想", "冥想", "명상"],
            "yoga": ["yoga", "ioga", "joga", "jooga", "йога", "ヨガ", "瑜伽", "요가"],
            "tai_chi": ["tai_chi", "taichi", "tai_chi_chuan", "taiji", "太極拳", "太极拳", "тайцзи"],
            "walking": ["walking", "caminar", "caminata", "caminhada", "marche", "gehen", "camminata",
                        "wandelen", "ходьба"],
        ]
        var table: [String: String] = [:]
        for (kind, words) in groups {
            for word in words { table[word] = kind }
        }
        return table
    }()
}
