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
