/* registry.c - the transports' tables, by id (transport.h). Constant: no state of its own. */
#include "config.h"

#include "transport/transport.h"

static const eccl_transport_t *const table[ECCL_TR_COUNT] = {
    [ECCL_TR_MPI] = &eccl_tr_mpi_table,
    [ECCL_TR_NCCL] = &eccl_tr_nccl_table,
    [ECCL_TR_NODE] = &eccl_tr_node_table,
};

const eccl_transport_t *eccl_transport(eccl_tr_id_t id)
{
    return (unsigned)id < ECCL_TR_COUNT ? table[id] : NULL;
}

eccl_result_t eccl_transports_create(eccl_comm_t c)
{
    for (int k = 0; k < ECCL_TR_COUNT; k++) {
        if (!table[k]->create) continue;
        eccl_result_t rc = table[k]->create(c);
        if (rc) return rc;
    }
    return ECCL_SUCCESS;
}

void eccl_transports_free(eccl_comm_t c)
{
    for (int k = ECCL_TR_COUNT - 1; k >= 0; k--)
        if (table[k]->release) table[k]->release(c);
}
