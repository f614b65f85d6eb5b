extension RequestBuilder {
    /// `POST /oauth/revoke` (RFC 7009): ends the session of `token` at once. `hint` says what
    /// the token is (`access_token`, the default, or `refresh_token` for one of `/oauth/token`).
    /// The local server answers `{"stat": "ok"}` even for a token it does not know.
    public func revokeToken(_ token: String, hint: String? = "access_token") -> CaptureRequest {
        var parameters = [
            RequestParameter("client_id", config.captureClientId.value),
            RequestParameter("token", token, secret: true)
        ]
        if let hint { parameters.append(RequestParameter("token_type_hint", hint)) }
        return request(.revokeToken, parameters)
    }
}
