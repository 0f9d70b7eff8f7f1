! eccl_blacs_extrema.F90 - module eccl_blacs_extrema: the BLACS drop-ins eccl_[sd]gamx2d and
! eccl_[sd]gamn2d (element-wise absolute maximum and minimum over a scope; eccl_scalapack.h).
! Conventions as in eccl_blacs.F90.
!
!     call dgebs2d(ictxt, 'Row', ' ', m, n, a, lda)
!  -> call eccl_dgebs2d(ictxt, 'Row', ' ', m, n, a, lda, bound, info)
!
! The data argument may be a scalar, an array element (the start of an m x n block, as with
! BLACS) or a rank-1 or rank-2 array: each drop-in is a generic with one specific per rank (a
! generic cannot take a rank-2 array for a rank-1 dummy, and assumed-size dummies take no
! scalars).  For gamx2d/gamn2d, ra and ca are never referenced (ldia must be -1): pass
! integer variables.  INFO: 0, -k for an invalid argument k (positions as in BLACS, then bound at
! 8 or 10 or 13), or an ECCL_ERR_* code.  The drop-ins are written once, in
! eccl_blacs_extrema_template.F90.
module eccl_blacs_extrema
  use, intrinsic :: iso_c_binding
  use eccl_types
  use eccl_comm_api
  implicit none
  private

  public :: eccl_sgamx2d, eccl_dgamx2d, eccl_sgamn2d, eccl_dgamn2d

#define ECCL_TEMPLATE "eccl_blacs_extrema_template.F90"
#define ECCL_X(f) ECCL_RS(ECCL_B(f))
#define ECCL_REAL_ONLY
#define ECCL_SPEC
#define ECCL_PER_TYPE ECCL_TEMPLATE
#include "eccl_dtypes.h"
#undef ECCL_PER_TYPE
#undef ECCL_SPEC

contains
#define ECCL_PER_TYPE "eccl_ranks.h"
#include "eccl_dtypes.h"

end module eccl_blacs_extrema
