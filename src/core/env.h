/*
 * env.h - environment tunables, read once and cached.
 *
 * Each tunable is declared as a static eccl_env_t in the file that uses it, named ECCL_*, and
 * listed in doc/env.md. The first read parses the variable; later reads return the cached value.
 * Thread-safe: concurrent first reads may both parse (the result is the same), publication is an
 * atomic store. This is the library's only global mutable state.
 */
#ifndef ECCL_CORE_ENV_H
#define ECCL_CORE_ENV_H

#include <stdatomic.h>

typedef struct eccl_env {
    const char *name;
    long def;           /* value when unset or unparsable */
    atomic_int state;   /* 0 unread, 1 cached */
    long value;
    const char *str;    /* the raw string (NULL when unset) */
} eccl_env_t;

#define ECCL_ENV(var, name, def) static eccl_env_t var = {name, def, 0, 0, 0}

/* Integer value (decimal; "yes"/"true"/"on" read as 1, "no"/"false"/"off" as 0). */
long eccl_env_long(eccl_env_t *e);
/* Raw string, or NULL when unset (points into the process environment). */
const char *eccl_env_str(eccl_env_t *e);

/* The documentation of every ECCL_* variable, one entry each (env_doc.c): the one list that
 * eccl-info prints and that tests/test_info.sh checks against the ECCL_ENV declarations in src/
 * and against doc/env.md. Terminated by an entry with name == NULL. */
typedef struct eccl_env_doc {
    const char *name;
    const char *values;  /* what it accepts */
    const char *def;     /* the default, as text */
    const char *meaning; /* one paragraph; doc/env.md has the details */
} eccl_env_doc_t;

extern const eccl_env_doc_t eccl_env_docs[];

#endif
