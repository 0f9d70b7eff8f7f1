! eccl_movement.F90 - module eccl_movement: the data-movement collectives from Fortran (eccl.h:
! eccl_bcast, eccl_allgather, eccl_scatter, eccl_gather, eccl_sendrecv_replace).
!
! One specific per data type (real(c_float), real(c_double), complex(c_float_complex),
! complex(c_double_complex)) and count kind (integer(c_int) or integer(c_int64_t)); buffers are
! assumed-size x(*).  Arguments in MPI order, then the bound of the result, the eccl communicator
! and info.  A buffer that is not significant on a rank (scatter's sendbuf off the root) must
! still be an array (one element will do).  The procedures are written once, in
! eccl_movement_template.F90, and instantiated per type and kind by eccl_dtypes.h and eccl_kinds.h.
module eccl_movement
  use, intrinsic :: iso_c_binding
  use eccl_types
  use eccl_comm_api
  implicit none
  private

  public :: eccl_bcast, eccl_allgather, eccl_scatter, eccl_gather, eccl_sendrecv_replace

#define ECCL_TEMPLATE "eccl_movement_template.F90"
#define ECCL_PER_TYPE "eccl_kinds.h"
#define ECCL_X(f) ECCL_KS(ECCL_TS(f))
#define ECCL_SPEC
#include "eccl_dtypes.h"
#undef ECCL_SPEC

contains
#include "eccl_dtypes.h"

end module eccl_movement
