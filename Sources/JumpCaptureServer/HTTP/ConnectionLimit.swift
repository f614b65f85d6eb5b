import NIOCore
import Synchronization

/// Caps the connections open at once (`maximumConnections`), so that sockets held open cannot
/// exhaust the process's file descriptors (which the database needs too) or starve new
/// clients. A connection is accepted, then: under the cap it is served; at the cap the
/// connection that has been idle longest (nothing of a request arrived since its last answer,
/// or since it opened) is closed to make room, so idle sockets never keep a new client out;
/// when every connection is busy (reading a request, or being answered) the new one is closed
/// at once, which a client sees as a closed connection rather than a wait in the listen queue.
/// Busy connections end by themselves: a request has `requestTimeout` to arrive.
final class ConnectionLimit: Sendable {
    /// One open connection, and whether it is idle (`RequestDeadlineHandler` says).
    final class Slot: Sendable {
        let channel: any Channel
        /// When the connection became idle (NIO uptime nanoseconds), or -1 while it is busy.
        private let idleSince: Atomic<Int64>

        init(channel: any Channel, now: NIODeadline) {
            self.channel = channel
            idleSince = Atomic(Int64(now.uptimeNanoseconds))
        }

        func setIdle(_ now: NIODeadline) { idleSince.store(Int64(now.uptimeNanoseconds), ordering: .relaxed) }
        func setBusy() { idleSince.store(-1, ordering: .relaxed) }
        var idle: Int64? {
            let value = idleSince.load(ordering: .relaxed)
            return value < 0 ? nil : value
        }
    }

    let maximum: Int
    private let slots = Mutex<[ObjectIdentifier: Slot]>([:])

    init(maximum: Int) {
        self.maximum = max(1, maximum)
    }

    /// Takes a new connection in: its slot, or nil when it must be closed (every other
    /// connection is busy). At the cap the longest-idle connection is closed for it.
    func admit(_ channel: any Channel) -> Slot? {
        enum Admission { case admitted, evicting(Slot), refused }
        let slot = Slot(channel: channel, now: .now())
        let admission = slots.withLock { slots -> Admission in
            if slots.count >= maximum {
                var oldest: (key: ObjectIdentifier, since: Int64)?
                for (key, candidate) in slots {
                    guard let since = candidate.idle else { continue }
                    if oldest.map({ since < $0.since }) ?? true { oldest = (key, since) }
                }
                guard let oldest, let evicted = slots.removeValue(forKey: oldest.key) else { return .refused }
                slots[ObjectIdentifier(slot)] = slot
                return .evicting(evicted)
            }
            slots[ObjectIdentifier(slot)] = slot
            return .admitted
        }
        switch admission {
        case .admitted:
            return slot
        case .evicting(let evicted):
            evicted.channel.close(promise: nil)
            return slot
        case .refused:
            return nil
        }
    }

    /// Gives a closed connection's place back.
    func remove(_ slot: Slot) {
        _ = slots.withLock { $0.removeValue(forKey: ObjectIdentifier(slot)) }
    }

    /// Connections open (tests).
    var count: Int { slots.withLock { $0.count } }

    /// Connections open and busy: reading a request or being answered (tests).
    var busyCount: Int { slots.withLock { $0.values.count { $0.idle == nil } } }
}
