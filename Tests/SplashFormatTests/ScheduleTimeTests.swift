import Foundation
import SplashFormat
import Testing

/// Written instants: the calendar and the clock, worked out by hand.
@Suite struct ScheduleTimeTests {
    @Test(arguments: ["2028-02-29T00:00:00Z", "2000-02-29T12:00:00+08:00", "2026-12-31T23:59:59-14:00", "2026-11-10T20:00:00.250Z"])
    func realInstantsRead(_ text: String) {
        #expect(ScheduleTime.date(text) != nil, "\(text)")
    }

    @Test func theOffsetIsKeptAndEchoed() throws {
        #expect(ScheduleTime.date("2026-11-10T20:00:00+08:00") == ScheduleTime.date("2026-11-10T12:00:00Z"))
        let zone = try #require(ScheduleTime.timeZone(of: "2026-11-10T20:00:00-05:30"))
        #expect(zone.secondsFromGMT() == -(5 * 3600 + 30 * 60))
        #expect(ScheduleTime.format(try #require(ScheduleTime.date("2026-11-11T01:30:00Z")), in: zone) == "2026-11-10T20:00:00-05:30")
        #expect(ScheduleTime.format(try #require(ScheduleTime.date("2026-11-11T01:30:00Z")), in: TimeZone(secondsFromGMT: 0)!) == "2026-11-11T01:30:00Z")
    }

    @Test(arguments: [
        ("2100-02-29T00:00:00Z", "not a real date and time: February 2100 has 28 days, not 29"),
        ("2026-04-31T00:00:00Z", "not a real date and time: April 2026 has 30 days, not 31"),
        ("2026-13-01T00:00:00Z", "not a real date and time: month 13 is not 1 to 12"),
        ("0000-01-01T00:00:00Z", "not a real date and time: year 0 is before 1970, where the clocks phones keep begin"),
        ("1969-12-31T23:59:59Z", "not a real date and time: year 1969 is before 1970, where the clocks phones keep begin"),
        ("2026-11-10T24:00:00Z", "not a real date and time: hour 24 is beyond 23"),
        ("2026-11-10T23:60:00Z", "not a real date and time: minute 60 is beyond 59"),
        ("2026-11-10T23:59:60Z", "not a real date and time: second 60 is beyond 59 (leap seconds cannot be scheduled)"),
        ("2026-11-10T20:00:00+15:00", "not a real date and time: offset 15:00 is beyond ±14:00"),
        ("2026-11-10T20:00:00", "expected an ISO 8601 date and time with offset, e.g. 2026-11-10T20:00:00+08:00"),
        ("2026-11-10T20:00+08:00", "expected an ISO 8601 date and time with offset, e.g. 2026-11-10T20:00:00+08:00"),
        ("tomorrow", "expected an ISO 8601 date and time with offset, e.g. 2026-11-10T20:00:00+08:00"),
    ])
    func impossibleInstantsAreRefusedNotShifted(_ text: String, _ message: String) {
        guard case .failure(let problem) = ScheduleTime.parse(text) else { Issue.record("\(text) read"); return }
        #expect(problem.description == message)
    }

    /// Times are shown as the campaign's author wrote them, UTC beside (issue 28, A5): only the UTC
    /// time when the date is the same, the whole stamp when it is not, nothing beside UTC itself.
    @Test func timesAreShownInTheWrittenOffsetWithUTCBeside() throws {
        let start = try ScheduleTime.parse("2026-11-10T20:00:00+08:00").get()
        let end = try ScheduleTime.parse("2026-11-12T02:00:00+08:00").get()
        let beijing = TimeZone(secondsFromGMT: 8 * 3600)
        #expect(ScheduleTime.written(start, in: beijing) == "2026-11-10T20:00:00+08:00 (12:00:00Z)")
        #expect(ScheduleTime.written(end, in: beijing) == "2026-11-12T02:00:00+08:00 (2026-11-11T18:00:00Z)")
        #expect(ScheduleTime.written(start, in: TimeZone(secondsFromGMT: 0)) == "2026-11-10T12:00:00Z")
        #expect(ScheduleTime.written(start, in: nil) == "2026-11-10T12:00:00Z")
    }
}
