/* ECCL_DEBUG logging (log.h). */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "core/env.h"
#include "core/log.h"

/* ECCL_DEBUG=1 logs each collective's choice and figures; 2 adds the cost model's predictions. */
ECCL_ENV(env_debug, "ECCL_DEBUG", 0);

int eccl_log_level(void) { return (int)eccl_env_long(&env_debug); }

void eccl_log(int rank, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "[eccl %d] %s\n", rank, line);
}
