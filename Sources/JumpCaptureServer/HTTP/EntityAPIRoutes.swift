import HTTPTypes
import Hummingbird

/// The Entity API's own routes (`CaptureService.EntityCall`, POST, form-encoded), and how a
/// request's credentials are read for `authenticateAPICall`.
extension CaptureServer {
    func addEntityAPI(_ routes: Routes<some RouterMethods<CaptureRequestContext>>) {
        let service = service
        for call in CaptureService.EntityCall.allCases {
            routes.add(call.rawValue, [.post]) { request in
                try await service.entityCall(call, request.apiCredentials, client: request.client)
            }
        }
    }
}

extension RouteRequest {
    /// The `Date` header of signed requests.
    static let dateField = HTTPField.Name("Date")!

    /// What the request carries to say which client (or end user) makes it.
    var apiCredentials: APICredentials {
        APICredentials(path: path, parameters: parameters, authorization: headers[.authorization], date: headers[Self.dateField])
    }
}
