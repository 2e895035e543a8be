// Expectations: docs/ios-launch-cache.md §1 (SpringBoard 26.1, decompiled: a side-layout copy of
// every default request for an iPad app that does not require full screen, at the side width and
// the request's own height; an iPhone-only app's requests at SBPhoneOnPadFallbackLaunchSize), the
// iPad Pro 13-inch (M5) simulator log (375x1376 portrait, 375x1032 landscape), and Geoff Hackworth's
// 2019 sizes of an iPhone app on an iPad (375x667 on the 12.9-inch, 320x480 elsewhere).
import Foundation
import SplashCore
import SplashFormat
import SplashTestSupport
import Testing

@Suite struct IPadWindowCatalogueTests {
    @Test func everyWindowIsOfACatalogueIPadAndCitesItsSource() throws {
        let catalogue = try DeviceCatalogue.bundled()
        let windows = catalogue.devices.filter(\.isWindow)
        #expect(windows.count == 4)
        for window in windows {
            #expect((window.source ?? "").count > 60, "\(window.name) cites its source")
            if let of = window.windowOf {
                let iPad = try #require(catalogue.device(named: of.device), "\(window.name) is a window of a catalogue iPad")
                #expect(of.pixels == Manifest.Size(width: iPad.points.width * iPad.scale, height: iPad.points.height * iPad.scale))
                #expect(window.family == .ipad && window.scale == iPad.scale)
                #expect(window.points == Manifest.Size(width: 375, height: 1376) && window.landscapePoints == Manifest.Size(width: 375, height: 1032))
            } else {
                #expect(window.iphoneAppOnIpad == true && window.family == .iphone && window.confidence == "inferred")
            }
        }
        // Measured on the M5 only; the M4 is worked out from the same inputs, and says so.
        #expect(catalogue.device(named: "iPad Pro 13-inch (M5) (side layout)")?.confidence == nil)
        #expect(catalogue.device(named: "iPad Pro 13-inch (M4) (side layout)")?.confidence == "inferred")
    }

    @Test func aSideLayoutWindowIsGivenAsItShowsInEachOrientation() throws {
        let catalogue = try DeviceCatalogue.bundled()
        let screens = DeviceCatalogue.screens(of: catalogue.select(.some([.named("iPad Pro 13-inch (M5)")])))
        let side = try #require(screens.first { $0.windowOf != nil })
        #expect(side.pixels(.portrait) == Manifest.Size(width: 750, height: 2752))
        #expect(side.pixels(.landscape) == Manifest.Size(width: 750, height: 2064), "taller than wide in landscape: 375x1032 pt, not turned")
        #expect(side.windowOf == Manifest.Size(width: 2064, height: 2752))
    }

    @Test func whichWindowsACampaignBuildsFollowsHowTheAppRunsOnAnIPad() throws {
        let catalogue = try DeviceCatalogue.bundled()
        func names(_ selection: DeviceSelection, sideLayout: Bool = true, iphoneOnly: Bool = false) -> Set<String> {
            Set(catalogue.select(selection, sideLayout: sideLayout, iphoneOnly: iphoneOnly).filter(\.isWindow).map(\.name))
        }
        let sides: Set = ["iPad Pro 13-inch (M4) (side layout)", "iPad Pro 13-inch (M5) (side layout)"]
        let onIPad: Set = ["iPhone app on iPad (12.9-inch and 13-inch)", "iPhone app on iPad (other iPads)"]
        #expect(names(.all) == sides, "an app that does not require full screen: the side windows, no iPhone app on an iPad")
        #expect(names(.some([.family(.ipad)])) == sides)
        #expect(names(.some([.named("iPad Pro 13-inch (M5)")])) == ["iPad Pro 13-inch (M5) (side layout)"])
        #expect(names(.some([.family(.iphone)])).isEmpty)
        #expect(names(.all, sideLayout: false).isEmpty, "UIRequiresFullScreen: no side window")
        #expect(names(.all, iphoneOnly: true) == onIPad, "an iPhone-only app: the iPhone screens on an iPad")
        #expect(!catalogue.select(.all, iphoneOnly: true).contains { $0.family == .ipad }, "and no iPad of its own")
    }

    @Test func theAppSaysHowItRunsOnAnIPad() throws {
        let folder = temporaryFolder("windows")
        func screens(_ app: String) throws -> [String] {
            let yaml = """
                schema: 1
                name: w
                app:
                  bundle_id: com.example.shop
                \(app)
                schedule:
                  start: 2026-11-10T20:00:00+08:00
                orientations: [portrait, landscape]
                appearances:
                  light:
                    background: "#FFFFFF"
                """
            return try CampaignLoader(catalogue: try DeviceCatalogue.bundled()).load(yaml: yaml, file: "w.yaml", baseDirectory: folder).screens
                .map { "\($0.pixels(.portrait).width)x\($0.pixels(.portrait).height)" }
        }
        #expect(try screens("").contains("750x2752"))
        #expect(try !screens("  requires_full_screen: true").contains("750x2752"))
        let iphoneOnly = try screens("  iphone_only: true")
        #expect(iphoneOnly.contains("640x960") && iphoneOnly.contains("750x1334") && !iphoneOnly.contains("2064x2752"))
    }
}
