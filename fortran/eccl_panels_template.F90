! eccl_panels_template.F90 - the array forms of the panel broadcasts of module eccl_panels,
! written once: eccl_panels.F90 #includes this file through eccl_dtypes.h and eccl_ranks.h (one
! specific per data type and rank, 1 or 2, of a/b and work), with ECCL_SPEC for the generic
! interfaces, then without it for the procedures.
#ifdef ECCL_SPEC
  interface eccl_panel_bcast_col
    module procedure ECCL_X(panel_col)
  end interface eccl_panel_bcast_col

  interface eccl_panel_bcast_row
    module procedure ECCL_X(panel_row)
  end interface eccl_panel_bcast_row

  interface eccl_panel_ibcast_col
    module procedure ECCL_X(panel_icol)
  end interface eccl_panel_ibcast_col

  interface eccl_panel_ibcast_row
    module procedure ECCL_X(panel_irow)
  end interface eccl_panel_ibcast_row
#else

  subroutine ECCL_X(panel_col)(m, kb, a, ia, ja, desca, work, ldw, bound, info)
    integer(c_int), intent(in) :: m, kb, ia, ja, ldw
    integer(c_int), intent(in) :: desca(9)
    ECCL_A(in) :: a ECCL_SHAPE(desca(9))
    ECCL_A(inout) :: work ECCL_SHAPE(ldw)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_panel_col(m, kb, ECCL_LOC(a), ia, ja, desca, ECCL_LOC(work), ldw, bound, ECCL_DT)
  end subroutine ECCL_X(panel_col)

  subroutine ECCL_X(panel_row)(kb, n, b, ib, jb, descb, work, ldw, bound, info)
    integer(c_int), intent(in) :: kb, n, ib, jb, ldw
    integer(c_int), intent(in) :: descb(9)
    ECCL_A(in) :: b ECCL_SHAPE(descb(9))
    ECCL_A(inout) :: work ECCL_SHAPE(ldw)
    type(eccl_bound), intent(in) :: bound
    integer(c_int), intent(out) :: info
    info = c_panel_row(kb, n, ECCL_LOC(b), ib, jb, descb, ECCL_LOC(work), ldw, bound, ECCL_DT)
  end subroutine ECCL_X(panel_row)

  subroutine ECCL_X(panel_icol)(m, kb, a, ia, ja, desca, work, ldw, bound, req, info)
    integer(c_int), intent(in) :: m, kb, ia, ja, ldw
    integer(c_int), intent(in) :: desca(9)
    ECCL_A(in) :: a ECCL_SHAPE(desca(9))
    ECCL_A(inout), asynchronous :: work ECCL_SHAPE(ldw)
    type(eccl_bound), intent(in) :: bound
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    info = c_panel_icol(m, kb, ECCL_LOC(a), ia, ja, desca, ECCL_LOC(work), ldw, bound, ECCL_DT, req%ptr)
  end subroutine ECCL_X(panel_icol)

  subroutine ECCL_X(panel_irow)(kb, n, b, ib, jb, descb, work, ldw, bound, req, info)
    integer(c_int), intent(in) :: kb, n, ib, jb, ldw
    integer(c_int), intent(in) :: descb(9)
    ECCL_A(in) :: b ECCL_SHAPE(descb(9))
    ECCL_A(inout), asynchronous :: work ECCL_SHAPE(ldw)
    type(eccl_bound), intent(in) :: bound
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    info = c_panel_irow(kb, n, ECCL_LOC(b), ib, jb, descb, ECCL_LOC(work), ldw, bound, ECCL_DT, req%ptr)
  end subroutine ECCL_X(panel_irow)
#endif
