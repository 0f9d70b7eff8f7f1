! eccl_panels.F90 - module eccl_panels: descriptor-aware panel broadcasts from Fortran
! (eccl_scalapack.h, doc/scalapack.md), for SUMMA-style codes with PBLAS-style global indices:
!
!   call eccl_panel_bcast_col(m, kb, a, ia, ja, desca, work, ldw, bound, info)
!        the block column A(ia:ia+m-1, ja:ja+kb-1) from its owning process column along each
!        process row into work (local rows of that process row x kb)
!   call eccl_panel_bcast_row(kb, n, b, ib, jb, descb, work, ldw, bound, info)
!        the block row B(ib:ib+kb-1, jb:jb+n-1) from its owning process row along each process
!        column into work (kb x local columns)
!   eccl_desc_local_rows(m, ia, desc), eccl_desc_local_cols(n, ja, desc), eccl_panel_width(j, nb, n)
!
! a/b and work are both rank 1 (assumed-size, local storage with leading dimension LLD) or both
! rank 2 (a(LLD, *), work(ldw, *)), of one of the four data types; or both type(c_ptr) (device
! arrays, or host ones from c_loc), with the data type after the bound, as in C (so INFO's
! argument positions are C's):
!   call eccl_panel_bcast_col(m, kb, a_ptr, ia, ja, desca, work_ptr, ldw, bound, ECCL_FLOAT64, info)
module eccl_panels
  use, intrinsic :: iso_c_binding
  use eccl_types
  use eccl_nonblocking, only: eccl_request
  implicit none
  private

  public :: eccl_panel_bcast_col, eccl_panel_bcast_row, eccl_panel_ibcast_col, eccl_panel_ibcast_row
  public :: eccl_desc_local_rows, eccl_desc_local_cols, eccl_panel_width

  ! The array forms, written once in eccl_panels_template.F90, and the type(c_ptr) forms.
#define ECCL_TEMPLATE "eccl_panels_template.F90"
#define ECCL_X(f) ECCL_RS(ECCL_TS(f))
#define ECCL_NO_SCALAR
#define ECCL_PER_TYPE "eccl_ranks.h"
#define ECCL_SPEC
#include "eccl_dtypes.h"
#undef ECCL_SPEC

  interface eccl_panel_bcast_col
    module procedure panel_col_ptr
  end interface eccl_panel_bcast_col

  interface eccl_panel_bcast_row
    module procedure panel_row_ptr
  end interface eccl_panel_bcast_row

  interface eccl_panel_ibcast_col
    module procedure panel_icol_ptr
  end interface eccl_panel_ibcast_col

  interface eccl_panel_ibcast_row
    module procedure panel_irow_ptr
  end interface eccl_panel_ibcast_row

  interface
    function eccl_desc_local_rows(m, ia, desc) bind(C, name="eccl_desc_local_rows") result(n)
      import :: c_int
      integer(c_int), value :: m, ia
      integer(c_int), intent(in) :: desc(9)
      integer(c_int) :: n
    end function eccl_desc_local_rows

    function eccl_desc_local_cols(n, ja, desc) bind(C, name="eccl_desc_local_cols") result(k)
      import :: c_int
      integer(c_int), value :: n, ja
      integer(c_int), intent(in) :: desc(9)
      integer(c_int) :: k
    end function eccl_desc_local_cols

    function eccl_panel_width(j, nb, n) bind(C, name="eccl_panel_width") result(w)
      import :: c_int
      integer(c_int), value :: j, nb, n
      integer(c_int) :: w
    end function eccl_panel_width

    function c_panel_col(m, kb, a, ia, ja, desca, work, ldw, bound, dtype) &
        bind(C, name="eccl_panel_bcast_col") result(info)
      import :: c_int, c_ptr, eccl_bound
      integer(c_int), value :: m, kb, ia, ja, ldw, dtype
      type(c_ptr), value :: a, work
      integer(c_int), intent(in) :: desca(*)
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_panel_col

    function c_panel_row(kb, n, b, ib, jb, descb, work, ldw, bound, dtype) &
        bind(C, name="eccl_panel_bcast_row") result(info)
      import :: c_int, c_ptr, eccl_bound
      integer(c_int), value :: kb, n, ib, jb, ldw, dtype
      type(c_ptr), value :: b, work
      integer(c_int), intent(in) :: descb(*)
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_panel_row

    function c_panel_icol(m, kb, a, ia, ja, desca, work, ldw, bound, dtype, req) &
        bind(C, name="eccl_panel_ibcast_col") result(info)
      import :: c_int, c_ptr, eccl_bound
      integer(c_int), value :: m, kb, ia, ja, ldw, dtype
      type(c_ptr), value :: a, work
      integer(c_int), intent(in) :: desca(*)
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), intent(out) :: req
      integer(c_int) :: info
    end function c_panel_icol

    function c_panel_irow(kb, n, b, ib, jb, descb, work, ldw, bound, dtype, req) &
        bind(C, name="eccl_panel_ibcast_row") result(info)
      import :: c_int, c_ptr, eccl_bound
      integer(c_int), value :: kb, n, ib, jb, ldw, dtype
      type(c_ptr), value :: b, work
      integer(c_int), intent(in) :: descb(*)
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), intent(out) :: req
      integer(c_int) :: info
    end function c_panel_irow
  end interface

contains

#include "eccl_dtypes.h"

  ! ---- type(c_ptr) arguments (device arrays: packed and broadcast on the GPU, doc/gpu.md) ----

  subroutine panel_col_ptr(m, kb, a, ia, ja, desca, work, ldw, bound, dtype, info)
    integer(c_int), intent(in) :: m, kb, ia, ja, ldw, dtype
    integer(c_int), intent(in) :: desca(9)
    type(c_ptr), intent(in) :: a, work
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_panel_col(m, kb, a, ia, ja, desca, work, ldw, bound, dtype)
  end subroutine panel_col_ptr

  subroutine panel_row_ptr(kb, n, b, ib, jb, descb, work, ldw, bound, dtype, info)
    integer(c_int), intent(in) :: kb, n, ib, jb, ldw, dtype
    integer(c_int), intent(in) :: descb(9)
    type(c_ptr), intent(in) :: b, work
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_panel_row(kb, n, b, ib, jb, descb, work, ldw, bound, dtype)
  end subroutine panel_row_ptr

  subroutine panel_icol_ptr(m, kb, a, ia, ja, desca, work, ldw, bound, dtype, req, info)
    integer(c_int), intent(in) :: m, kb, ia, ja, ldw, dtype
    integer(c_int), intent(in) :: desca(9)
    type(c_ptr), intent(in) :: a, work
    type(eccl_bound), intent(in) :: bound
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    info = c_panel_icol(m, kb, a, ia, ja, desca, work, ldw, bound, dtype, req%ptr)
  end subroutine panel_icol_ptr

  subroutine panel_irow_ptr(kb, n, b, ib, jb, descb, work, ldw, bound, dtype, req, info)
    integer(c_int), intent(in) :: kb, n, ib, jb, ldw, dtype
    integer(c_int), intent(in) :: descb(9)
    type(c_ptr), intent(in) :: b, work
    type(eccl_bound), intent(in) :: bound
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    info = c_panel_irow(kb, n, b, ib, jb, descb, work, ldw, bound, dtype, req%ptr)
  end subroutine panel_irow_ptr

end module eccl_panels
