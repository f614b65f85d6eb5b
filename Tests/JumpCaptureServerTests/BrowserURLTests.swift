import JumpCapture
import JumpForms
@testable import JumpCaptureServer
import Testing

/// `BrowserURL` against the WHATWG URL Standard: each row is what a browser's `new URL(input)`
/// gives (checked with Node 20's WHATWG parser): the scheme, the hostname and the port, or a
/// failure (nil).
@Suite struct BrowserURLTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var input: String
        var host: String?
        var port: Int? = nil
        var scheme: String? = nil
        var testDescription: String { input.debugDescription }
    }

    static let cases: [Case] = [
        Case(input: "https://example.com/", host: "example.com"),
        Case(input: "HTTPS://EXAMPLE.COM/", host: "example.com", scheme: "https"),
        // Userinfo: the host follows the last `@` of the authority.
        Case(input: "http://[::1]@evil.net/", host: "evil.net"),
        Case(input: "https://example.com@evil.net/", host: "evil.net"),
        Case(input: "https://ex@mple@evil.net/", host: "evil.net"),
        Case(input: "https://evil.net:443@example.com/", host: "example.com"),
        Case(input: "https://user:pass@example.com:443/", host: "example.com"),
        Case(input: "http://@example.com/", host: "example.com"),
        Case(input: "http://user@/", host: nil),
        // Backslashes end a special URL's authority, and count as slashes after the scheme.
        Case(input: "https://evil.net\\.example.com/", host: "evil.net"),
        Case(input: "https://example.com\\@evil.net/", host: "example.com"),
        Case(input: "https:\\\\evil.net/", host: "evil.net"),
        Case(input: "https:///evil.net/", host: "evil.net"),
        Case(input: "https:example.com", host: "example.com"),
        // `#`, `?` and `/` end the authority before a later `@`.
        Case(input: "https://evil.net#@example.com/", host: "evil.net"),
        Case(input: "https://evil.net?@example.com/", host: "evil.net"),
        Case(input: "https://evil.net/\\@example.com", host: "evil.net"),
        // Percent-encoded hosts are decoded; a decoded forbidden code point fails.
        Case(input: "https://%65xample.com/", host: "example.com"),
        Case(input: "https://evil.net%2eexample.com/", host: "evil.net.example.com"),
        Case(input: "https://example.com%2e/", host: "example.com."),
        Case(input: "https://evil.net%5c.example.com/", host: nil),
        Case(input: "https://evil.net%2fexample.com/", host: nil),
        Case(input: "https://ex%00ample.com/", host: nil),
        Case(input: "https://ex%7fample.com/", host: nil),
        Case(input: "https://exa mple.com/", host: nil),
        Case(input: "https://ex\u{7F}ample.com/", host: nil),
        // Trailing dots stay; case folds.
        Case(input: "https://example.com./", host: "example.com."),
        Case(input: "https://localhost./", host: "localhost."),
        Case(input: "https://a..example.com/", host: "a..example.com"),
        // Tabs and newlines anywhere are removed; C0 controls and spaces around are stripped.
        Case(input: "https://exa\tmple.com/", host: "example.com"),
        Case(input: "https://exa\nmple.com/", host: "example.com"),
        Case(input: " https://example.com/ ", host: "example.com"),
        Case(input: "\u{0}https://example.com/", host: "example.com"),
        // IPv4: a host ending in a number is an address, in any of its forms.
        Case(input: "http://0x7f.1/", host: "127.0.0.1"),
        Case(input: "http://2130706433/", host: "127.0.0.1"),
        Case(input: "http://0177.0.0.1/", host: "127.0.0.1"),
        Case(input: "http://127.1/", host: "127.0.0.1"),
        Case(input: "http://0x7f.0.0.1./", host: "127.0.0.1"),
        Case(input: "http://1.2.3.4./", host: "1.2.3.4"),
        Case(input: "http://1.2.3.4../", host: "1.2.3.4.."),
        Case(input: "http://4294967295/", host: "255.255.255.255"),
        Case(input: "http://0x100000000/", host: nil),
        Case(input: "http://1.2.3.4.5/", host: nil),
        Case(input: "http://256.0.0.1/", host: nil),
        Case(input: "http://1.2.3.09/", host: nil),
        Case(input: "http://foo.09/", host: nil),
        Case(input: "http://foo.0x/", host: nil),
        // IPv6, serialized compressed.
        Case(input: "http://[0:0:0:0:0:0:0:1]/", host: "[::1]"),
        Case(input: "http://[0::0:0:1]:80/", host: "[::1]"),
        Case(input: "http://[::ffff:127.0.0.1]/", host: "[::ffff:7f00:1]"),
        Case(input: "http://[::127.0.0.1]/", host: "[::7f00:1]"),
        Case(input: "http://[::1.2.3.4]/", host: "[::102:304]"),
        Case(input: "http://[1::]/", host: "[1::]"),
        Case(input: "http://[::]/", host: "[::]"),
        Case(input: "http://[1:0:0:2::3:0]/", host: "[1::2:0:0:3:0]"),
        Case(input: "http://[1:2:3:4:5:6:7:8:9]/", host: nil),
        Case(input: "https://[::1/", host: nil),
        // Ports: digits up to 65535; the default port is dropped.
        Case(input: "https://example.com:8443/", host: "example.com", port: 8443),
        Case(input: "http://example.com:0080/", host: "example.com"),
        Case(input: "ws://example.com:80/", host: "example.com", scheme: "ws"),
        Case(input: "https://EXAMPLE.com:/", host: "example.com"),
        Case(input: "http://example.com:65536/", host: nil),
        // Punycode is taken as written.
        Case(input: "https://xn--nxasmq6b.com/", host: "xn--nxasmq6b.com"),
        // Other schemes: an opaque host after `//`, as written; none without `//`.
        Case(input: "jrmsampleapp1://SimpleCaptureDemo/", host: "SimpleCaptureDemo", scheme: "jrmsampleapp1"),
        Case(input: "myapp://user@host:12/x", host: "host", port: 12, scheme: "myapp"),
        Case(input: "myapp://ho%st/", host: "ho%st", scheme: "myapp"),
        Case(input: "myapp://ho st/", host: nil),
        // No scheme: a browser needs a base URL, which a token URL does not have.
        Case(input: "//example.com/", host: nil)
    ]

    @Test(arguments: cases) func parsesAsABrowserDoes(_ row: Case) {
        let url = BrowserURL(row.input)
        #expect(url?.host == row.host, "\(row.input.debugDescription): \(String(describing: url))")
        if row.host != nil {
            #expect(url?.port == row.port, "\(row.input.debugDescription)")
            if let scheme = row.scheme { #expect(url?.scheme == scheme) }
        }
    }

    /// URLs a browser parses with no host (the parse succeeds, the host is empty).
    @Test func urlsWithoutAuthorityHaveNoHost() {
        for input in ["javascript:alert(1)", "myapp:\\\\evil.net", "mailto:someone@example.com"] {
            let url = BrowserURL(input)
            #expect(url != nil && url?.host == nil, "\(input)")
        }
        #expect(BrowserURL("myapp:///path")?.host == "")
    }

    /// The departures from a browser, on the refusing side: a host that is not ASCII (which a
    /// browser maps through IDNA: `exämple.com` is `xn--exmple-cua.com`, a full-width dot is a
    /// dot) and `file:` URLs are not parsed.
    @Test func nonASCIIHostsAndFileURLsAreNotParsed() {
        for input in ["https://exämple.com/", "https://evil.net\u{FF0E}example.com/", "https://evil.net%EF%BC%8Eexample.com/", "file:///etc/passwd"] {
            #expect(BrowserURL(input) == nil, "\(input)")
        }
    }

    @Test func loopbackAndHostMatching() throws {
        for input in ["http://localhost:8080/", "http://127.0.0.1/", "http://127.9.8.7/", "http://0x7f.1/", "http://[::1]:9/", "https://localhost./"]
        {
            #expect(BrowserURL(input)?.isLoopback == true, "\(input)")
        }
        for input in ["http://[::1]@evil.net/", "http://127.example.com/", "http://128.0.0.1/", "http://[::2]/", "myapp://localhost/"] {
            #expect(BrowserURL(input)?.isLoopback == false, "\(input)")
        }
        let whitelisted = try #require(BrowserURL("https://example.com"))
        for input in ["https://example.com/x", "https://a.example.com/", "https://A.EXAMPLE.COM./", "http://example.com:8443/"] {
            #expect(BrowserURL(input)?.hostIsWithin(whitelisted) == true, "\(input)")
        }
        for input in ["https://evilexample.com/", "https://example.com.evil.net/", "https://evil.net\\.example.com/", "https://[::1]@evil.net/"] {
            #expect(BrowserURL(input)?.hostIsWithin(whitelisted) == false, "\(input)")
        }
        // An address matches only itself.
        let address = try #require(BrowserURL("https://10.0.0.1"))
        #expect(BrowserURL("https://10.0.0.1:8443/")?.hostIsWithin(address) == true)
        #expect(BrowserURL("https://5.10.0.0.1/") == nil)
    }

    /// A provider dialog redirects only to a token URL on the whitelisted host as a browser
    /// reads it (jump.yaml whitelists `https://example.com`): a user name that looks like a
    /// loopback address, a backslash, an encoded slash or an `@` after `#` no longer pass.
    @Test func theEngageDialogRefusesTokenURLsABrowserSendsElsewhere() async throws {
        try await withServer { server in
            func start(_ tokenURL: String) async throws -> (status: Int, location: String?) {
                let answer = try await server.raw(
                    .GET, "/google/start?identity=ana.ruiz@example.com&token_url=" + FormEncoding.encodeComponent(tokenURL))
                return (answer.status, answer.headers.first(name: "location"))
            }
            for refused in [
                "http://[::1]@evil.net/", "https://evil.net\\.example.com/", "https://example.com@evil.net/",
                "https://evil.net#@example.com/", "https://evil.net?x=.example.com", "http://127.0.0.1@evil.net/",
                "https://evil.net%5c.example.com/", "https:\\\\evil.net/", "https://evil.net%2fexample.com/",
                "https://exämple.com/", "javascript:alert(1)//example.com", "//example.com/", "https://evilexample.com/"
            ] {
                let answer = try await start(refused)
                #expect(answer.status == 400, "\(refused): \(answer)")
            }
            for allowed in [
                "https://example.com/", "https://a.example.com/token", "HTTPS://EXAMPLE.COM./", "https://%65xample.com/",
                "https://user@example.com/", "http://0x7f.1:9/", "http://[::1]:9/", "http://localhost:9/"
            ] {
                let answer = try await start(allowed)
                #expect(answer.status == 302, "\(allowed): \(answer)")
                #expect(answer.location?.hasPrefix(allowed + "?token=") == true, "\(allowed): \(answer)")
            }
        }
    }
}
