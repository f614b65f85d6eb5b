import JumpForms
import Testing

/// What an SDK reads back from an answer: the keys its code looks up and the JSON types it
/// casts them to. A read the SDK cannot make is thrown (the SDK's flow cannot go on either),
/// with the SDK source that reads it, the request and the server's whole answer; a read it
/// survives but gets wrong is recorded as an issue.
struct SDKReader {
    let answer: SDKAnswer
    let sourceLocation: Testing.SourceLocation

    init(_ answer: SDKAnswer, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        self.answer = answer
        self.sourceLocation = sourceLocation
    }

    var sdk: SDK { answer.request.sdk }

    /// The error to throw when the SDK cannot go on.
    func fail(_ message: String) -> ReplayError {
        ReplayError("\(sdk.rawValue) \(message)\n  request: \(answer.request)\n  answer: \(answer)")
    }

    /// Records a read the SDK gets wrong without stopping.
    func note(_ message: String) {
        Issue.record(Comment(rawValue: fail(message).description), sourceLocation: sourceLocation)
    }

    /// The JSON object the SDK parses. iOS parses the body whatever the status
    /// (JRConnectionManager.m:282-303); Android parses it only when `Content-Type` starts
    /// with `application/json`, and otherwise hands the handler nil: a failed call
    /// (ApiConnection.java:81-99, 163-174).
    func object() throws -> JSONValue {
        if sdk == .android {
            let type = answer.headers.first(name: "content-type") ?? "(none)"
            guard type.lowercased().hasPrefix("application/json") else {
                throw fail("parses JSON only with Content-Type application/json (ApiConnection.java:85), got \(type)")
            }
        }
        guard let json = answer.json, json.objectValue != nil else { throw fail("needs a JSON object") }
        return json
    }

    /// A successful answer: `stat` is the string `ok` (every handler compares it so).
    @discardableResult
    func ok() throws -> JSONValue {
        let json = try object()
        guard json["stat"] == .string("ok") else { throw fail("needs stat \"ok\"") }
        return json
    }

    /// A Capture error: `stat` not `ok`, `code` a number (iOS: `[result objectForKey:@"code"]`
    /// as NSNumber, JRCaptureError.m:191-200; Android: `optInt("code")`,
    /// CaptureApiError.java:131), `error` a string.
    @discardableResult
    func error(code expected: Int) throws -> JSONValue {
        let json = try object()
        guard json["stat"] != .string("ok") else { throw fail("expects Capture error \(expected), got stat ok") }
        guard case .number(let number)? = json["code"], Int(number) == expected else {
            throw fail("expects Capture error \(expected) (`code` a JSON number)")
        }
        if json["error"]?.stringValue == nil { note("reads `error` as a string") }
        return json
    }

    /// A string at `key` of `object` (the SDK casts it to NSString / String).
    func string(_ key: String, in object: JSONValue, _ why: String) throws -> String {
        guard let value = object[key]?.stringValue else { throw fail("reads `\(key)` as a string (\(why))") }
        return value
    }

    /// An object at `key`.
    func object(_ key: String, in object: JSONValue, _ why: String) throws -> JSONValue {
        guard let value = object[key], value.objectValue != nil else { throw fail("reads `\(key)` as an object (\(why))") }
        return value
    }

    /// A sign-in or registration: iOS JRCapture.m:438-481 (`access_token`, `capture_user` a
    /// dictionary, `is_new` an NSNumber, `authorization_code` when present, and each of
    /// `capture_user.profiles` with an `identifier`: JRCaptureData.m:472-485 builds a
    /// dictionary literal from it, which a nil crashes); Android Capture.java:479-496
    /// (`capture_user` a JSONObject, `access_token`).
    func signedIn() throws -> SignedIn {
        let json = try ok()
        let token = try string("access_token", in: json, sdk == .iOS ? "JRCapture.m:450" : "Capture.java:486")
        let user = try object("capture_user", in: json, sdk == .iOS ? "JRCapture.m:453-456" : "Capture.java:484-485")
        var isNew = false
        switch json["is_new"] {
        case .bool(let flag)?: isNew = flag
        case .number(let number)?: isNew = Int(number) != 0
        case nil: break
        default: note("reads `is_new` as an NSNumber (JRCapture.m:452)")
        }
        if let code = json["authorization_code"], code.stringValue == nil {
            note("reads `authorization_code` as a string (JRCapture.m:451, Jump.java:680)")
        }
        try linkedProfiles(of: user)
        return SignedIn(accessToken: token, user: user, isNew: isNew, answer: json)
    }

    /// `profiles` of a record as iOS keeps them (JRCaptureData.m:472-485): a list whose
    /// elements each have an `identifier`.
    @discardableResult
    func linkedProfiles(of record: JSONValue) throws -> [String] {
        guard let profiles = record["profiles"] else { return [] }
        if profiles == .null { return [] }
        guard let list = profiles.arrayValue else { throw fail("reads `profiles` as an array (JRCaptureData.m:465)") }
        return try list.map { element in
            guard let identifier = element["identifier"]?.stringValue else {
                throw fail("needs each of `profiles` to have an `identifier` (JRCaptureData.m:479)")
            }
            return identifier
        }
    }

    /// `/entity`'s `result`, a dictionary (iOS JRCapture.m:835-851, JRCaptureUser+Extras.m:76-79;
    /// Android `optJSONObject("result")`, Capture.java:583).
    func entityResult() throws -> JSONValue {
        let json = try ok()
        return try object("result", in: json, sdk == .iOS ? "JRCapture.m:837, JRCaptureUser+Extras.m:76" : "Capture.java:583")
    }
}

struct SignedIn: Sendable {
    var accessToken: String
    var user: JSONValue
    var isNew: Bool
    var answer: JSONValue
}

extension SDKAnswer {
    func read(sourceLocation: Testing.SourceLocation = #_sourceLocation) -> SDKReader {
        SDKReader(self, sourceLocation: sourceLocation)
    }
}

extension JSONValue {
    /// The value at a dot path of objects (`primaryAddress.city`).
    func at(path: String) -> JSONValue? {
        var current: JSONValue? = self
        for part in path.split(separator: ".") { current = current?[String(part)] }
        return current
    }
}
