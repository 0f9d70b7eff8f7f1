! eccl_types.F90 - module eccl_types: the constants and the types every part of the Fortran
! interface shares (doc/fortran.md).  Programs `use eccl`, which re-exports what is public here
! (eccl_c_string excepted); the other eccl_* modules exist to keep the source files small.
module eccl_types
  use, intrinsic :: iso_c_binding
  implicit none
  private

#include "eccl_constants.inc"

  ! eccl_bound_t.  The default is LOSSLESS; build bounds with eccl_bound_abs/_rel/_lossless.
  type, bind(C), public :: eccl_bound
    integer(c_int) :: mode = ECCL_MODE_LOSSLESS
    real(c_double) :: value = 0.0_c_double
    real(c_double) :: range = 0.0_c_double
  end type eccl_bound

  ! eccl_stream_info_t (the _t keeps the name apart from the subroutine eccl_stream_info: a
  ! generic sharing a derived type's name may only hold functions).  uint32/uint64 fields are
  ! read as the signed integers of the same size.
  type, bind(C), public :: eccl_stream_info_t
    integer(c_int) :: version_major = 0, version_minor = 0
    integer(c_int) :: dtype = 0, mode = 0
    integer(c_int64_t) :: count = 0
    real(c_double) :: bound = 0.0_c_double, eb_abs = 0.0_c_double, range = 0.0_c_double
    integer(c_int32_t) :: nsum = 0
    integer(c_int64_t) :: stream_size = 0, nblocks = 0, nblocks_zero = 0, nblocks_quant = 0
    integer(c_int64_t) :: nblocks_raw = 0
  end type eccl_stream_info_t

  ! eccl_config_t.  The defaults are ECCL_CONFIG_INITIALIZER's: every field "unset".
  type, bind(C), public :: eccl_config
    type(eccl_bound) :: bound = eccl_bound(-1_c_int, 0.0_c_double, 0.0_c_double)
    integer(c_int) :: compress = ECCL_COMPRESS_UNSET
    integer(c_int) :: fallback = ECCL_FALLBACK_UNSET
    integer(c_int) :: sum_mode = ECCL_SUM_UNSET
    real(c_double) :: sum_c = 0.0_c_double
    real(c_double) :: alpha = 0.0_c_double
    real(c_double) :: beta = 0.0_c_double
    real(c_double) :: min_bytes = -1.0_c_double
    integer(c_int) :: format = 0 ! the stream format version written (1, 2 or 3; 0: default 1)
  end type eccl_config

  ! eccl_stats_t (what the last collective on a communicator did); the character arrays are NUL
  ! terminated: eccl_to_string(stats%algorithm) gives a Fortran string.
  type, bind(C), public :: eccl_stats
    character(kind=c_char) :: algorithm(32) = c_null_char
    integer(c_int) :: compressed = 0
    integer(c_int) :: result = 0
    real(c_double) :: bound_requested = 0.0_c_double
    real(c_double) :: eb_per_message = 0.0_c_double
    integer(c_int64_t) :: bytes_raw = 0
    integer(c_int64_t) :: bytes_sent = 0
    real(c_double) :: ratio = 0.0_c_double
    real(c_double) :: t_total = 0.0_c_double
    real(c_double) :: t_codec = 0.0_c_double
    real(c_double) :: t_network = 0.0_c_double
    real(c_double) :: model_ratio = 0.0_c_double
    real(c_double) :: model_t_mpi = 0.0_c_double
    real(c_double) :: model_t_chosen = 0.0_c_double
    character(kind=c_char) :: reason(96) = c_null_char
    real(c_double) :: t_stage = 0.0_c_double
    integer(c_int) :: device = 0
    integer(c_int) :: transport = 0
    real(c_double) :: t_select = 0.0_c_double
  end type eccl_stats

  ! eccl_blacs_totals_t (eccl_scalapack.h): what the BLACS layer did on this process.
  type, bind(C), public :: eccl_blacs_totals
    integer(c_int64_t) :: calls = 0
    integer(c_int64_t) :: calls_compressed = 0
    integer(c_int64_t) :: bytes_raw = 0
    integer(c_int64_t) :: bytes_sent = 0
    real(c_double) :: t_total = 0.0_c_double
    real(c_double) :: max_eb = 0.0_c_double
    real(c_double) :: t_select = 0.0_c_double
    real(c_double) :: t_codec = 0.0_c_double
    real(c_double) :: t_network = 0.0_c_double
  end type eccl_blacs_totals

  ! An eccl communicator (eccl_comm_t).  From eccl_comm_create (free it with eccl_comm_free) or
  ! eccl_blacs_comm (borrowed: the grid owns it).
  type, public :: eccl_comm
    type(c_ptr) :: ptr = c_null_ptr
  end type eccl_comm

  public :: eccl_c_string, eccl_to_string, eccl_loc

  ! eccl_loc(x, n), one specific per data type and count kind: eccl_types_template.F90.
#define ECCL_TEMPLATE "eccl_types_template.F90"
#define ECCL_PER_TYPE "eccl_kinds.h"
#define ECCL_X(f) ECCL_KS(ECCL_TS(f))
#define ECCL_SPEC
#include "eccl_dtypes.h"
#undef ECCL_SPEC

  interface
    function c_strlen(s) bind(C, name="strlen") result(n)
      import :: c_ptr, c_size_t
      type(c_ptr), value :: s
      integer(c_size_t) :: n
    end function c_strlen
  end interface

contains

  ! Copies a NUL-terminated C string (NULL gives '').
  function eccl_c_string(p) result(s)
    type(c_ptr), intent(in) :: p
    character(len=:), allocatable :: s
    character(kind=c_char), pointer :: chars(:)
    integer(c_size_t) :: i, n
    if (.not. c_associated(p)) then
      s = ''
      return
    end if
    n = c_strlen(p)
    call c_f_pointer(p, chars, [n])
    allocate(character(len=n) :: s)
    do i = 1, n
      s(i:i) = achar(iachar(chars(i)))
    end do
  end function eccl_c_string

  ! The characters of a NUL-terminated C char array (up to the NUL or the end of the array).
  pure function eccl_to_string(chars) result(s)
    character(kind=c_char), intent(in) :: chars(:)
    character(len=:), allocatable :: s
    integer :: i, n
    n = size(chars)
    do i = 1, size(chars)
      if (chars(i) == c_null_char) then
        n = i - 1
        exit
      end if
    end do
    allocate(character(len=n) :: s)
    do i = 1, n
      s(i:i) = achar(iachar(chars(i)))
    end do
  end function eccl_to_string

#include "eccl_dtypes.h"

end module eccl_types
