import ArgumentParser

/// `--signing-key FILE`: the private key (from keygen) a command signs with. `--key`, which meant a
/// private key for sign, pack and publish and a public key elsewhere, still works until the next
/// release, with a warning.
struct SigningKeyOption: ParsableArguments {
    @Option(name: .customLong("signing-key"), help: ArgumentHelp("The private key file (from keygen) to sign with.", valueName: "file"))
    var signingKey: String?
    @Option(name: .customLong("key"), help: ArgumentHelp("The deprecated spelling of --signing-key.", visibility: .hidden))
    var deprecatedKey: String?

    /// The key file given, nil when none.
    var path: String? { signingKey ?? deprecatedKey }

    func validate() throws { try KeyOption.check(signingKey, deprecatedKey, "--signing-key") }
}

/// `--public-key FILE`: a public key (KEY.pub from keygen). `--key`, its old spelling, still works
/// until the next release, with a warning.
struct PublicKeyOption: ParsableArguments {
    @Option(
        name: .customLong("public-key"),
        help: ArgumentHelp(
            "The public key file (KEY.pub from keygen): the key the app pins, so a bundle it did not sign (directly, or through an unexpired certificate) is refused; for certify, the online key to certify.",
            valueName: "file"))
    var publicKey: String?
    @Option(name: .customLong("key"), help: ArgumentHelp("The deprecated spelling of --public-key.", visibility: .hidden))
    var deprecatedKey: String?

    /// The key file given, nil when none.
    var path: String? { publicKey ?? deprecatedKey }

    func validate() throws { try KeyOption.check(publicKey, deprecatedKey, "--public-key") }
}

/// What the two key options share: one spelling at a time, and a warning for the old one.
enum KeyOption {
    /// Refuses both spellings at once; warns when the old one is used.
    static func check(_ new: String?, _ old: String?, _ name: String) throws {
        guard old != nil else { return }
        guard new == nil else { throw ValidationError("give \(name) once (--key is its old spelling)") }
        Console.error("warning: --key is deprecated here: write \(name) (--key goes in the next release)")
    }
}
