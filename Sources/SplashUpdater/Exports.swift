// An app that imports SplashUpdater names the applier's types too (ApplyReport, BundleTrust,
// PinnedKey, ScreenSize, …): the updater's API is made of them.
@_exported import SplashApplier
