#ifndef JUMP_FORMS_CZLIB_SHIM_H
#define JUMP_FORMS_CZLIB_SHIM_H
// zlib (Debian: zlib1g-dev): the local server gzips the flow documents it serves.
#include <zlib.h>
#endif
