! eccl_blacs_template.F90 - the drop-ins eccl_[sdcz]gebs2d, gebr2d and gsum2d of module eccl_blacs,
! written once: eccl_blacs.F90 #includes this file through eccl_dtypes.h, with ECCL_SPEC once per
! data type (the generic and bind(C) interfaces), then once per data type and form of a
! (eccl_ranks.h: scalar, rank 1, rank 2, type(c_ptr)) for the procedures.
#ifdef ECCL_SPEC
  ! call eccl_?gebs2d(ictxt, scope, top, m, n, a, lda, bound, info): the m x n block a to the
  !  other processes of the scope (?GEBS2D)
  interface eccl_/**/ECCL_B(gebs2d)
    module procedure ECCL_B(gebs2d_0), ECCL_B(gebs2d_1), ECCL_B(gebs2d_2), ECCL_B(gebs2d_p)
  end interface

  ! call eccl_?gebr2d(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info): receive that
  !  block from process (rsrc, csrc) (?GEBR2D)
  interface eccl_/**/ECCL_B(gebr2d)
    module procedure ECCL_B(gebr2d_0), ECCL_B(gebr2d_1), ECCL_B(gebr2d_2), ECCL_B(gebr2d_p)
  end interface

  ! call eccl_?gsum2d(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info): element-wise
  !  sum over the scope, into process (rdest, cdest) or, with rdest = -1, every process (?GSUM2D)
  interface eccl_/**/ECCL_B(gsum2d)
    module procedure ECCL_B(gsum2d_0), ECCL_B(gsum2d_1), ECCL_B(gsum2d_2), ECCL_B(gsum2d_p)
  end interface

  interface
    function c_/**/ECCL_B(gebs2d)(ictxt, scope, top, m, n, a, lda, bound) &
        bind(C, name="eccl_" // ECCL_BL // "gebs2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function

    function c_/**/ECCL_B(gebr2d)(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound) &
        bind(C, name="eccl_" // ECCL_BL // "gebr2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, rsrc, csrc
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function

    function c_/**/ECCL_B(gsum2d)(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound) &
        bind(C, name="eccl_" // ECCL_BL // "gsum2d") result(info)
      import :: c_int, c_char, c_ptr, eccl_bound
      integer(c_int), value :: ictxt, m, n, lda, rdest, cdest
      character(kind=c_char), intent(in) :: scope(*), top(*)
      type(c_ptr), value :: a
      type(eccl_bound), intent(in) :: bound
      integer(c_int) :: info
    end function
  end interface
#else

  subroutine ECCL_X(gebs2d)(ictxt, scope, top, m, n, a, lda, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda
    character(len=*), intent(in) :: scope, top
    ECCL_A(in) :: a ECCL_SHAPE(lda)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = ECCL_NULL(a)
    if (m > 0 .and. n > 0) pa = ECCL_LOC(a)
    info = c_/**/ECCL_B(gebs2d)(ictxt, eccl_first_char(scope), eccl_first_char(top), m, n, pa, &
      lda, bound)
  end subroutine ECCL_X(gebs2d)

  subroutine ECCL_X(gebr2d)(ictxt, scope, top, m, n, a, lda, rsrc, csrc, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rsrc, csrc
    character(len=*), intent(in) :: scope, top
    ECCL_A(inout) :: a ECCL_SHAPE(lda)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = ECCL_NULL(a)
    if (m > 0 .and. n > 0) pa = ECCL_LOC(a)
    info = c_/**/ECCL_B(gebr2d)(ictxt, eccl_first_char(scope), eccl_first_char(top), m, n, pa, &
      lda, rsrc, csrc, bound)
  end subroutine ECCL_X(gebr2d)

  subroutine ECCL_X(gsum2d)(ictxt, scope, top, m, n, a, lda, rdest, cdest, bound, info)
    integer(c_int), intent(in) :: ictxt, m, n, lda, rdest, cdest
    character(len=*), intent(in) :: scope, top
    ECCL_A(inout) :: a ECCL_SHAPE(lda)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pa
    pa = ECCL_NULL(a)
    if (m > 0 .and. n > 0) pa = ECCL_LOC(a)
    info = c_/**/ECCL_B(gsum2d)(ictxt, eccl_first_char(scope), eccl_first_char(top), m, n, pa, &
      lda, rdest, cdest, bound)
  end subroutine ECCL_X(gsum2d)
#endif
