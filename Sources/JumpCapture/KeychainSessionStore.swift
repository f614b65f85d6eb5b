#if canImport(Security)
    import Foundation
    import Security

    /// The session in the Keychain (Apple platforms): one generic-password item, its data the
    /// session's JSON (`Session.jsonText`), readable on this device only, from the first unlock
    /// after a restart on (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: a background
    /// refresh can read it; it is not in backups and does not move to another device).
    ///
    /// Built only where the Security framework is: the project's CI runs on Linux, so this
    /// file is checked by reading Apple's SecItem API (`SecItemCopyMatching`, `SecItemAdd`,
    /// `SecItemUpdate`, `SecItemDelete`), not by a compiler or a test there.
    ///
    /// On macOS the item goes to the login keychain unless the app sets
    /// `kSecUseDataProtectionKeychain` in a store of its own (that needs the app's
    /// keychain-access-groups entitlement).
    public struct KeychainSessionStore: SessionStore {
        /// The item's service (`kSecAttrService`), e.g. the app's bundle identifier.
        public var service: String
        /// The item's account (`kSecAttrAccount`): distinguishes sessions of different clients.
        public var account: String

        /// - Parameters:
        ///   - service: the item's service, e.g. the app's bundle identifier.
        ///   - account: distinguishes sessions kept under the same service (e.g. the
        ///     `captureClientId`).
        public init(service: String, account: String = "session") {
            self.service = service
            self.account = account
        }

        /// What finds the item.
        private var query: [String: Any] {
            [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
        }

        /// The place errors name.
        private var place: String { "Keychain \(service)/\(account)" }

        public func load() throws(SessionStoreError) -> Session? {
            var search = query
            search[kSecReturnData as String] = true
            search[kSecMatchLimit as String] = kSecMatchLimitOne
            var item: CFTypeRef?
            let status = SecItemCopyMatching(search as CFDictionary, &item)
            if status == errSecItemNotFound { return nil }
            guard status == errSecSuccess else { throw .io(path: place, reason: Self.reason(status)) }
            guard let data = item as? Data, let session = Session(jsonText: String(decoding: data, as: UTF8.self)) else {
                throw .unreadable(path: place, reason: "it does not hold a session")
            }
            return session
        }

        /// Replaces the item's data, or adds the item: the old session stays if the write fails.
        public func save(_ session: Session) throws(SessionStoreError) {
            let data = Data(session.jsonText.utf8)
            let update = [kSecValueData as String: data] as [String: Any]
            var status = SecItemUpdate(query as CFDictionary, update as CFDictionary)
            if status == errSecItemNotFound {
                var item = query
                item[kSecValueData as String] = data
                item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
                status = SecItemAdd(item as CFDictionary, nil)
            }
            guard status == errSecSuccess else { throw .io(path: place, reason: Self.reason(status)) }
        }

        public func clear() throws(SessionStoreError) {
            let status = SecItemDelete(query as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw .io(path: place, reason: Self.reason(status)) }
        }

        /// The Security framework's text for `status`, with its number.
        private static func reason(_ status: OSStatus) -> String {
            let text = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "unknown error"
            return "\(text) (OSStatus \(status))"
        }
    }
#endif
