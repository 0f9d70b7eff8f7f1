! eccl_blacs_extrema_template.F90 - the drop-ins eccl_[sd]gamx2d and eccl_[sd]gamn2d of module
! eccl_blacs_extrema, written once: eccl_blacs_extrema.F90 #includes this file through
! eccl_dtypes.h (real types only), with ECCL_SPEC once per data type (the generic and bind(C)
! interfaces), then once per data type and rank of a (eccl_ranks.h) for the procedures.
#ifdef ECCL_SPEC
  ! call eccl_?gamx2d(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, info):
  !  element-wise absolute maximum over the scope (?GAMX2D; ldia must be -1)
  interface eccl_/**/ECCL_B(gamx2d)
    module procedure ECCL_B(gamx2d_0), ECCL_B(gamx2d_1), ECCL_B(gamx2d_2)
  end interface

  ! call eccl_?gamn2d(...): the same, absolute minimum (?GAMN2D)
  interface eccl_/**/ECCL_B(gamn2d)
    module procedure ECCL_B(gamn2d_0), ECCL_B(gamn2d_1), ECCL_B(gamn2d_2)
  end interface

  interface
    function c_/**/ECCL_B(gamx2d)(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, &
        bound) bind(C, name="eccl_" // ECCL_BL // "gamx2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, ldia, rdest, cdest
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a, ra, ca
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function

    function c_/**/ECCL_B(gamn2d)(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, &
        bound) bind(C, name="eccl_" // ECCL_BL // "gamn2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, ldia, rdest, cdest
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a, ra, ca
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function
  end interface
#else

  subroutine ECCL_X(gamx2d)(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, &
      info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    ECCL_A(inout) :: a ECCL_SHAPE(lda)
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = ECCL_NULL(a)
    if (m > 0 .and. n > 0) pa = ECCL_LOC(a)
    info = c_/**/ECCL_B(gamx2d)(ictxt, eccl_first_char(scope), eccl_first_char(top), m, n, pa, &
      lda, c_loc(ra), c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine ECCL_X(gamx2d)

  subroutine ECCL_X(gamn2d)(ictxt, scope, top, m, n, a, lda, ra, ca, ldia, rdest, cdest, bound, &
      info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, ldia, rdest, cdest
    character(len=*), intent(in) :: scope, top
    ECCL_A(inout) :: a ECCL_SHAPE(lda)
    integer(c_int), intent(inout), target :: ra, ca
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = ECCL_NULL(a)
    if (m > 0 .and. n > 0) pa = ECCL_LOC(a)
    info = c_/**/ECCL_B(gamn2d)(ictxt, eccl_first_char(scope), eccl_first_char(top), m, n, pa, &
      lda, c_loc(ra), c_loc(ca), ldia, rdest, cdest, bound)
  end subroutine ECCL_X(gamn2d)
#endif
