/* Read-once environment tunables (see env.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/env.h"

static void env_load(eccl_env_t *e)
{
    if (atomic_load_explicit(&e->state, memory_order_acquire)) return;
    const char *s = getenv(e->name);
    long v = e->def;
    if (s && *s) {
        char *end;
        long parsed = strtol(s, &end, 10);
        if (end != s && *end == '\0') v = parsed;
        else if (!strcasecmp(s, "yes") || !strcasecmp(s, "true") || !strcasecmp(s, "on")) v = 1;
        else if (!strcasecmp(s, "no") || !strcasecmp(s, "false") || !strcasecmp(s, "off")) v = 0;
    }
    e->value = v;
    e->str = s;
    atomic_store_explicit(&e->state, 1, memory_order_release);
}

long eccl_env_long(eccl_env_t *e)
{
    env_load(e);
    return e->value;
}

const char *eccl_env_str(eccl_env_t *e)
{
    env_load(e);
    return e->str;
}
