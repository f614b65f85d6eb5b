import Dispatch
import GRDBSQLite
import Synchronization

/// Checkpoints the database's write-ahead log off the write path.
///
/// SQLite's automatic checkpoint runs inside the commit that takes the WAL past 1,000 pages:
/// that commit copies the pages into the database file and syncs it before it returns, so
/// every write waiting behind it waits too. Under a load of refreshes this was the p99:
/// 66 ms with it, 14 ms without (docs/PERFORMANCE.md, "What the code keeps for speed"). Here a
/// WAL hook on the writer's connection replaces the automatic checkpoint (SQLite's own
/// mechanism is the same hook) and, once the WAL holds `pages` pages, asks for a `PASSIVE` checkpoint on a serial
/// queue of its own with a connection of its own. A passive checkpoint takes no lock that
/// writers or readers wait for; it copies what it can, and the next commit past the mark asks
/// again. At most one checkpoint runs or waits at a time. Durability does not change: a commit
/// is durable once its WAL frames are synced (`synchronous=FULL`), checkpointed or not.
///
/// SQLite starts the WAL over only when a write begins after a checkpoint copied every frame,
/// and under a steady stream of commits a checkpoint running beside them never quite catches
/// up. So past `limit` pages (8 times the mark) the commit checkpoints on its own connection
/// before it returns, as SQLite's automatic checkpoint would: the WAL stays bounded, and only
/// a long unbroken run of writes pays a checkpoint in its path.
final class WALCheckpointer: Sendable {
    let path: String
    /// A checkpoint is asked for once the WAL holds this many pages (SQLite's default mark).
    let pages: Int32
    /// Past this many pages the committing connection checkpoints itself.
    var limit: Int32 { Int32(clamping: Int(pages) * 8) }
    private let queue = DispatchQueue(label: "jump-forms.wal-checkpoint")
    /// A checkpoint is queued or running.
    private let pending = Atomic<Bool>(false)
    /// The checkpointing connection: opened on first use, touched only on `queue`.
    private let connection = Mutex<Connection?>(nil)
    /// Checkpoints run so far, and the last one's failure if it failed (tests).
    private let record = Mutex(Status())

    /// What the checkpointer did so far.
    struct Status: Sendable {
        /// Checkpoints run beside the writes.
        var queued = 0
        /// Checkpoints run by a commit past `limit`.
        var inline = 0
        /// What SQLite said when the last checkpoint failed (a busy one is retried by a later commit).
        var failure: String?
    }

    init(path: String, pages: Int32 = 1_000) {
        self.path = path
        self.pages = pages
    }

    /// Installs the hook on `writer` (the connection that commits), turning SQLite's
    /// automatic checkpoint off for it. The hook holds the checkpointer weakly: once the
    /// checkpointer is gone, commits checkpoint nothing (the WAL keeps every frame, safely).
    func attach(to writer: OpaquePointer) {
        // The box lives as long as the connection could call the hook: it is never released
        // (one small object per database opened).
        let target = Unmanaged.passRetained(HookTarget(self)).toOpaque()
        sqlite3_wal_hook(
            writer,
            { context, db, name, pages in
                guard let context, let checkpointer = Unmanaged<HookTarget>.fromOpaque(context).takeUnretainedValue().checkpointer else {
                    return SQLITE_OK
                }
                if pages >= checkpointer.limit, let db {
                    let code = sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                    checkpointer.ran(inline: true, failure: code == SQLITE_OK ? nil : String(cString: sqlite3_errmsg(db)))
                } else {
                    checkpointer.committed(pages: pages)
                }
                return SQLITE_OK
            }, target)
    }

    /// After a commit that left `count` pages in the WAL: asks for a checkpoint past the mark.
    func committed(pages count: Int32) {
        guard count >= pages, pending.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else { return }
        queue.async { [self] in
            defer { pending.store(false, ordering: .releasing) }
            checkpoint()
        }
    }

    var status: Status { record.withLock { $0 } }

    private func ran(inline: Bool, failure: String?) {
        record.withLock { status in
            if inline { status.inline += 1 } else { status.queued += 1 }
            status.failure = failure
        }
    }

    /// Waits for a checkpoint that is queued or running (tests).
    func drain() {
        queue.sync {}
    }

    private func checkpoint() {
        let failure: String? = connection.withLock { connection in
            do {
                if connection == nil { connection = try Connection(path: path) }
                return connection!.checkpoint()
            } catch {
                return "\(error)"
            }
        }
        ran(inline: false, failure: failure)
    }

    private final class HookTarget: Sendable {
        weak let checkpointer: WALCheckpointer?
        init(_ checkpointer: WALCheckpointer) { self.checkpointer = checkpointer }
    }

    private final class Connection: @unchecked Sendable {
        struct Failure: Error, CustomStringConvertible { var description: String }
        let db: OpaquePointer

        init(path: String) throws {
            var handle: OpaquePointer?
            guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle,
                // Sync the WAL before copying it and the database after: as the writer's own
                // checkpoints did.
                sqlite3_exec(handle, "PRAGMA synchronous = FULL", nil, nil, nil) == SQLITE_OK
            else {
                let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
                sqlite3_close_v2(handle)
                throw Failure(description: "cannot open \(path) to checkpoint it: \(message)")
            }
            db = handle
        }

        deinit { sqlite3_close_v2(db) }

        /// One passive checkpoint: nil, or what SQLite said when it failed.
        func checkpoint() -> String? {
            var logged: Int32 = 0
            var copied: Int32 = 0
            let code = sqlite3_wal_checkpoint_v2(db, nil, SQLITE_CHECKPOINT_PASSIVE, &logged, &copied)
            return code == SQLITE_OK ? nil : String(cString: sqlite3_errmsg(db))
        }
    }
}
