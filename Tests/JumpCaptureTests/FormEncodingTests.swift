import JumpCapture
import PropertyBased
import Testing

/// Percent-encoding round-trips any Unicode value.
@Suite struct FormEncodingTests {
    /// Any Unicode scalar but the surrogate range (mapped to U+FFFD), favouring the tricky ones.
    static let scalar = Gen<UInt32>.value(in: 0...0x10FFFF).map { Unicode.Scalar($0) ?? "\u{FFFD}" }
    static let special = Gen<Unicode.Scalar?>.element(of: ["&", "=", "+", "%", " ", "#", "?", "/", "\u{0}", "\n", "é", "🙂", "\u{202E}", "*", "~"]).map { $0! }
    static let text = Gen<Unicode.Scalar>.oneOf(scalar, special).array(of: 0...40).map { String(String.UnicodeScalarView($0)) }

    @Test func encodedValuesDecodeToThemselves() async {
        await propertyCheck(count: 2000, input: Self.text) { value in
            let encoded = FormEncoding.encode(value)
            #expect(FormEncoding.decode(Substring(encoded)) == value)
            #expect(encoded.unicodeScalars.allSatisfy { $0.isASCII && $0 != " " && $0 != "&" && $0 != "=" })
        }
    }

    @Test func pairsRoundTrip() async {
        await propertyCheck(count: 500, input: Self.text, Self.text) { name, value in
            let body = FormEncoding.encode([(name: name, value: value), (name: "k", value: "v")])
            let decoded = FormEncoding.decode(pairs: body)
            #expect(decoded?.count == 2)
            #expect(decoded?.first?.name == name && decoded?.first?.value == value)
        }
    }

    @Test func componentEncodingRoundTrips() async {
        await propertyCheck(count: 1000, input: Self.text) { value in
            let encoded = FormEncoding.encodeComponent(value)
            #expect(!encoded.contains("+"))
            #expect(FormEncoding.decode(Substring(encoded)) == value)
        }
    }

    @Test func pairsSplitting() throws {
        func names(_ body: String) -> [String]? { FormEncoding.decode(pairs: body)?.map { "\($0.name)=\($0.value)" } }
        #expect(names("a=1&&b=2&") == ["a=1", "b=2"], "empty parts are skipped")
        #expect(names("&&") == [])
        #expect(names("") == [])
        #expect(names("flag") == ["flag="], "a name without `=` has an empty value")
        #expect(names("=") == ["="])
        #expect(names("a=x=y") == ["a=x=y"], "only the first `=` splits")
        #expect(names("na+me=v%C3%A9+w&q=%26") == ["na me=vé w", "q=&"])
        #expect(names("é=ü") == ["é=ü"], "raw UTF-8 is taken as it is")
        #expect(names("a=1&b=%zz") == nil)
        #expect(names("a=%C3") == nil)
    }

    /// Names go raw, as both SDKs write them: Android `val.first.concat("=")`
    /// (ApiConnection.java:70-79), iOS `appendFormat:@"%@=%@", key, ...`
    /// (NSDictionary+JRQueryParams.m, JRConnectionManager.m:45-59 escapes values only).
    @Test func namesAreRawAsTheSDKsSendThem() {
        #expect(FormEncoding.encode([(name: "birthdate[dateselect_year]", value: "1990"), (name: "phone[home]", value: "+48 1")])
                == "birthdate[dateselect_year]=1990&phone[home]=%2B48+1")
        #expect(FormEncoding.encodeName("a-b_c.d~*!$'()[]/:@,;?") == "a-b_c.d~*!$'()[]/:@,;?")
        // What would end or change a name is still escaped, so any name round-trips.
        #expect(FormEncoding.encodeName("a b&c=d+e%f#g\u{1}é") == "a%20b%26c%3Dd%2Be%25f%23g%01%C3%A9")
    }

    @Test func namesRoundTrip() async {
        await propertyCheck(count: 1000, input: Self.text) { name in
            let encoded = FormEncoding.encodeName(name)
            #expect(FormEncoding.decode(Substring(encoded)) == name)
            #expect(encoded.unicodeScalars.allSatisfy { $0.isASCII && $0.value > 0x20 && $0 != "&" && $0 != "=" && $0 != "+" && $0 != "#" })
        }
    }

    @Test func knownEncodings() {
        #expect(FormEncoding.encode("a b&c=d+e*~é") == "a+b%26c%3Dd%2Be*%7E%C3%A9")
        #expect(FormEncoding.encodeComponent("a b~") == "a%20b~")
        #expect(FormEncoding.decode("%zz") == nil)
        #expect(FormEncoding.decode("%C3") == nil, "a truncated UTF-8 sequence is refused")
    }
}
