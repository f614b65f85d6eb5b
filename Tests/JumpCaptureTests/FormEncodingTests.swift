import JumpCapture
import PropertyBased
import Testing

/// Percent-encoding round-trips any Unicode value.
@Suite struct FormEncodingTests {
    /// Any Unicode scalar but the surrogate range (mapped to U+FFFD), favouring the tricky ones.
    static let scalar = Gen<UInt32>.value(in: 0...0x10FFFF).map { Unicode.Scalar($0) ?? "\u{FFFD}" }
    static let special = Gen<Unicode.Scalar?>.element(of: ["&", "=", "+", "%", " ", "#", "?", "/", "\u{0}", "\n", "é", "🙂", "\u{202E}", "*", "~"]).map
    { $0! }
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
        #expect(
            FormEncoding.encode([(name: "birthdate[dateselect_year]", value: "1990"), (name: "phone[home]", value: "+48 1")])
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

    /// The SDKs' bodies. iOS builds entity.update and entity.replace by hand: a leading `&`,
    /// values escaped with URLQueryAllowed minus `?+=&` (so `/ : @ , ; ! $ ' ( ) * ~` stay raw,
    /// space is `%20`), the token and the attribute path raw (JRCaptureApidInterface.m:246-294,
    /// JRConnectionManager.m:45-59). Android's URLEncoder writes a space as `+`.
    @Test func theSDKsBodiesDecode() throws {
        let json = #"{"aboutMe":"J'aime (1+1=2) & a/b: c@d, e; f! $g *h ~i ?"}"#
        let ios =
            "&attributes=%7B%22aboutMe%22:%22J'aime%20(1%2B1%3D2)%20%26%20a/b:%20c@d,%20e;%20f!%20$g%20*h%20~i%20%3F%22%7D"
            + "&access_token=0123abcd&include_record=true&attribute_name=/photos#3"
        let pairs = try #require(FormEncoding.decode(pairs: ios))
        #expect(pairs.map(\.name) == ["attributes", "access_token", "include_record", "attribute_name"])
        #expect(pairs[0].value == json)
        #expect(pairs[3].value == "/photos#3")
        let android =
            "value=%7B%22aboutMe%22%3A%22J%27aime+%281%2B1%3D2%29+%26+a%2Fb%3A+c%40d%2C+e%3B+f%21+%24g+*h+%7Ei+%3F%22%7D&access_token=0123abcd"
        #expect(FormEncoding.decode(pairs: android)?.first?.value == json)
        #expect(FormEncoding.encode([("value", json), ("access_token", "0123abcd")]) == android, "FormEncoding.encode is URLEncoder's")
    }

    @Test func knownEncodings() {
        #expect(FormEncoding.encode("a b&c=d+e*~é") == "a+b%26c%3Dd%2Be*%7E%C3%A9")
        #expect(FormEncoding.encodeComponent("a b~") == "a%20b~")
        #expect(FormEncoding.decode("%zz") == nil)
        #expect(FormEncoding.decode("%C3") == nil, "a truncated UTF-8 sequence is refused")
    }
}
