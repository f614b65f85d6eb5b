#ifndef JUMP_BENCH_CMIMALLOC_SHIM_H
#define JUMP_BENCH_CMIMALLOC_SHIM_H
// mimalloc (Debian: libmimalloc-dev), the allocator of jump-bench on Linux with the Mimalloc trait.
#include <mimalloc.h>
#endif
