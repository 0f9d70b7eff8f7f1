! eccl_reductions.F90 - module eccl_reductions: the reductions from Fortran (eccl.h:
! eccl_allreduce, eccl_reduce, eccl_reduce_scatter_block).
!
! One specific per data type and count kind, as in eccl_movement.F90 (written once, in
! eccl_reductions_template.F90).  op is ECCL_OP_SUM, _AVG, _MAX, _MIN (real only) or _PROD
! (uncompressed fallback).  eccl_allreduce and eccl_reduce also have an in-place form with one
! buffer (MPI_IN_PLACE in C).
module eccl_reductions
  use, intrinsic :: iso_c_binding
  use eccl_types
  use eccl_comm_api
  implicit none
  private

  public :: eccl_allreduce, eccl_reduce, eccl_reduce_scatter_block

#define ECCL_TEMPLATE "eccl_reductions_template.F90"
#define ECCL_PER_TYPE "eccl_kinds.h"
#define ECCL_X(f) ECCL_KS(ECCL_TS(f))
#define ECCL_SPEC
#include "eccl_dtypes.h"
#undef ECCL_SPEC

contains
#include "eccl_dtypes.h"

end module eccl_reductions
