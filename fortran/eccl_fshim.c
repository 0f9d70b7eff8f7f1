/*
 * eccl_fshim.c - the few C helpers the Fortran module needs: MPI handles cross the language
 * boundary as Fortran INTEGER handles (MPI_Fint), converted here with MPI_Comm_f2c/_c2f, and
 * MPI_IN_PLACE is C's address.  Part of libeccl when the module is built; not in any header.
 */
#include "config.h"

#include <mpi.h>

#include "eccl.h"

eccl_result_t eccl_fortran_comm_create(MPI_Fint fcomm, const eccl_config_t *config,
                                       eccl_comm_t *out);
eccl_result_t eccl_fortran_comm_info(eccl_comm_t comm, MPI_Fint *fcomm, int *size, int *rank);
void *eccl_fortran_in_place(void);
eccl_result_t eccl_fortran_ipost(int what, void *sbuf, void *rbuf, size_t count, int dtype, int op, int root,
                                 int dest, int sendtag, int source, int recvtag, const eccl_bound_t *bound,
                                 eccl_comm_t comm, eccl_request_t *req);

eccl_result_t eccl_fortran_comm_create(MPI_Fint fcomm, const eccl_config_t *config,
                                       eccl_comm_t *out)
{
    MPI_Comm comm = MPI_Comm_f2c(fcomm);
    if (out) *out = NULL;
    if (comm == MPI_COMM_NULL) return ECCL_ERR_INVALID_ARG;
    return eccl_comm_create(comm, config, out);
}

eccl_result_t eccl_fortran_comm_info(eccl_comm_t comm, MPI_Fint *fcomm, int *size, int *rank)
{
    MPI_Comm c = MPI_COMM_NULL;
    eccl_result_t rc = eccl_comm_info(comm, &c, size, rank);
    *fcomm = rc ? MPI_Comm_c2f(MPI_COMM_NULL) : MPI_Comm_c2f(c);
    return rc;
}

void *eccl_fortran_in_place(void) { return MPI_IN_PLACE; }

/* Every nonblocking post of module eccl_nonblocking, by `what` (the order of its F_* parameters:
 * eccl_nonblocking.F90), so that one bind(C) interface serves them all. The arguments a
 * collective does not take are ignored (as the blocking wrappers' unused ones). */
eccl_result_t eccl_fortran_ipost(int what, void *sbuf, void *rbuf, size_t count, int dtype, int op, int root,
                                 int dest, int sendtag, int source, int recvtag, const eccl_bound_t *bound,
                                 eccl_comm_t comm, eccl_request_t *req)
{
    const eccl_dtype_t dt = (eccl_dtype_t)dtype;
    const eccl_op_t o = (eccl_op_t)op;
    switch (what) {
    case 0: return eccl_ibcast(rbuf, count, dt, root, bound, comm, req);
    case 1: return eccl_iallreduce(sbuf, rbuf, count, dt, o, bound, comm, req);
    case 2: return eccl_ireduce(sbuf, rbuf, count, dt, o, root, bound, comm, req);
    case 3: return eccl_ireduce_scatter_block(sbuf, rbuf, count, dt, o, bound, comm, req);
    case 4: return eccl_iallgather(sbuf, rbuf, count, dt, bound, comm, req);
    case 5: return eccl_iscatter(sbuf, rbuf, count, dt, root, bound, comm, req);
    case 6: return eccl_igather(sbuf, rbuf, count, dt, root, bound, comm, req);
    case 7: return eccl_isendrecv_replace(rbuf, count, dt, dest, sendtag, source, recvtag, bound, comm, req);
    default: return ECCL_ERR_INVALID_ARG;
    }
}
