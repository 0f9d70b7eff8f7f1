/* log.h - ECCL_DEBUG logging to stderr (level 1: one line per collective; 2: also the model's predictions). */
#ifndef ECCL_CORE_LOG_H
#define ECCL_CORE_LOG_H

int eccl_log_level(void);
void eccl_log(int rank, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define ECCL_LOG(level, rank, ...)                                                                 \
    do {                                                                                           \
        if (eccl_log_level() >= (level)) eccl_log((rank), __VA_ARGS__);                            \
    } while (0)

#endif
