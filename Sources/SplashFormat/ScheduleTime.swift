import Foundation

/// The one reader of the instants people write (campaign schedules, `--now`): ISO 8601 date and time
/// with an explicit offset, every field checked against the calendar instead of rolled over
/// (`2026-02-30`, `T25:00`, `23:59:60` are refused, never shifted).
package enum ScheduleTime {
    /// The instant `text` names, or why it names none.
    package static func parse(_ text: String) -> Result<Date, ScheduleTimeError> {
        let pattern = #"^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-](\d{2}):(\d{2}))$"#
        guard let match = try? NSRegularExpression(pattern: pattern).firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) else {
            return .failure(.format)
        }
        func field(_ index: Int) -> Int? {
            Range(match.range(at: index), in: text).flatMap { Int(text[$0]) }
        }
        guard let year = field(1), let month = field(2), let day = field(3), let hour = field(4), let minute = field(5) else {
            return .failure(.format)
        }
        guard let second = field(6) else { return .failure(.format) }
        // Year 0 is not a year of the calendar phones keep (1 BC precedes AD 1), and nothing is
        // scheduled before the clocks phones keep begin.
        guard year >= 1970 else { return .failure(.outOfRange("year \(year) is before 1970, where the clocks phones keep begin")) }
        guard (1...12).contains(month) else { return .failure(.outOfRange("month \(month) is not 1 to 12")) }
        let days = daysIn(month: month, year: year)
        guard (1...days).contains(day) else {
            return .failure(.outOfRange("\(monthNames[month - 1]) \(year) has \(days) days, not \(day)"))
        }
        guard hour <= 23 else { return .failure(.outOfRange("hour \(hour) is beyond 23")) }
        guard minute <= 59 else { return .failure(.outOfRange("minute \(minute) is beyond 59")) }
        guard second <= 59 else { return .failure(.outOfRange("second \(second) is beyond 59 (leap seconds cannot be scheduled)")) }
        if let offsetHours = field(8), let offsetMinutes = field(9) {
            guard offsetHours <= 14, offsetMinutes <= 59 else {
                return .failure(.outOfRange("offset \(offsetHours):\(String(format: "%02d", offsetMinutes)) is beyond ±14:00"))
            }
        }
        guard let date = try? Date(text, strategy: .iso8601) else { return .failure(.format) }
        return .success(date)
    }

    /// The instant, or nil.
    package static func date(_ text: String) -> Date? { try? parse(text).get() }

    /// The offset `text` was written with (`Z` is UTC), to echo times as the user wrote them.
    package static func timeZone(of text: String) -> TimeZone? {
        guard date(text) != nil else { return nil }
        if text.hasSuffix("Z") { return TimeZone(secondsFromGMT: 0) }
        let offset = text.suffix(6)
        guard let hours = Int(offset.dropFirst().prefix(2)), let minutes = Int(offset.suffix(2)) else { return nil }
        return TimeZone(secondsFromGMT: (offset.hasPrefix("-") ? -1 : 1) * (hours * 3600 + minutes * 60))
    }

    /// `date` as ISO 8601 in `timeZone`: `2026-11-10T20:00:00+08:00`, or `…Z` in UTC (nil: UTC, the
    /// style's own default, so no time zone is made, and none can fail to be).
    package static func format(_ date: Date, in timeZone: TimeZone?) -> String {
        var style = timeZone.map { Date.ISO8601FormatStyle(timeZone: $0) } ?? Date.ISO8601FormatStyle()
        style = style.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .colon)
        return date.formatted(style)
    }

    /// `date` as a campaign's author wrote its times, in `timeZone` (its schedule's offset), with UTC
    /// beside it when that is another: `2026-11-10T20:00:00+08:00 (12:00:00Z)`, or just the UTC time.
    package static func written(_ date: Date, in timeZone: TimeZone?) -> String {
        let inUTC = format(date, in: nil)
        guard let timeZone, timeZone.secondsFromGMT(for: date) != 0 else { return inUTC }
        let local = format(date, in: timeZone)
        // The UTC time alone when the date is the same, the whole UTC stamp when it is not.
        let utcPart = inUTC.prefix(10) == local.prefix(10) ? String(inUTC.dropFirst(11)) : inUTC
        return "\(local) (\(utcPart))"
    }

    /// The offset a manifest's campaigns were written in when they agree (the season's), for times
    /// that belong to no one campaign; nil (UTC) when they do not.
    package static func seasonTimeZone(_ campaigns: [Manifest.Campaign]) -> TimeZone? {
        let zones = Set(campaigns.compactMap { $0.schedule.writtenTimeZone?.secondsFromGMT() })
        return zones.count == 1 ? zones.first.flatMap { TimeZone(secondsFromGMT: $0) } : nil
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Why a written instant names none.
package enum ScheduleTimeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`.
    case format
    /// A field beyond the calendar or the clock.
    case outOfRange(String)

    package var description: String {
        switch self {
        case .format: return "expected an ISO 8601 date and time with offset, e.g. 2026-11-10T20:00:00+08:00"
        case .outOfRange(let detail): return "not a real date and time: \(detail)"
        }
    }
}
