#if canImport(CMimalloc)
import CMimalloc
import Glibc
#endif
import JumpFormsCLI

@main
enum JumpFormsMain {
    static func main() async {
        #if canImport(CMimalloc)
        // The heap in 2 MiB pages (transparent huge pages): a third of the page faults of
        // `locales check`, 6-8% less wall time (docs/PERFORMANCE.md). MIMALLOC_LARGE_OS_PAGES=0
        // in the environment keeps 4 KiB pages.
        if getenv("MIMALLOC_LARGE_OS_PAGES") == nil { mi_option_set(mi_option_large_os_pages, 1) }
        #endif
        await JumpFormsCommand.runMain()
    }
}
