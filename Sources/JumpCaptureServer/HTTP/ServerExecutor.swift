import NIOCore
import NIOPosix

/// Where a server process runs its Swift tasks.
public enum ServerExecutor {
    /// Makes the process's event loops (`MultiThreadedEventLoopGroup.singleton`, one per core)
    /// Swift concurrency's global executor, so that a request's task, its database queries
    /// and its answer run on the loop their I/O is on instead of being handed between the
    /// event loops and the concurrency pool's threads (each hand-off a thread wake-up: about a
    /// quarter of the server's CPU in a record read on PostgreSQL). Nothing the server runs
    /// blocks a task's thread: SQLite's calls and password hashes run on thread pools of their
    /// own. Must be called on the main thread before any task starts, once; `serve` does.
    /// Returns whether it took effect (not on a toolchain whose runtime lacks the hook).
    @discardableResult
    public static func runTasksOnEventLoops() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }
}
