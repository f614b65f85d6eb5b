#ifndef JUMP_FORMS_CYAML_SHIM_H
#define JUMP_FORMS_CYAML_SHIM_H
#include <yaml.h>
#endif
