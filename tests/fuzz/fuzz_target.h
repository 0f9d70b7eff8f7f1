/*
 * fuzz_target.h - the fuzz target of eccl's stream readers (fuzz_decompress.c), shared by the
 * libFuzzer binary (`make fuzz`) and the deterministic driver of `make check` (fuzz_driver.c).
 */
#ifndef ECCL_FUZZ_TARGET_H
#define ECCL_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* What the target saw (for the driver's summary and the libFuzzer exit report). */
typedef struct fuzz_stats {
    long runs;        /* inputs */
    long valid;       /* accepted by eccl_stream_info */
    long decoded;     /* decompressed successfully */
    long hom_ok;      /* homomorphic operations that succeeded */
    long known;       /* disagreements with the reference decoder that are known library bugs */
    long known_by[5]; /* ... by kind, see fuzz_known_name */
    long unknown;     /* any other disagreement: a new bug (fatal under libFuzzer) */
} fuzz_stats_t;

extern fuzz_stats_t fuzz_stats;
extern const char *const fuzz_known_name[5];

#endif
