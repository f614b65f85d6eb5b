import JumpForms

extension ServerError {
    /// Seconds the server asks the client to wait before trying again: `retry_after` of a 510
    /// (`api_limit_error`: too many failed sign-ins, or the server busy checking passwords);
    /// nil when the answer gives none.
    public var retryAfter: Int? {
        guard code == 510 else { return nil }
        let value = body["retry_after"]?.intValue ?? body["retry_after"]?.stringValue.flatMap { Int($0) }
        return value.map { max(1, $0) }
    }
}
