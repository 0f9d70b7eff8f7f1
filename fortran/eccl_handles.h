/* eccl_handles.h - #includes ECCL_TEMPLATE once per kind of MPI communicator handle: the INTEGER
 * of `use mpi` and mpif.h, and type(MPI_Comm) when the MPI library has mpi_f08.  Each time:
 *   ECCL_H      the handle's type                     integer   type(MPI_Comm)
 *   ECCL_HV(c)  its INTEGER value, what C converts    c         c%MPI_VAL
 *   ECCL_HS(f)  f with the handle's suffix            f_int     f_f08
 */
#define ECCL_H integer
#define ECCL_HV(c) c
#define ECCL_HS(f) f/**/_int
#include ECCL_TEMPLATE
#undef ECCL_H
#undef ECCL_HV
#undef ECCL_HS

#ifdef ECCL_HAVE_MPI_F08
#define ECCL_H type(MPI_Comm)
#define ECCL_HV(c) c%MPI_VAL
#define ECCL_HS(f) f/**/_f08
#include ECCL_TEMPLATE
#undef ECCL_H
#undef ECCL_HV
#undef ECCL_HS
#endif
