#if Mimalloc && os(Linux)
    import CMimalloc
    import Glibc
#endif
import JumpFormsCLI

@main
enum JumpFormsMain {
    static func main() {
        #if Mimalloc && os(Linux)
            // Built with the Mimalloc trait (`swift build --traits Mimalloc`). The heap in 2 MiB
            // pages (transparent huge pages): a third of the page faults of `locales check`, 6-8%
            // less wall time. MIMALLOC_LARGE_OS_PAGES=0 in the environment
            // keeps 4 KiB pages.
            if getenv("MIMALLOC_LARGE_OS_PAGES") == nil { mi_option_set(mi_option_large_os_pages, 1) }
            // Every thread's first segment committed at once as well: mimalloc commits it piece by
            // piece by default (for threads that allocate little), so it got no huge pages and
            // `locales check`'s worker threads faulted their heaps in 4 KiB at a time (11 K page
            // faults against 1.1 K). MIMALLOC_EAGER_COMMIT_DELAY overrides it.
            if getenv("MIMALLOC_EAGER_COMMIT_DELAY") == nil { mi_option_set(mi_option_eager_commit_delay, 0) }
        #endif
        JumpFormsCommand.runMain()
    }
}
