#ifndef JUMP_FORMS_CMALLOC_SHIM_H
#define JUMP_FORMS_CMALLOC_SHIM_H
// glibc's allocator tuning (mallopt), for the CLI's AllocatorTuning; empty where there is no <malloc.h>.
#if __has_include(<malloc.h>)
#include <malloc.h>
#endif
#endif
