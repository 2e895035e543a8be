// For ios-check only: the one case of SplashSimulator's SimulatorError that its OS codecs throw, so
// that Sources/SplashSimulator/OSCodecs+Apple.swift type-checks as a module of its own against the
// SDK's ImageIO, Core Graphics and AppleTextureEncoder (the rest of the simulator is not iOS code).
enum SimulatorError: Error {
    case codec(String)
}
