import JumpCapture
import JumpForms
import Testing
import TestSupport

/// `ClientConfig` from plain values (an app without `jump.yaml`): the same values send the
/// same requests as the YAML configuration, and what is left out has the SDKs' defaults.
@Suite struct PlainConfigTests {
    /// The repository's `jump.yaml`, written as an app would in code.
    static let plain = ClientConfig(
        captureDomain: CaptureFixtures.capture.description, captureClientId: "localdev0123456789abcdefghijklmn",
        captureLocale: LocaleTag("en-US")!, captureAppId: "localapp", captureFlowName: "standard", enableThinRegistration: true,
        engageAppId: "localengageappid000", engageWhitelistedDomain: "https://example.com", redirectUri: "https://example.com/cb")

    /// Every request a builder makes, as body text, for a configuration.
    static func requests(_ config: ClientConfig) throws -> [String] {
        let loaded = CaptureFixtures.loaded
        let builder = RequestBuilder(
            config: config, flow: loaded.flow, localizer: loaded.localizer(), locale: CaptureFixtures.locale, capture: CaptureFixtures.capture)
        let secret = CaptureFixtures.secret
        let today = CaptureFixtures.today
        let made = [
            try builder.signIn(["signInEmailAddress": "ana@example.com", "currentPassword": "pw"], refreshSecret: secret, today: today),
            builder.socialSignIn(token: "engage-token", refreshSecret: secret),
            try builder.register(CaptureFixtures.registration, refreshSecret: secret, today: today),
            try builder.socialRegister(CaptureFixtures.registration, token: "engage-token", refreshSecret: secret, today: today),
            try builder.forgotPassword(["signInEmailAddress": "ana@example.com"], today: today),
            try builder.resendVerification(["signInEmailAddress": "ana@example.com"], today: today),
            builder.refreshAccessToken(accessToken: "token", refreshSecret: secret, epochSeconds: CaptureFixtures.epoch),
            builder.readRecord(accessToken: "token", attribute: "/primaryAddress"),
            builder.updateObject(accessToken: "token", attribute: nil, value: ["aboutMe": "Hola"])
        ]
        return made.map { "\($0.method) \($0.server)\($0.path) \(String(decoding: $0.body, as: UTF8.self))" }
    }

    @Test func theSameValuesSendWhatJumpYAMLSends() throws {
        var yaml = CaptureFixtures.config
        yaml.captureDomain = Located(.url(CaptureFixtures.capture.description), at: yaml.captureDomain.location)
        #expect(try Self.requests(Self.plain) == Self.requests(yaml))
        let setup = try CaptureSetup(config: Self.plain, flow: CaptureFixtures.loaded.flow, localizer: CaptureFixtures.loaded.localizer())
        #expect(setup.isRemote && setup.capture == CaptureFixtures.capture)
        #expect(try setup.flowDocumentSource().url == "https://d1lqe9temigv1p.cloudfront.net/widget_data/flows/localapp/standard/HEAD/en-US.json")
        // Before there is a flow: the document the configuration names, in its locale or another.
        #expect(FlowDocumentSource(config: Self.plain)?.url == (try setup.flowDocumentSource().url))
        #expect(FlowDocumentSource(config: Self.plain, locale: LocaleTag("fr-FR")!)?.url.hasSuffix("/localapp/standard/HEAD/fr-FR.json") == true)
    }

    @Test func whatIsLeftOutHasTheSDKsDefaults() throws {
        let config = ClientConfig(
            captureDomain: "https://example.us.janraincapture.com", captureClientId: "client", captureLocale: LocaleTag("fr-FR")!)
        #expect(config.captureFlowVersion.value == "HEAD")
        #expect(config.captureFlowDomain == nil && config.captureAppId == nil && config.captureFlowName == nil)
        #expect(config.engageDomain.value == "https://rpxnow.com")
        #expect(config.enableThinRegistration.value == false, "JumpConfig.java:238; jump.yaml's default is true")
        #expect(config.captureTraditionalSignInType.value == .email)
        #expect(config.redirectUri == nil && config.responseType.value == "token")
        #expect(
            config.namedForms.map(\.form.value) == [
                "signInForm", "registrationForm", "socialRegistrationForm", "forgotPasswordForm", "editProfileForm", "resendVerificationForm",
                "changePasswordForm"
            ])
        #expect(config.path == "ClientConfig" && config.captureClientId.location.description == "ClientConfig:1:1")

        let setup = try CaptureSetup(config: config, flow: CaptureFixtures.loaded.flow, localizer: CaptureFixtures.loaded.localizer())
        #expect(setup.locale == LocaleTag("fr-FR")!)
        let social = setup.builder.socialSignIn(token: "engage-token", refreshSecret: CaptureFixtures.secret)
        #expect(social.parameters.first { $0.name == "thin_registration" }?.value == "false")
        #expect(social.parameters.first { $0.name == "redirect_uri" }?.value == "https://example.us.janraincapture.com")
        // No app id or flow name: no flow document to read flow_version from, named by the source.
        #expect(FlowDocumentSource(config: config) == nil)
        #expect(throws: CaptureSetupError.noAppId(configPath: "ClientConfig", capture: setup.capture)) { try setup.flowDocumentSource() }
    }

    @Test func aDomainThatIsNotAURLIsRefusedWhenUsed() {
        let config = ClientConfig(captureDomain: "example.us.janraincapture.com", captureClientId: "client", captureLocale: LocaleTag("en-US")!)
        #expect(throws: CaptureSetupError.notAServerURL("example.us.janraincapture.com")) {
            try CaptureSetup(config: config, flow: CaptureFixtures.loaded.flow, localizer: CaptureFixtures.loaded.localizer())
        }
        let engage = ClientConfig(
            captureDomain: "https://example.us.janraincapture.com", captureClientId: "client", captureLocale: LocaleTag("en-US")!,
            engageDomain: "rpxnow")
        #expect(throws: CaptureSetupError.engageNotAURL("rpxnow")) {
            try CaptureSetup(config: engage, flow: CaptureFixtures.loaded.flow, localizer: CaptureFixtures.loaded.localizer())
        }
    }
}
