/* reduce_scatter_block_ring_pipelined.c - the homomorphic ring in chunks, arranged so that each
 * rank ends with its own block (the reduce-scatter half of coll/common/ring_pipelined.c, which
 * holds the one implementation). */
#include "config.h"

#include "coll/common/common.h"

eccl_result_t eccl_reduce_scatter_block_ring_pipelined(eccl_call_t *c) { return eccl_coll_ring_pipelined(c); }

double eccl_reduce_scatter_block_ring_pipelined_cost(const eccl_model_t *m, const eccl_call_t *c, double ratio)
{
    return eccl_coll_ring_pipelined_cost(m, c, ratio);
}
