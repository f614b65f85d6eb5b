#ifndef JUMP_FORMS_CMIMALLOC_SHIM_H
#define JUMP_FORMS_CMIMALLOC_SHIM_H
// mimalloc (Debian: libmimalloc-dev), the allocator of the jump-forms executables on Linux.
#include <mimalloc.h>
#endif
