import HTTPTypes
import Hummingbird
import JumpCapture
import JumpWebPages
import Logging

/// The server as a plain Hummingbird app: one route per operation on Hummingbird's `Router`,
/// in groups (Capture, the Engage double, the email links, the hosted forms under `/forms`,
/// the preview gallery under `/preview` in preview mode only), behind these middlewares,
/// outermost first:
///
/// 1. `OperationsMiddleware`: counts and times every request by its route's template, and logs it;
/// 2. `HeadWithoutBody`: HEAD answers without a body;
/// 3. `SecurityHeaders`;
/// 4. `CaptureErrors`: every error a Capture-shaped answer (404, 405, 413, 500...);
/// 5. `HostCheck`: which hosts the server answers to, which origins may post.
///
/// `/ready` and `/metrics` are added before `HostCheck` (a router's middleware applies to the
/// routes added after it): a load balancer's or scraper's probe may name any host.
extension CaptureServer {
    func router(boundHost: String, hostNames: [String]) -> Router<CaptureRequestContext> {
        let router = Router(context: CaptureRequestContext.self)
        let table = RouteTable()
        let routes = Routes(on: router, prefix: "", table: table, limit: service.setup.settings.maximumRequestSize)
        router.add(middleware: OperationsMiddleware(service: service, logger: logger))
        router.add(middleware: HeadWithoutBody())
        router.add(middleware: SecurityHeaders(isPreview: service.setup.isPreview))
        router.add(middleware: CaptureErrors(routes: table, logger: logger))
        addOperations(routes)
        router.add(middleware: HostCheck(boundHost: boundHost, publicURL: service.setup.settings.publicURL?.value, names: hostNames))
        routes.add("/health", [.get]) { _ in .ok }
        addCapture(routes)
        addEntityAPI(routes)
        addEngage(routes.group(""))
        addEmailLinks(routes)
        addHostedForms(routes.group("/forms"))
        if let gallery = service.setup.preview { addPreview(routes.group("/preview"), gallery: gallery) }
        return router
    }

    /// `GET /ready` (503 once shutdown has begun, or while the database cannot serve) and
    /// `GET /metrics`.
    private func addOperations(_ routes: Routes<Router<CaptureRequestContext>>) {
        let operations = OperationsMiddleware(service: service, logger: logger)
        routes.add("/ready", [.get]) { [self] _ in await operations.ready(shuttingDown: isShuttingDown) }
        routes.add("/metrics", [.get]) { request in operations.scrape(client: request.client) }
    }

    /// The Capture operations (`CaptureOperation.path`), POST; `/entity` takes GET too.
    private func addCapture(_ routes: Routes<some RouterMethods<CaptureRequestContext>>) {
        let service = service
        // `changePassword` is `update_profile_native` too, answered as `updateProfile`.
        for operation in CaptureOperation.allCases where !operation.isEngage && operation != .changePassword {
            let client = CaptureService.checksPasswords(operation)
            routes.add(operation.path, operation == .readRecord ? [.post, .get] : [.post]) { request in
                // A record call made by a client of `server.clients` (CaptureService+EntityAPI).
                if operation.isRecordCall, CaptureService.isClientRecordCall(request.apiCredentials) {
                    return try await service.clientRecordCall(operation, request.apiCredentials, client: request.client)
                }
                return try await service.handle(operation, request.parameters, client: client ? request.client : nil)
            }
        }
    }

    /// The Engage double: its configuration, the provider dialogs (`/<provider>/start`,
    /// `/openid/start[/<id>]`, `/saml2/sso/start[/<id>]`), the token exchanges, sharing and
    /// its short URLs.
    private func addEngage(_ routes: Routes<some RouterMethods<CaptureRequestContext>>) {
        let service = service
        routes.add("/openid/mobile_config_and_baseurl", [.get]) { request in
            service.mobileConfiguration(ifNoneMatch: request.headers[.ifNoneMatch])
        }
        // A provider dialog issues a token: no HEAD.
        for path in ["/{provider}/start", "/openid/start", "/openid/start/{id}", "/saml2/sso/start", "/saml2/sso/start/{id}"] {
            routes.add(path, [.get], headLikeGET: false) { request in
                try await service.engageStart(
                    path: request.path, target: request.request.uri.description, request.parameters, headers: request.headers)
            }
        }
        routes.add("/signin/oauth_token", [.post]) { request in try await service.exchangeNativeToken(request.parameters) }
        // POST only: the API key is a secret, which a GET would put in URLs (and their logs).
        routes.add("/api/v2/auth_info", [.post]) { request in try await service.authInfo(request.parameters, client: request.client) }
        routes.add("/signin/complete", [.get]) { request in service.signInComplete(request.parameters, headers: request.headers) }
        routes.add("/signin/device", [.get], headLikeGET: false) { request in try await service.signInDevice(request.parameters) }
        routes.add("/api/v2/activity", [.post]) { request in try await service.shareActivity(request.parameters) }
        routes.add("/api/v2/set_status", [.post]) { request in try await service.setStatus(request.parameters) }
        routes.add("/openid/get_urls", [.get, .post], headLikeGET: false) { request in
            try await service.shortenURLs(request.parameters, client: request.client)
        }
        routes.add("/social/record_activity", [.post]) { request in service.recordActivity(request.parameters) }
        routes.add("/s/{code}", [.get]) { request in try await service.followShortURL(path: request.path) }
    }

