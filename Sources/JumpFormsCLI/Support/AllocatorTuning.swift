import CMalloc

/// glibc's allocator, tuned for the CLI's long or allocation-heavy work (`serve`, `locales
/// check`, `locales coverage`): the process's choice, made here in the CLI, never in the
/// libraries (the embedded server leaves its host's allocator alone).
///
/// - glibc gives freed memory back to the system as soon as a thread's arena has 128 KiB
///   spare (`madvise`, which flushes the TLB of every core), and the next allocations fault
///   the pages in again: about a tenth of the server's CPU under load. Up to 256 MiB of freed
///   memory is kept for reuse instead, and blocks up to 32 MiB come from the heaps rather than
///   from their own `mmap`.
/// - The heap grows 64 MiB at a time (address space only: pages are still given when first
///   touched), not by the bytes each `malloc` needs: loading a corpus of locale files grows it
///   thousands of times. Together with the above, 3-4% less CPU and wall time for `locales
///   check` on the benchmark corpus (docs/PERFORMANCE.md, "Locale checks").
enum AllocatorTuning {
    static func apply() {
        #if os(Linux)
        _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
        _ = mallopt(M_MMAP_THRESHOLD, 32 << 20)
        _ = mallopt(M_TOP_PAD, 64 << 20)
        #endif
    }
}
