! eccl_types_template.F90 - the typed part of module eccl_types, #included by eccl_types.F90 once
! per data type and count kind (eccl_dtypes.h, eccl_kinds.h): with ECCL_SPEC the generic, else
! the function.
#ifdef ECCL_SPEC
  ! eccl_loc(x, n): the address of x(1) (x assumed-size, of any data type), or c_null_ptr when
  ! n < 1: x(1) does not exist for an empty array.  n is of either count kind.
  interface eccl_loc
    module procedure ECCL_X(loc)
  end interface eccl_loc
#else
  function ECCL_X(loc)(x, n) result(p)
    ECCL_T, intent(in), target :: x(*)
    integer(ECCL_IK), intent(in) :: n
    type(c_ptr) :: p
    p = c_null_ptr
    if (n > 0) p = c_loc(x(1))
  end function ECCL_X(loc)
#endif
