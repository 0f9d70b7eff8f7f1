/* allreduce_ring_pipelined.c - the homomorphic ring in chunks: codec work on one chunk overlaps the
 * transfer of others (coll/common/ring_pipelined.c, shared with reduce_scatter_block). */
#include "config.h"

#include "coll/common/common.h"

eccl_result_t eccl_allreduce_ring_pipelined(eccl_call_t *c) { return eccl_coll_ring_pipelined(c); }

double eccl_allreduce_ring_pipelined_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    return eccl_coll_ring_pipelined_cost(m, c, ratio);
}
