import JumpForms

/// `POST /social/record_activity`: the sharing dialogs report an activity shared by email or
/// SMS, which Engage counts. iOS sends `device=<iphone|ipad>&method=<email|sms>` to
/// `<baseurl>/social/record_activity?` without Content-Type (JRSessionData.m:1441-1458, called
/// at 2007, 2013); Android sends `method=<email|sms>&device=android&appId=<app id>`
/// (JRSession.java:1081-1106). Neither reads the answer (JRSessionData.m:1649-1659; an empty
/// delegate on Android), so the double answers as Engage does and counts each share in the log.
extension CaptureService {
    /// What a share by email or SMS may name as its `method`.
    static let recordedShareMethods: Set<String> = ["email", "sms"]

    func recordActivity(_ parameters: RequestParameters) -> ServerReply {
        guard let method = parameters["method"], !method.isEmpty else { return Self.engageFail(0, "Missing parameter: method") }
        guard Self.recordedShareMethods.contains(method) else {
            return Self.engageFail(1, "Invalid parameter: method (\(method)): email or sms")
        }
        logger.info("an activity was shared by \(method)")
        return .json(["stat": "ok"])
    }
}
