! eccl_blacs.F90 - module eccl_blacs: the BLACS layer from Fortran (eccl_scalapack.h,
! doc/scalapack.md): the grid's eccl communicators, its configuration and totals, and the
! drop-ins eccl_[sdcz]gebs2d, eccl_[sdcz]gebr2d and eccl_[sdcz]gsum2d: the BLACS arguments,
! then the bound and info (eccl_[sd]gamx2d and gamn2d are in eccl_blacs_extrema.F90).
!
!     call dgebs2d(ictxt, 'Row', ' ', m, n, a, lda)
!  -> call eccl_dgebs2d(ictxt, 'Row', ' ', m, n, a, lda, bound, info)
!
! The data argument may be a scalar, an array element (the start of an m x n block, as with
! BLACS) or a rank-1 or rank-2 array: each drop-in is a generic with one specific per rank (a
! generic cannot take a rank-2 array for a rank-1 dummy, and assumed-size dummies take no
! scalars), or a type(c_ptr) to the block, for device arrays (the C calls detect device memory
! and keep the data on the GPU, doc/gpu.md).  For gamx2d/gamn2d, ra and ca are never referenced
! (ldia must be -1): pass integer variables.  INFO: 0, -k for an invalid argument k (positions as
! in BLACS, then bound at 8 or 10 or 13), or an ECCL_ERR_* code.
module eccl_blacs
  use, intrinsic :: iso_c_binding
  use eccl_types
  use eccl_comm_api
  implicit none
  private

  public :: eccl_blacs_comm, eccl_blacs_configure, eccl_blacs_get_totals
  public :: eccl_sgebs2d, eccl_dgebs2d, eccl_cgebs2d, eccl_zgebs2d, eccl_sgebr2d, eccl_dgebr2d, &
    eccl_cgebr2d, eccl_zgebr2d, eccl_sgsum2d, eccl_dgsum2d, eccl_cgsum2d, eccl_zgsum2d

  ! call eccl_blacs_configure(ictxt, [config,] info): collective over the grid.
  interface eccl_blacs_configure
    module procedure blacs_configure, blacs_configure_default
  end interface eccl_blacs_configure

  ! The drop-ins: written once in eccl_blacs_template.F90, their generic and bind(C) interfaces
  ! per data type here, their procedures per data type and form of a after contains.
#define ECCL_TEMPLATE "eccl_blacs_template.F90"
#define ECCL_X(f) ECCL_RS(ECCL_B(f))
#define ECCL_WITH_PTR
#define ECCL_SPEC
#define ECCL_PER_TYPE ECCL_TEMPLATE
#include "eccl_dtypes.h"
#undef ECCL_PER_TYPE
#undef ECCL_SPEC

  interface
    function c_blacs_comm(ictxt, scope, comm) bind(C, name="eccl_blacs_comm") result(rc)
      import :: c_int, c_char, c_ptr
      integer(c_int), value :: ictxt
      character(kind=c_char), intent(in) :: scope(*)
      type(c_ptr), intent(out) :: comm
      integer(c_int) :: rc
    end function c_blacs_comm

    function c_blacs_configure(ictxt, config) bind(C, name="eccl_blacs_configure") result(rc)
      import :: c_int, eccl_config
      integer(c_int), value :: ictxt
      type(eccl_config), intent(in) :: config
      integer(c_int) :: rc
    end function c_blacs_configure

    function c_blacs_configure_default(ictxt, config) bind(C, name="eccl_blacs_configure") &
        result(rc)
      import :: c_int, c_ptr
      integer(c_int), value :: ictxt
      type(c_ptr), value :: config
      integer(c_int) :: rc
    end function c_blacs_configure_default

    function c_blacs_totals(ictxt, totals, reset) bind(C, name="eccl_blacs_totals") result(rc)
      import :: c_int, eccl_blacs_totals
      integer(c_int), value :: ictxt
      type(eccl_blacs_totals), intent(out) :: totals
      integer(c_int), value :: reset
      integer(c_int) :: rc
    end function c_blacs_totals
  end interface

contains

  ! The eccl communicator of scope 'R', 'C' or 'A' of the grid (created on first use, collective
  ! over the scope; owned by the grid: do not free it).
  subroutine eccl_blacs_comm(ictxt, scope, comm, info)
    integer(c_int), intent(in) :: ictxt
    character(len=*), intent(in) :: scope
    type(eccl_comm), intent(out) :: comm
    integer(c_int), intent(out) :: info
    info = c_blacs_comm(ictxt, eccl_first_char(scope), comm%ptr)
  end subroutine eccl_blacs_comm

  subroutine blacs_configure(ictxt, config, info)
    integer(c_int), intent(in) :: ictxt
    type(eccl_config), intent(in) :: config
    integer(c_int), intent(out) :: info
    info = c_blacs_configure(ictxt, config)
  end subroutine blacs_configure

  subroutine blacs_configure_default(ictxt, info)
    integer(c_int), intent(in) :: ictxt
    integer(c_int), intent(out) :: info
    info = c_blacs_configure_default(ictxt, c_null_ptr)
  end subroutine blacs_configure_default

  ! This process's totals for the grid (eccl_blacs_totals_t); reset zeroes them afterwards.
  subroutine eccl_blacs_get_totals(ictxt, totals, reset, info)
    integer(c_int), intent(in) :: ictxt
    type(eccl_blacs_totals), intent(out) :: totals
    logical, intent(in) :: reset
    integer(c_int), intent(out) :: info
    info = c_blacs_totals(ictxt, totals, merge(1_c_int, 0_c_int, reset))
  end subroutine eccl_blacs_get_totals

  ! ---- the drop-ins (eccl_blacs_template.F90) ----
#define ECCL_PER_TYPE "eccl_ranks.h"
#include "eccl_dtypes.h"

end module eccl_blacs
