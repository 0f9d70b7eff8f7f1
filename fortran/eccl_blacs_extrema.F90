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
! 8 or 10 or 13), or an ECCL_ERR_* code.
module eccl_blacs_extrema
  use, intrinsic :: iso_c_binding
  use eccl_types
  use eccl_comm_api
  implicit none
  private

  public :: eccl_sgamx2d, eccl_dgamx2d, eccl_sgamn2d, eccl_dgamn2d

  interface eccl_sgamx2d
    module procedure sgamx2d_0, sgamx2d_1, sgamx2d_2
  end interface eccl_sgamx2d
  interface eccl_dgamx2d
    module procedure dgamx2d_0, dgamx2d_1, dgamx2d_2
  end interface eccl_dgamx2d
  interface eccl_sgamn2d
    module procedure sgamn2d_0, sgamn2d_1, sgamn2d_2
  end interface eccl_sgamn2d
  interface eccl_dgamn2d
    module procedure dgamn2d_0, dgamn2d_1, dgamn2d_2
  end interface eccl_dgamn2d

  interface
    function c_sgamx2d(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound) bind(C, &
      name="eccl_sgamx2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, ldia, rdest, cdest
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a, ra, ca
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_sgamx2d

    function c_dgamx2d(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound) bind(C, &
      name="eccl_dgamx2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, ldia, rdest, cdest
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a, ra, ca
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_dgamx2d

    function c_sgamn2d(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound) bind(C, &
      name="eccl_sgamn2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, ldia, rdest, cdest
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a, ra, ca
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_sgamn2d

    function c_dgamn2d(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound) bind(C, &
      name="eccl_dgamn2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, ldia, rdest, cdest
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a, ra, ca
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function c_dgamn2d
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

  ! ---- eccl_sgamx2d ----

  subroutine sgamx2d_0(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(inout), target :: a
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_sgamx2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, c_loc(ra), &
      c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine sgamx2d_0

  subroutine sgamx2d_1(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(inout), target :: a(*)
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_sgamx2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, c_loc(ra), &
      c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine sgamx2d_1

  subroutine sgamx2d_2(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(inout), target :: a(max(lda, 1), *)
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_sgamx2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, c_loc(ra), &
      c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine sgamx2d_2

  ! ---- eccl_dgamx2d ----

  subroutine dgamx2d_0(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(inout), target :: a
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_dgamx2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, c_loc(ra), &
      c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine dgamx2d_0

  subroutine dgamx2d_1(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(inout), target :: a(*)
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_dgamx2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, c_loc(ra), &
      c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine dgamx2d_1

  subroutine dgamx2d_2(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(inout), target :: a(max(lda, 1), *)
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_dgamx2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, c_loc(ra), &
      c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine dgamx2d_2

  ! ---- eccl_sgamn2d ----

  subroutine sgamn2d_0(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(inout), target :: a
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_sgamn2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, c_loc(ra), &
      c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine sgamn2d_0

  subroutine sgamn2d_1(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(inout), target :: a(*)
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_sgamn2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, c_loc(ra), &
      c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine sgamn2d_1

  subroutine sgamn2d_2(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_float), intent(inout), target :: a(max(lda, 1), *)
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_sgamn2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, c_loc(ra), &
      c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine sgamn2d_2

  ! ---- eccl_dgamn2d ----

  subroutine dgamn2d_0(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(inout), target :: a
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a)
    info = c_dgamn2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, c_loc(ra), &
      c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine dgamn2d_0

  subroutine dgamn2d_1(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(inout), target :: a(*)
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1))
    info = c_dgamn2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, c_loc(ra), &
      c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine dgamn2d_1

  subroutine dgamn2d_2(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    real(c_double), intent(inout), target :: a(max(lda, 1), *)
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = c_null_ptr
    if (m > 0 .and. n > 0) pa = c_loc(a(1, 1))
    info = c_dgamn2d(ictxt, first_char(scope), first_char(top), m, n, pa, lda, c_loc(ra), &
      c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine dgamn2d_2

end module eccl_blacs_extrema
