import Foundation
import SplashCore
import SplashFormat
import Testing

/// The Display Zoom sizes, as published (docs/ios-launch-cache.md §9 and the sources cited in devices.json).
enum ZoomTable {
    /// Standard screen (points, scale) → zoomed points.
    static let zoomed: [String: Manifest.Size] = [
        "375x667@2": Manifest.Size(width: 320, height: 568),
        "414x736@3": Manifest.Size(width: 375, height: 667),
        "390x844@3": Manifest.Size(width: 320, height: 693),
        "428x926@3": Manifest.Size(width: 375, height: 812),
        "375x812@3": Manifest.Size(width: 320, height: 693),
        "414x896@2": Manifest.Size(width: 375, height: 812),
        "414x896@3": Manifest.Size(width: 375, height: 812),
    ]
    /// Devices with a screen of the table whose zoomed size no source has published yet (§9 of
    /// docs/ios-launch-cache.md): they get no entry until one does.
    static let unsourced: Set = ["iPhone 12 mini", "iPhone 13 mini"]
    /// Zoomed sizes that are no model's standard screen, so they need snapshots of their own.
    static let newSizes = ["1125x2001", "960x2079", "750x1624"]
    /// Windows an iPad caches beside its full screen that a campaign builds by default (the 13-inch
    /// iPad Pros' side-layout window, docs/ios-launch-cache.md §1): one screen more, an iPad's.
    static let sideLayoutScreens = 1
}

@Suite struct DisplayZoomTests {
    @Test func everyZoomedEntryIsCitedAndMatchesThePublishedSize() throws {
        let catalogue = try DeviceCatalogue.bundled()
        let zoomed = catalogue.devices.filter(\.isZoomed)
        #expect(!zoomed.isEmpty)
        for entry in zoomed {
            let device = try #require(catalogue.device(named: entry.displayZoomOf ?? ""), "\(entry.name) names no catalogue device")
            #expect(entry.name == device.name + " (Display Zoom)")
            #expect(entry.scale == device.scale, "UIScreen.scale stays the same when zoomed (docs/ios-launch-cache.md §9)")
            #expect(entry.family == .iphone)
            #expect((entry.source ?? "").count > 40, "\(entry.name) cites where its size was published")
            let key = "\(device.points.width)x\(device.points.height)@\(device.scale)"
            #expect(ZoomTable.zoomed[key] == entry.points, "\(entry.name)")
        }
        // Every standard screen of the table has its zoomed entries.
        for device in catalogue.devices
        where !device.isZoomed && !device.isWindow && !ZoomTable.unsourced.contains(device.name)
            && ZoomTable.zoomed["\(device.points.width)x\(device.points.height)@\(device.scale)"] != nil
        {
            #expect(zoomed.contains { $0.displayZoomOf == device.name }, "\(device.name) has no Display Zoom entry")
        }
    }

    @Test func campaignsRenderZoomedSizesUnlessTheySayNot() throws {
        let catalogue = try DeviceCatalogue.bundled()
        let all = DeviceCatalogue.screens(of: catalogue.select(.all))
        let pixels = Set(all.map { "\($0.pixels(.portrait).width)x\($0.pixels(.portrait).height)" })
        #expect(pixels.isSuperset(of: ZoomTable.newSizes))
        #expect(DeviceCatalogue.screens(of: catalogue.select(.all, displayZoom: false)).count == all.count - ZoomTable.newSizes.count)
        let named = catalogue.select(.some([.named("iPhone 13")])).map(\.name)
        #expect(named == ["iPhone 13", "iPhone 13 (Display Zoom)"], "naming a device brings its zoomed screen along")

        let folder = try scratchCopyOfGoodCampaign()
        let url = folder.appendingPathComponent("c.yaml")
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "devices: [\"iPhone 15\"]", with: "devices: [\"iPhone 13\"]")
        try text.write(to: url, atomically: true, encoding: .utf8)
        #expect(try loadCampaign(url).screens.map { $0.pixels(.portrait).width } == [960, 1170])
        try (text + "display_zoom: false\n").write(to: url, atomically: true, encoding: .utf8)
        #expect(try loadCampaign(url).screens.map { $0.pixels(.portrait).width } == [1170])
    }
}
