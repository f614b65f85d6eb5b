import JumpForms
import NIOHTTP1
import Testing
import TestSupport

/// The transcriptions the replays stand on: the SDKs' encoders, Java's `HashSet` order, and
/// that the bytes reach the wire as transcribed.
@Suite(.timeLimit(.minutes(5)))
struct SDKEncodingTests {
    @Test("iOS JRConnectionManager.m:45-59: URLQueryAllowed minus ?+=&, upper-case hex, space %20")
    func iOSEscaping() {
        #expect(
            IOSEncoding.escape("a b+c=d&e?f/g:h@i~j*k'l(m)n!o$p,q;r#s%t\"u{v}é")
                == "a%20b%2Bc%3Dd%26e%3Ff/g:h@i~j*k'l(m)n!o$p,q;r%23s%25t%22u%7Bv%7D%C3%A9")
        #expect(
            IOSEncoding.paramString([("birthdate[dateselect_year]", "1990"), ("redirect_uri", "https://127.0.0.1:8080")])
                == "birthdate[dateselect_year]=1990&redirect_uri=https://127.0.0.1:8080")
    }

    @Test("Android AndroidUtils.java:115-121: java.net.URLEncoder as OpenJDK 17 encodes")
    func androidURLEncoder() {
        // `java.net.URLEncoder.encode("a b*~'()!é/+=&?#%@:;,$", "UTF-8")` on OpenJDK 17.
        #expect(AndroidEncoding.urlEncode("a b*~'()!é/+=&?#%@:;,$") == "a+b*%7E%27%28%29%21%C3%A9%2F%2B%3D%26%3F%23%25%40%3A%3B%2C%24")
    }

    @Test("java.lang.String.hashCode and java.util.HashSet iteration order as OpenJDK 17 gives them")
    func javaHashSetOrder() {
        #expect(JavaHash.string("hello") == 99_162_322)
        #expect(JavaHash.string("é☃") == 16_954)
        // 40 strings: two resizes. `new HashSet<String>()` filled with "key<i>=v<7i>", i = 0..<40.
        let big = JavaHashSet((0..<40).map { "key\($0)=v\($0 * 7)" }, hashCode: JavaHash.string)
        #expect(
            big.elements.joined(separator: ",") == """
                key5=v35,key7=v49,key11=v77,key6=v42,key37=v259,key27=v189,key10=v70,key34=v238,key8=v56,key3=v21,key1=v7,key35=v245,key21=v147,\
                key24=v168,key32=v224,key14=v98,key26=v182,key36=v252,key23=v161,key2=v14,key18=v126,key22=v154,key30=v210,key39=v273,key17=v119,\
                key20=v140,key28=v196,key38=v266,key12=v84,key15=v105,key25=v175,key31=v217,key33=v231,key0=v0,key4=v28,key19=v133,key29=v203,\
                key16=v112,key9=v63,key13=v91
                """)
        // Capture.java:63-93 with the flow's fields, run on OpenJDK 17 with a Pair whose hashCode
        // is android.util.Pair's.
        var credentials = JavaHashSet<JavaPair>()
        credentials.add(("currentPassword", "correct horse battery"), ("signInEmailAddress", "ana.ruiz+android@example.com"))
        var parameters = JavaHashSet<JavaPair>()
        parameters.add(contentsOf: credentials)
        parameters.add(
            ("client_id", "localdev0123456789abcdefghijklmn"), ("locale", "en-US"), ("response_type", "token"),
            ("redirect_uri", "http://android.library"), ("form", "signInForm"), ("refresh_secret", "0123456789abcdef0123456789abcdef01234567"),
            ("flow", "standard"), ("flow_version", "2024-01-15.1"))
        #expect(
            AndroidEncoding.paramString(parameters) == """
                client_id=localdev0123456789abcdefghijklmn&response_type=token&locale=en-US&flow=standard&flow_version=2024-01-15.1&form=signInForm&\
                signInEmailAddress=ana.ruiz%2Bandroid%40example.com&redirect_uri=http%3A%2F%2Fandroid.library&currentPassword=correct+horse+battery&\
                refresh_secret=0123456789abcdef0123456789abcdef01234567
                """)
    }

    @Test("NSJSONSerialization and org.json write / as \\/")
    func sdkJSON() {
        #expect(
            SDKJSON.text(["value": "https://img.example.com/a.jpg", "n": nil, "t": true])
                == #"{"value":"https:\/\/img.example.com\/a.jpg","n":null,"t":true}"#)
    }

    @Test("the HTTPS harness reads serve --tls's start lines: the https URL and the CA certificate path")
    func tlsStartLines() async throws {
        let child = try ChildProcess(
            "/bin/sh",
            [
                "-c",
                "echo 'jump-forms serving flow standard at https://127.0.0.1:40123'; "
                    + "echo 'CA certificate: /tmp/jump data/ca.pem' >&2; sleep 5"
            ])
        defer { child.kill9() }
        let (url, ca) = try await TLSReplayServer.waitForStart(child, timeout: 5)
        #expect(url == "https://127.0.0.1:40123" && ca == "/tmp/jump data/ca.pem")
    }

    @Test("the replays put their bytes on the wire as transcribed: target, body, Content-Type absent or present")
    func bytesOnTheWire() async throws {
        let listener = try LoopbackServer { _ in .init(body: #"{"stat":"ok"}"#) }
        defer { listener.stop() }
        let queryOnly = SDKRequest(
            sdk: .iOS, source: "JRSessionData.m:1538-1544", method: .POST,
            target: "/oauth/auth_native?client_id=abc&redirect_uri=https://127.0.0.1:1/&locale=en-US&token=0a1b",
            headers: IOSApp.platformHeaders, body: nil)
        let handBuilt = SDKRequest(
            sdk: .iOS, source: "JRCaptureApidInterface.m:246-294", method: .POST, target: "/entity.update",
            headers: IOSApp.platformHeaders,
            body: "&attributes=%7B%22value%22:%22https:%5C/%5C/img%22%7D&access_token=0a1b&include_record=true&attribute_name=/photos#2")
        let android = SDKRequest(
            sdk: .android, source: "ApidUpdate.java:60-64", method: .POST, target: "/entity.update",
            headers: AndroidApp.platformHeaders + [("Content-Type", "application/x-www-form-urlencoded"), ("Content-Language", "en-US")],
            body: "value=%7B%22aboutMe%22%3A%22x%22%7D&access_token=0a1b")
        for request in [queryOnly, handBuilt, android] { _ = try await SDKWire.send(request, to: listener.url) }
        let received = listener.requests
        try #require(received.count == 3)
        #expect(received[0].target == queryOnly.target && received[0].body.isEmpty && received[0].headers["content-type"] == nil)
        #expect(received[1].target == "/entity.update" && received[1].body == handBuilt.body && received[1].headers["content-type"] == nil)
        #expect(received[2].body == android.body && received[2].headers["content-type"] == "application/x-www-form-urlencoded")
        #expect(received[2].headers["content-language"] == "en-US")
    }
}
