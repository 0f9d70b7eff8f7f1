/* model.h - the alpha-beta cost model's building blocks, shared by the algorithms' cost
 * functions (seconds; bytes are bytes of uncompressed data unless divided by the ratio). */
#ifndef ECCL_COLL_MODEL_H
#define ECCL_COLL_MODEL_H

#include "coll/coll.h"

static inline double mdl_net(const eccl_model_t *m, double bytes) { return m->alpha + bytes * m->beta; }
static inline double mdl_compress(const eccl_model_t *m, double bytes) { return bytes / m->c_thr; }
static inline double mdl_decompress(const eccl_model_t *m, double bytes) { return bytes / m->d_thr; }
static inline double mdl_hom(const eccl_model_t *m, double bytes) { return bytes / m->h_thr; }
/* combining two streams decodes two and encodes one */
static inline double mdl_combine(const eccl_model_t *m, double bytes) { return bytes / m->h_thr + bytes / m->d_thr; }
static inline double mdl_reduce(const eccl_model_t *m, double bytes) { return bytes / m->g_thr; }
static inline double mdl_bytes(const eccl_call_t *c, size_t elems) { return (double)elems * (double)c->esize; }

#endif
