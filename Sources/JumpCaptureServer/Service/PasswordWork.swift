import NIOCore
import NIOPosix
import Synchronization

/// Bounds the bcrypt work the server takes on, so that a flood of sign-ins (wrong or right)
/// cannot stall the others behind an ever longer queue: at most `running` hashes run at once
/// (on NIO's thread pool, one per core), at most `queueLimit` wait for them, first come first
/// served; any more is refused at once with `Busy`, which the server answers with Capture's 510
/// and `retry_after` (`passwordHashQueue` in jump.yaml).
final class PasswordWork: Sendable {
    /// The hash could not even be queued.
    struct Busy: Error {}

    let running: Int
    let queueLimit: Int
    private let state = Mutex<(active: Int, waiting: [CheckedContinuation<Bool, Never>])>((0, []))
    /// Hashes started (tests: a refused sign-in starts none).
    private let started = Atomic<Int>(0)

    init(running: Int = System.coreCount, queueLimit: Int) {
        self.running = max(1, running)
        self.queueLimit = max(0, queueLimit)
    }

    /// Runs `work` on NIO's thread pool once a place is free; throws `Busy` when the queue is full.
    func run<T: Sendable>(_ work: @escaping @Sendable () -> T) async throws -> T {
        try await acquire()
        defer { release() }
        started.add(1, ordering: .relaxed)
        return try await NIOThreadPool.singleton.runIfActive(work)
    }

    private func acquire() async throws {
        // Decided, and enqueued, under the lock: no release is missed.
        let granted = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let decision = state.withLock { state -> Bool? in
                if state.active < running {
                    state.active += 1
                    return true
                }
                guard state.waiting.count < queueLimit else { return false }
                state.waiting.append(continuation)
                return nil
            }
            if let decision { continuation.resume(returning: decision) }
        }
        guard granted else { throw Busy() }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            // The place passes to the oldest waiter, if any.
            if !state.waiting.isEmpty { return state.waiting.removeFirst() }
            state.active -= 1
            return nil
        }
        next?.resume(returning: true)
    }

    /// How many hashes have started (tests).
    var runs: Int { started.load(ordering: .relaxed) }

    /// Hashes running and waiting (tests).
    var load: (active: Int, waiting: Int) { state.withLock { ($0.active, $0.waiting.count) } }
}
