import Synchronization

/// A session kept in memory for the store's life, nothing written anywhere: for tests,
/// previews and runs that must leave nothing behind. Copies share the session (it is a class),
/// so a client and the code that made the store see the same one.
public final class MemorySessionStore: SessionStore {
    private let stored: Mutex<Session?>

    /// - Parameter session: the session it starts with (nil: signed out).
    public init(_ session: Session? = nil) {
        stored = Mutex(session)
    }

    public func load() throws(SessionStoreError) -> Session? { stored.withLock { $0 } }

    public func save(_ session: Session) throws(SessionStoreError) { stored.withLock { $0 = session } }

    public func clear() throws(SessionStoreError) { stored.withLock { $0 = nil } }
}
