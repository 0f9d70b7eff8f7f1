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
! and keep the data on the GPU, doc/gpu.md).  For gamx2d/gamn2d, ra and ca are never referenced (ldia must be -1): pass
! integer variables.  INFO: 0, -k for an invalid argument k (positions as in BLACS, then bound at
! 8 or 10 or 13), or an ECCL_ERR_* code.
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

  interface eccl_sgebs2d
    module procedure sgebs2d_0, sgebs2d_1, sgebs2d_2, sgebs2d_p
  end interface eccl_sgebs2d
  interface eccl_dgebs2d
    module procedure dgebs2d_0, dgebs2d_1, dgebs2d_2, dgebs2d_p
  end interface eccl_dgebs2d
  interface eccl_cgebs2d
    module procedure cgebs2d_0, cgebs2d_1, cgebs2d_2, cgebs2d_p
  end interface eccl_cgebs2d
  interface eccl_zgebs2d
    module procedure zgebs2d_0, zgebs2d_1, zgebs2d_2, zgebs2d_p
  end interface eccl_zgebs2d
  interface eccl_sgebr2d
    module procedure sgebr2d_0, sgebr2d_1, sgebr2d_2, sgebr2d_p
  end interface eccl_sgebr2d
  interface eccl_dgebr2d
    module procedure dgebr2d_0, dgebr2d_1, dgebr2d_2, dgebr2d_p
  end interface eccl_dgebr2d
  interface eccl_cgebr2d
    module procedure cgebr2d_0, cgebr2d_1, cgebr2d_2, cgebr2d_p
  end interface eccl_cgebr2d
  interface eccl_zgebr2d
    module procedure zgebr2d_0, zgebr2d_1, zgebr2d_2, zgebr2d_p
  end interface eccl_zgebr2d
  interface eccl_sgsum2d
    module procedure sgsum2d_0, sgsum2d_1, sgsum2d_2, sgsum2d_p
  end interface eccl_sgsum2d
  interface eccl_dgsum2d
    module procedure dgsum2d_0, dgsum2d_1, dgsum2d_2, dgsum2d_p
  end interface eccl_dgsum2d
  interface eccl_cgsum2d
    module procedure cgsum2d_0, cgsum2d_1, cgsum2d_2, cgsum2d_p
  end interface eccl_cgsum2d
  interface eccl_zgsum2d
    module procedure zgsum2d_0, zgsum2d_1, zgsum2d_2, zgsum2d_p
  end interface eccl_zgsum2d

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

    function c_sgebs2d(ictxt, scope, top, m, n, a, lda, bound) bind(C, &
      name="eccl_sgebs2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_sgebs2d

    function c_dgebs2d(ictxt, scope, top, m, n, a, lda, bound) bind(C, &
      name="eccl_dgebs2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_dgebs2d

    function c_cgebs2d(ictxt, scope, top, m, n, a, lda, bound) bind(C, &
      name="eccl_cgebs2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_cgebs2d

    function c_zgebs2d(ictxt, scope, top, m, n, a, lda, bound) bind(C, &
      name="eccl_zgebs2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_zgebs2d

    function c_sgebr2d(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound) bind(C, &
      name="eccl_sgebr2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, rsrc, csrc
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_sgebr2d

    function c_dgebr2d(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound) bind(C, &
      name="eccl_dgebr2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, rsrc, csrc
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_dgebr2d

    function c_cgebr2d(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound) bind(C, &
      name="eccl_cgebr2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, rsrc, csrc
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_cgebr2d

    function c_zgebr2d(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound) bind(C, &
      name="eccl_zgebr2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, rsrc, csrc
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_zgebr2d

    function c_sgsum2d(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound) bind(C, &
      name="eccl_sgsum2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, rdest, cdest
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_sgsum2d

    function c_dgsum2d(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound) bind(C, &
      name="eccl_dgsum2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, rdest, cdest
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_dgsum2d

    function c_cgsum2d(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound) bind(C, &
      name="eccl_cgsum2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, rdest, cdest
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_cgsum2d

    function c_zgsum2d(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound) bind(C, &
      name="eccl_zgsum2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, rdest, cdest
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_zgsum2d
  end interface

contains

  ! The first character of a BLACS scope or top argument, NUL-terminated ('' gives NUL alone,
  ! which C rejects as a scope).
  pure function first_char(s) result(c)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=2) :: c
    c = c_null_char // c_null_char
    if (len(s) > 0) c(1:1) = s(1:1)
  end function first_char

  ! The eccl communicator of scope 'R', 'C' or 'A' of the grid (created on first use, collective
  ! over the scope; owned by the grid: do not free it).
  subroutine eccl_blacs_comm(ictxt, scope, comm, info)
    integer(c_int), intent(in) :: ictxt
    character(len=*), intent(in) :: scope
    type(eccl_comm), intent(out) :: comm
    integer(c_int), intent(out) :: info
    info = c_blacs_comm(ictxt, first_char(scope), comm%ptr)
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

  ! ---- eccl_sgebs2d ----

  subroutine sgebs2d_0(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(in), target :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_sgebs2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, bound)
  end subroutine sgebs2d_0

  subroutine sgebs2d_1(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(in), target :: a(*)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_sgebs2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, bound)
  end subroutine sgebs2d_1

  subroutine sgebs2d_2(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(in), target :: a(max(lda, 1), *)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_sgebs2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, bound)
  end subroutine sgebs2d_2

  ! ---- eccl_dgebs2d ----

  subroutine dgebs2d_0(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(in), target :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_dgebs2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, bound)
  end subroutine dgebs2d_0

  subroutine dgebs2d_1(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(in), target :: a(*)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_dgebs2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, bound)
  end subroutine dgebs2d_1

  subroutine dgebs2d_2(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(in), target :: a(max(lda, 1), *)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_dgebs2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, bound)
  end subroutine dgebs2d_2

  ! ---- eccl_cgebs2d ----

  subroutine cgebs2d_0(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    complex(c_float_complex), intent(in), target :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_cgebs2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, bound)
  end subroutine cgebs2d_0

  subroutine cgebs2d_1(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    complex(c_float_complex), intent(in), target :: a(*)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_cgebs2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, bound)
  end subroutine cgebs2d_1

  subroutine cgebs2d_2(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    complex(c_float_complex), intent(in), target :: a(max(lda, 1), *)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_cgebs2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, bound)
  end subroutine cgebs2d_2

  ! ---- eccl_zgebs2d ----

  subroutine zgebs2d_0(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    complex(c_double_complex), intent(in), target :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_zgebs2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, bound)
  end subroutine zgebs2d_0

  subroutine zgebs2d_1(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    complex(c_double_complex), intent(in), target :: a(*)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_zgebs2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, bound)
  end subroutine zgebs2d_1

  subroutine zgebs2d_2(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    complex(c_double_complex), intent(in), target :: a(max(lda, 1), *)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_zgebs2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, bound)
  end subroutine zgebs2d_2

  ! ---- eccl_sgebr2d ----

  subroutine sgebr2d_0(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(inout), target :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_sgebr2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rsrc, csrc, bound)
  end subroutine sgebr2d_0

  subroutine sgebr2d_1(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(inout), target :: a(*)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_sgebr2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rsrc, csrc, bound)
  end subroutine sgebr2d_1

  subroutine sgebr2d_2(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(inout), target :: a(max(lda, 1), *)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_sgebr2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rsrc, csrc, bound)
  end subroutine sgebr2d_2

  ! ---- eccl_dgebr2d ----

  subroutine dgebr2d_0(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(inout), target :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_dgebr2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rsrc, csrc, bound)
  end subroutine dgebr2d_0

  subroutine dgebr2d_1(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(inout), target :: a(*)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_dgebr2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rsrc, csrc, bound)
  end subroutine dgebr2d_1

  subroutine dgebr2d_2(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(inout), target :: a(max(lda, 1), *)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_dgebr2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rsrc, csrc, bound)
  end subroutine dgebr2d_2

  ! ---- eccl_cgebr2d ----

  subroutine cgebr2d_0(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    complex(c_float_complex), intent(inout), target :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_cgebr2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rsrc, csrc, bound)
  end subroutine cgebr2d_0

  subroutine cgebr2d_1(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    complex(c_float_complex), intent(inout), target :: a(*)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_cgebr2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rsrc, csrc, bound)
  end subroutine cgebr2d_1

  subroutine cgebr2d_2(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    complex(c_float_complex), intent(inout), target :: a(max(lda, 1), *)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_cgebr2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rsrc, csrc, bound)
  end subroutine cgebr2d_2

  ! ---- eccl_zgebr2d ----

  subroutine zgebr2d_0(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    complex(c_double_complex), intent(inout), target :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_zgebr2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rsrc, csrc, bound)
  end subroutine zgebr2d_0

  subroutine zgebr2d_1(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    complex(c_double_complex), intent(inout), target :: a(*)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_zgebr2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rsrc, csrc, bound)
  end subroutine zgebr2d_1

  subroutine zgebr2d_2(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    complex(c_double_complex), intent(inout), target :: a(max(lda, 1), *)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_zgebr2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rsrc, csrc, bound)
  end subroutine zgebr2d_2

  ! ---- eccl_sgsum2d ----

  subroutine sgsum2d_0(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(inout), target :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_sgsum2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rdest, cdest, bound)
  end subroutine sgsum2d_0

  subroutine sgsum2d_1(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(inout), target :: a(*)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_sgsum2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rdest, cdest, bound)
  end subroutine sgsum2d_1

  subroutine sgsum2d_2(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(inout), target :: a(max(lda, 1), *)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_sgsum2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rdest, cdest, bound)
  end subroutine sgsum2d_2

  ! ---- eccl_dgsum2d ----

  subroutine dgsum2d_0(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(inout), target :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_dgsum2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rdest, cdest, bound)
  end subroutine dgsum2d_0

  subroutine dgsum2d_1(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(inout), target :: a(*)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_dgsum2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rdest, cdest, bound)
  end subroutine dgsum2d_1

  subroutine dgsum2d_2(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(inout), target :: a(max(lda, 1), *)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_dgsum2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rdest, cdest, bound)
  end subroutine dgsum2d_2

  ! ---- eccl_cgsum2d ----

  subroutine cgsum2d_0(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    complex(c_float_complex), intent(inout), target :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_cgsum2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rdest, cdest, bound)
  end subroutine cgsum2d_0

  subroutine cgsum2d_1(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    complex(c_float_complex), intent(inout), target :: a(*)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_cgsum2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rdest, cdest, bound)
  end subroutine cgsum2d_1

  subroutine cgsum2d_2(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    complex(c_float_complex), intent(inout), target :: a(max(lda, 1), *)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_cgsum2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rdest, cdest, bound)
  end subroutine cgsum2d_2

  ! ---- eccl_zgsum2d ----

  subroutine zgsum2d_0(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    complex(c_double_complex), intent(inout), target :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_zgsum2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rdest, cdest, bound)
  end subroutine zgsum2d_0

  subroutine zgsum2d_1(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    complex(c_double_complex), intent(inout), target :: a(*)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_zgsum2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rdest, cdest, bound)
  end subroutine zgsum2d_1

  subroutine zgsum2d_2(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    complex(c_double_complex), intent(inout), target :: a(max(lda, 1), *)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_zgsum2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, rdest, cdest, bound)
  end subroutine zgsum2d_2

  ! ---- the type(c_ptr) specifics: a is the address of the m x n block (device memory from
  !      eccl_cuda_malloc, CUDA Fortran's c_devloc or OpenACC/OpenMP use_device_addr; host memory
  !      from c_loc works too); the data type is the one the name says ----

  subroutine sgebs2d_p(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    type(c_ptr), intent(in) :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_sgebs2d(ictxt, first_char(scope), first_char(top), m, n, a, lda, bound)
  end subroutine sgebs2d_p

  subroutine dgebs2d_p(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    type(c_ptr), intent(in) :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_dgebs2d(ictxt, first_char(scope), first_char(top), m, n, a, lda, bound)
  end subroutine dgebs2d_p

  subroutine cgebs2d_p(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    type(c_ptr), intent(in) :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_cgebs2d(ictxt, first_char(scope), first_char(top), m, n, a, lda, bound)
  end subroutine cgebs2d_p

  subroutine zgebs2d_p(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    type(c_ptr), intent(in) :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_zgebs2d(ictxt, first_char(scope), first_char(top), m, n, a, lda, bound)
  end subroutine zgebs2d_p

  subroutine sgebr2d_p(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    type(c_ptr), intent(in) :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_sgebr2d(ictxt, first_char(scope), first_char(top), m, n, a, lda, rsrc, csrc, bound)
  end subroutine sgebr2d_p

  subroutine dgebr2d_p(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    type(c_ptr), intent(in) :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_dgebr2d(ictxt, first_char(scope), first_char(top), m, n, a, lda, rsrc, csrc, bound)
  end subroutine dgebr2d_p

  subroutine cgebr2d_p(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    type(c_ptr), intent(in) :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_cgebr2d(ictxt, first_char(scope), first_char(top), m, n, a, lda, rsrc, csrc, bound)
  end subroutine cgebr2d_p

  subroutine zgebr2d_p(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    type(c_ptr), intent(in) :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_zgebr2d(ictxt, first_char(scope), first_char(top), m, n, a, lda, rsrc, csrc, bound)
  end subroutine zgebr2d_p

  subroutine sgsum2d_p(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    type(c_ptr), intent(in) :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_sgsum2d(ictxt, first_char(scope), first_char(top), m, n, a, lda, rdest, cdest, bound)
  end subroutine sgsum2d_p

  subroutine dgsum2d_p(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    type(c_ptr), intent(in) :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_dgsum2d(ictxt, first_char(scope), first_char(top), m, n, a, lda, rdest, cdest, bound)
  end subroutine dgsum2d_p

  subroutine cgsum2d_p(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    type(c_ptr), intent(in) :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_cgsum2d(ictxt, first_char(scope), first_char(top), m, n, a, lda, rdest, cdest, bound)
  end subroutine cgsum2d_p

  subroutine zgsum2d_p(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    type(c_ptr), intent(in) :: a
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_zgsum2d(ictxt, first_char(scope), first_char(top), m, n, a, lda, rdest, cdest, bound)
  end subroutine zgsum2d_p
end module eccl_blacs
