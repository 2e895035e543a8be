import Foundation
import SplashApplier
#if canImport(BackgroundTasks)
import BackgroundTasks
#endif

/// Keeps the app's launch screen in step with the campaigns in a downloaded splashgen bundle.
public enum LaunchScreenUpdater {
    /// The public key from `splashgen keygen -o KEY`: the text after "ed25519-public " in KEY.pub.
    static let publicKey = "PASTE-THE-BASE64-FROM-KEY.pub"

    /// Runs the applier off the main thread; call it after launch and from the background refresh.
    public static func update(bundleFolder: URL, refreshTask: String) {
        Task.detached(priority: .utility) {
            let info = Bundle.main.infoDictionary ?? [:]
            let system = ProcessInfo.processInfo.operatingSystemVersion
            var applier = SnapshotApplier(
                container: URL(fileURLWithPath: NSHomeDirectory()), bundle: bundleFolder,
                appVersion: info["CFBundleShortVersionString"] as? String ?? "0",
                appBuild: info["CFBundleVersion"] as? String ?? "0",
                osVersion: OSVersion(major: system.majorVersion, minor: system.minorVersion),
                decoder: ImageIODecoder())
            applier.trustedKey = Data(base64Encoded: publicKey)
            applier.interfaceStyle = InterfaceStyle(infoPlistValue: info["UIUserInterfaceStyle"] as? String)
            applier.appBundleID = Bundle.main.bundleIdentifier
            do {
                let report = try await applier.apply()
                for problem in report.problems { print("splashgen: \(problem.code.rawValue): \(problem)") }
                if let next = report.nextChange { scheduleRefresh(at: next, task: refreshTask) }
            } catch {
                print("splashgen: \(error)")  // nothing was changed that could not be finished safely
            }
        }
    }

    /// Asks the system to wake the app when the schedule next changes.
    static func scheduleRefresh(at date: Date, task: String) {
        #if canImport(BackgroundTasks) && os(iOS)
        let request = BGAppRefreshTaskRequest(identifier: task)
        request.earliestBeginDate = date
        try? BGTaskScheduler.shared.submit(request)
        #endif
    }
}