    /// The links of the server's emails, the OAuth token endpoint, the flow documents and the
    /// pages' stylesheet.
    private func addEmailLinks(_ routes: Routes<some RouterMethods<CaptureRequestContext>>) {
        let service = service
        // An email link is used up: no HEAD.
        routes.add("/email/verify", [.get], headLikeGET: false) { request in try await service.verifyEmail(request.parameters) }
        routes.add("/password/reset", [.get, .post]) { request in
            try await service.resetPassword(request.parameters, isPost: request.isPost)
        }
        // POST only: the client secret, and the code or refresh token, stay out of URLs.
        routes.add("/oauth/token", [.post]) { request in
            try await service.oauthToken(request.parameters, authorization: request.headers[.authorization], client: request.client)
        }
        routes.add(FlowDocumentRoute.prefix + "**", [.get]) { request in
            FlowDocumentRoute.answer(path: request.path, headers: request.headers, setup: service.setup)
        }
        routes.add(Stylesheet.path, [.get]) { _ in
            var reply = ServerReply(status: .ok, contentType: Stylesheet.contentType, body: Stylesheet.text)
            reply.headers[.cacheControl] = "no-cache"
            return reply
        }
    }

    /// `/forms/<formName>`: the hosted forms (CaptureService+HostedForms.swift). Showing one
    /// may start a session: no HEAD.
    private func addHostedForms(_ routes: Routes<some RouterMethods<CaptureRequestContext>>) {
        let service = service
        routes.add("/{name}", [.get, .post], headLikeGET: false) { request in
            try await service.hostedForm(
                path: request.path, request.parameters, headers: request.headers, isPost: request.isPost, client: request.client)
        }
    }

    /// `jump-forms preview`'s gallery (`locale` parameters narrow its locales) and its
    /// generation, which answers once it differs from `after` (a long poll: no HEAD).
    private func addPreview(_ routes: Routes<some RouterMethods<CaptureRequestContext>>, gallery: PreviewGallery) {
        routes.add("", [.get]) { request in
            let only = request.parameters.pairs.filter { $0.name == "locale" }.map(\.value)
            var reply = ServerReply(status: .ok, contentType: ServerReply.htmlContentType, body: gallery.page(only: only))
            reply.headers[SecurityHeaders.contentSecurityPolicy] = PreviewGallery.contentSecurityPolicy
            return reply
        }
        routes.add("/generation", [.get], headLikeGET: false) { request in
            let seen = request.parameters["after"].flatMap { Int($0) } ?? 0
            return ServerReply(status: .ok, contentType: "text/plain; charset=utf-8", body: "\(await gallery.generation(after: seen))\n")
        }
    }
}

/// Where routes are added: the router or one of its groups (`prefix` is the group's path,
/// which `table` records with each route for the 405 answers).
struct Routes<Methods: RouterMethods<CaptureRequestContext>> {
    let on: Methods
    let prefix: String
    let table: RouteTable
    /// `maximumRequestSize`: the query string and the body together.
    let limit: Int

    func group(_ path: String) -> Routes<RouterGroup<CaptureRequestContext>> {
        Routes<RouterGroup<CaptureRequestContext>>(on: on.group(RouterPath(path)), prefix: prefix + path, table: table, limit: limit)
    }

    /// Adds the route `path` for `methods`, and HEAD where it takes GET unless `headLikeGET`
    /// is false (a GET that changes something). Its handler gets the request's parameters
    /// (`RouteRequest.read`) and gives the answer.
    func add(
        _ path: String, _ methods: [HTTPRequest.Method], headLikeGET: Bool = true,
        _ answer: @escaping @Sendable (RouteRequest) async throws -> ServerReply
    ) {
        let taken = methods.contains(.get) && headLikeGET ? methods + [.head] : methods
        table.add(RouterPath(prefix + path), taken)
        let limit = limit
        for method in taken {
            on.on(RouterPath(path), method: method) { request, context in
                try await answer(try await RouteRequest.read(request, context: context, limit: limit)).response
            }
        }
    }
}
