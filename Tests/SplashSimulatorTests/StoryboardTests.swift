import Foundation
import SplashCore
import SplashFormat
import SplashScenarios
import SplashSimulator
import SplashTestSupport
import Testing

/// The storyboard stand-in is read by the simulator's own code, apart from the generator's campaign
/// loader; these tests hold the two descriptions of the app's own screen together, and the reader to
/// errors that name the file and the key.
@Suite struct StoryboardTests {
    /// The shipped `LaunchScreen.json` and `campaigns/default.yaml` describe one screen: the same
    /// orientations, backgrounds, marker colours and image views (art byte for byte).
    @Test func theShippedStoryboardIsTheScreenDefaultYAMLDescribes() throws {
        let storyboard = try Storyboard.load(try Repo.ownStoryboard)
        let campaign = try CampaignLoader(catalogue: try DeviceCatalogue.bundled()).load(contentsOf: Repo.campaign("default.yaml"))
        #expect(storyboard.bundleID == campaign.app.bundleID)
        #expect(storyboard.orientations == campaign.orientations)
        #expect(Set(storyboard.scenes.keys) == Set(campaign.appearances.keys))
        for appearance in Appearance.allCases {
            #expect(storyboard.marker[appearance] == campaign.marker?[appearance], "\(appearance) marker")
            guard let scene = storyboard.scenes[appearance], let spec = campaign.appearances[appearance] else { continue }
            #expect(scene.background == spec.background, "\(appearance) background")
            #expect(scene.imageViews.count == spec.layers.count)
            for (view, layer) in zip(scene.imageViews, spec.layers) {
                let modes: [Campaign.Fit: Storyboard.ContentMode] = [.fill: .aspectFill, .fit: .aspectFit, .none: .sized]
                #expect(view.contentMode == modes[layer.fit])
                #expect(view.anchor == layer.anchor.unit)
                #expect(view.width == layer.width && view.height == layer.height && view.margin == layer.margin)
                #expect(view.safeArea == layer.safeArea && view.only == layer.orientation)
                let art = URL(fileURLWithPath: view.image, relativeTo: storyboard.folder)
                #expect(try Data(contentsOf: art) == Data(contentsOf: campaign.url(of: layer)), "\(view.image) is \(layer.image)")
            }
        }
    }

    /// A campaign file, a typo'd key, a bad colour or anchor, or a missing light scene is refused by name.
    @Test(arguments: [
        (
            ##"{"bundle_id": "a", "orientations": ["portrait"], "scenes": {"light": {"background": "#FFFFFF", "image_veiws": []}}}"##,
            ##"bad.json: scenes.light: unknown key "image_veiws""##
        ),
        (
            ##"{"bundle_id": "a", "orientations": ["portrait"], "scenes": {"light": {"background": "white"}}}"##,
            ##"bad.json: scenes.light.background is "white", not a colour such as #1A2B3C"##
        ),
        (
            ##"{"bundle_id": "a", "orientations": ["portrait"], "scenes": {"dark": {"background": "#000000"}}}"##,
            "bad.json: scenes.light is missing"
        ),
        (
            ##"{"bundle_id": "a", "orientations": ["portrait"], "scenes": {"light": {"background": "#FFFFFF", "image_views": [{"image": "x.png", "content_mode": "sized"}]}}}"##,
            "bad.json: scenes.light.image_views[0] is sized but has neither width nor height"
        ),
        (##"{"bundle_id": "a", "scenes": {}}"##, "bad.json: orientations is missing"),
    ])
    func aBadStoryboardIsRefusedByKey(_ json: String, _ message: String) throws {
        let url = temporaryFolder("storyboard").appendingPathComponent("bad.json")
        try Data(json.utf8).write(to: url)
        do {
            _ = try Storyboard.load(url)
            Issue.record("\(json) was read")
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }

    @Test func aCampaignFileIsNotAStoryboard() throws {
        #expect(throws: SimulatorError.self) { try Storyboard.load(Repo.campaign("default.yaml")) }
        do { _ = try Storyboard.load(Repo.campaign("default.yaml")) } catch {
            #expect(error.description.contains("storyboard stand-in in JSON"), "\(error.description)")
        }
    }
}
