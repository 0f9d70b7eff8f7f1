! eccl.F90 - module eccl: the Fortran 2008 interface to eccl (doc/fortran.md).
!
! `use eccl` gives everything: this file holds the codec (its generic procedures written once, in
! eccl_codec_template.F90); the constants and types come from eccl_types.F90, the communicators
! and collectives from eccl_comm.F90, eccl_movement.F90, eccl_reductions.F90 and
! eccl_nonblocking.F90, the GPU queries
! from eccl_device.F90, and the BLACS layer (when built with ScaLAPACK) from eccl_blacs.F90,
! eccl_blacs_extrema.F90 and eccl_panels.F90.  Those modules are private helpers of this one: only
! names listed public here are part of the interface.
!
! Conventions, the same for every procedure (later collectives and BLACS-style calls included):
! * An operation that can fail is a subroutine whose last argument is
!   integer(c_int), intent(out) :: info  -- ECCL_SUCCESS (0) or an ECCL_ERR_* code, as MPI ierror
!   and ScaLAPACK INFO; eccl_strerror(info) explains it.  Queries that cannot fail are functions.
! * Element counts, byte capacities and stream sizes are either all integer(c_int) (default
!   INTEGER, what ScaLAPACK codes hold) or all integer(c_int64_t) (beyond 2**31-1): the generic
!   picks the specific by their kind.
! * The dtype follows from the data array: real(c_float), real(c_double), complex(c_float_complex)
!   or complex(c_double_complex), assumed-size x(*) plus an element count n.
! * A compressed stream is an integer(c_int8_t) array: bytes, sent as MPI_BYTE, with none of the
!   length and kind rules of character data.
! The bind(C) interfaces are private; the wrappers pass addresses with c_loc and never keep them.
module eccl
  use, intrinsic :: iso_c_binding
  use eccl_types
  use eccl_comm_api
  use eccl_movement
  use eccl_reductions
  use eccl_nonblocking
  use eccl_device
#ifdef ECCL_HAVE_SCALAPACK
  use eccl_blacs
  use eccl_blacs_extrema
  use eccl_panels
#endif
  implicit none
  private

  ! Re-exported: the constants (list generated with them), the types, the communicators,
  ! collectives and the BLACS layer.
#include "eccl_public.inc"
  public :: eccl_bound, eccl_stream_info_t, eccl_config, eccl_stats, eccl_comm, eccl_to_string
  public :: eccl_comm_create, eccl_comm_free, eccl_comm_set_algorithm, eccl_comm_info
  public :: eccl_comm_last_error, eccl_comm_last_stats
  public :: eccl_bcast, eccl_allgather, eccl_scatter, eccl_gather, eccl_sendrecv_replace
  public :: eccl_allreduce, eccl_reduce, eccl_reduce_scatter_block
  public :: eccl_request, eccl_wait, eccl_test, eccl_waitall
  public :: eccl_ibcast, eccl_iallreduce, eccl_ireduce, eccl_ireduce_scatter_block
  public :: eccl_iallgather, eccl_iscatter, eccl_igather, eccl_isendrecv_replace
  public :: eccl_cuda_device_count, eccl_cuda_device_check, eccl_cuda_set_device
  public :: eccl_cuda_malloc, eccl_cuda_free, eccl_cuda_memcpy, eccl_in_place
  public :: eccl_cuda_comm_set_stream, eccl_cuda_comm_mpi_aware
  public :: eccl_cuda_bcast_async, eccl_cuda_allreduce_async, eccl_cuda_reduce_async
  public :: eccl_cuda_reduce_scatter_block_async, eccl_cuda_allgather_async, eccl_cuda_scatter_async
  public :: eccl_cuda_gather_async, eccl_cuda_sendrecv_replace_async, eccl_cuda_comm_async_error
#ifdef ECCL_HAVE_SCALAPACK
  public :: eccl_blacs_totals, eccl_blacs_comm, eccl_blacs_configure, eccl_blacs_get_totals
  public :: eccl_sgebs2d, eccl_dgebs2d, eccl_cgebs2d, eccl_zgebs2d
  public :: eccl_sgebr2d, eccl_dgebr2d, eccl_cgebr2d, eccl_zgebr2d
  public :: eccl_sgsum2d, eccl_dgsum2d, eccl_cgsum2d, eccl_zgsum2d
  public :: eccl_sgamx2d, eccl_dgamx2d, eccl_sgamn2d, eccl_dgamn2d
  public :: eccl_desc_local_rows, eccl_desc_local_cols, eccl_panel_width
  public :: eccl_panel_bcast_col, eccl_panel_bcast_row, eccl_panel_ibcast_col, eccl_panel_ibcast_row
#endif

  public :: eccl_strerror, eccl_version_string, eccl_dtype_size, eccl_dtype_name
  public :: eccl_bound_abs, eccl_bound_rel, eccl_bound_lossless
  public :: eccl_compress_bound, eccl_data_range, eccl_bound_resolve
  public :: eccl_compress, eccl_decompress, eccl_stream_info
  public :: eccl_hom_reduce, eccl_hom_combine

  ! The generic procedures of the codec, written once in eccl_codec_template.F90: per data type
  ! and count kind, or per count kind for those on streams (ECCL_UNTYPED).
#define ECCL_TEMPLATE "eccl_codec_template.F90"
#define ECCL_PER_TYPE "eccl_kinds.h"
#define ECCL_X(f) ECCL_KS(ECCL_TS(f))
#define ECCL_SPEC
#include "eccl_dtypes.h"
#define ECCL_UNTYPED
#include "eccl_kinds.h"
#undef ECCL_UNTYPED
#undef ECCL_SPEC

  ! ---- the C library (eccl.h); enums are int, size_t is c_size_t ----
  interface
    function c_eccl_strerror(rc) bind(C, name="eccl_strerror") result(p)
      import :: c_int, c_ptr
      integer(c_int), value :: rc
      type(c_ptr) :: p
    end function c_eccl_strerror

    function c_eccl_version_string() bind(C, name="eccl_version_string") result(p)
      import :: c_ptr
      type(c_ptr) :: p
    end function c_eccl_version_string

    function c_eccl_dtype_size(dtype) bind(C, name="eccl_dtype_size") result(n)
      import :: c_int, c_size_t
      integer(c_int), value :: dtype
      integer(c_size_t) :: n
    end function c_eccl_dtype_size

    function c_eccl_dtype_name(dtype) bind(C, name="eccl_dtype_name") result(p)
      import :: c_int, c_ptr
      integer(c_int), value :: dtype
      type(c_ptr) :: p
    end function c_eccl_dtype_name

    function c_eccl_compress_bound(count, dtype) bind(C, name="eccl_compress_bound") result(n)
      import :: c_int, c_size_t
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype
      integer(c_size_t) :: n
    end function c_eccl_compress_bound

    function c_eccl_data_range(data, count, dtype, vmin, vmax) &
        bind(C, name="eccl_data_range") result(rc)
      import :: c_int, c_ptr, c_size_t, c_double
      type(c_ptr), value :: data
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype
      real(c_double), intent(out) :: vmin, vmax
      integer(c_int) :: rc
    end function c_eccl_data_range

    function c_eccl_bound_resolve(bound, data, count, dtype, eb_abs) &
        bind(C, name="eccl_bound_resolve") result(rc)
      import :: c_int, c_ptr, c_size_t, c_double, eccl_bound
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: data
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype
      real(c_double), intent(out) :: eb_abs
      integer(c_int) :: rc
    end function c_eccl_bound_resolve

    function c_eccl_compress(data, count, dtype, bound, out, out_capacity, out_size) &
        bind(C, name="eccl_compress") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: data
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: out
      integer(c_size_t), value :: out_capacity
      integer(c_size_t), intent(inout) :: out_size
      integer(c_int) :: rc
    end function c_eccl_compress

    function c_eccl_decompress(stream, stream_size, data, count, dtype) &
        bind(C, name="eccl_decompress") result(rc)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: stream
      integer(c_size_t), value :: stream_size
      type(c_ptr), value :: data
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype
      integer(c_int) :: rc
    end function c_eccl_decompress

    function c_eccl_stream_info(stream, stream_size, sinfo) &
        bind(C, name="eccl_stream_info") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_stream_info_t
      type(c_ptr), value :: stream
      integer(c_size_t), value :: stream_size
      type(eccl_stream_info_t), intent(inout) :: sinfo
      integer(c_int) :: rc
    end function c_eccl_stream_info

    function c_eccl_hom_reduce(stream, stream_size, local, count, dtype, op, out, out_capacity, &
        out_size) bind(C, name="eccl_hom_reduce") result(rc)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: stream
      integer(c_size_t), value :: stream_size
      type(c_ptr), value :: local
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, op
      type(c_ptr), value :: out
      integer(c_size_t), value :: out_capacity
      integer(c_size_t), intent(inout) :: out_size
      integer(c_int) :: rc
    end function c_eccl_hom_reduce

    function c_eccl_hom_combine(a, a_size, b, b_size, op, out, out_capacity, out_size) &
        bind(C, name="eccl_hom_combine") result(rc)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: a
      integer(c_size_t), value :: a_size
      type(c_ptr), value :: b
      integer(c_size_t), value :: b_size
      integer(c_int), value :: op
      type(c_ptr), value :: out
      integer(c_size_t), value :: out_capacity
      integer(c_size_t), intent(inout) :: out_size
      integer(c_int) :: rc
    end function c_eccl_hom_combine
  end interface

contains

  ! ================================ strings and small queries ================================

  ! The message for a result code ("unknown eccl result code" for any other value).
  function eccl_strerror(code) result(s)
    integer(c_int), intent(in) :: code
    character(len=:), allocatable :: s
    s = eccl_c_string(c_eccl_strerror(code))
  end function eccl_strerror

  ! e.g. "0.1.0 (format 1.0, cuda: no, nccl: no, openmp: yes)"
  function eccl_version_string() result(s)
    character(len=:), allocatable :: s
    s = eccl_c_string(c_eccl_version_string())
  end function eccl_version_string

  ! Bytes of one element of dtype, 0 for an unknown dtype.
  function eccl_dtype_size(dtype) result(n)
    integer(c_int), intent(in) :: dtype
    integer(c_size_t) :: n
    n = c_eccl_dtype_size(dtype)
  end function eccl_dtype_size

  ! "float32", "float64", "complex64", "complex128" or "unknown".
  function eccl_dtype_name(dtype) result(s)
    integer(c_int), intent(in) :: dtype
    character(len=:), allocatable :: s
    s = eccl_c_string(c_eccl_dtype_name(dtype))
  end function eccl_dtype_name

  ! ======================================= bounds ==========================================

  ! |x - x'| <= e for every real component.
  pure function eccl_bound_abs(e) result(b)
    real(c_double), intent(in) :: e
    type(eccl_bound) :: b
    b = eccl_bound(ECCL_MODE_ABS, e, 0.0_c_double)
  end function eccl_bound_abs

  ! |x - x'| <= e * range; range defaults to ECCL_RANGE_FROM_DATA (max - min of the data).  Pass
  ! the global range of a distributed array so that every rank uses the same bound.
  pure function eccl_bound_rel(e, range) result(b)
    real(c_double), intent(in) :: e
    real(c_double), intent(in), optional :: range
    type(eccl_bound) :: b
    b = eccl_bound(ECCL_MODE_REL, e, ECCL_RANGE_FROM_DATA)
    if (present(range)) b%range = range
  end function eccl_bound_rel

  ! Bit-exact reconstruction.
  pure function eccl_bound_lossless() result(b)
    type(eccl_bound) :: b
    b = eccl_bound(ECCL_MODE_LOSSLESS, 0.0_c_double, 0.0_c_double)
  end function eccl_bound_lossless

  ! =================================== size conversions ====================================

  ! A C size as integer(c_int), or -1 when it does not fit (use the integer(c_int64_t) forms).
  elemental function to_int(n) result(i)
    integer(c_int64_t), intent(in) :: n
    integer(c_int) :: i
    i = -1_c_int
    if (n >= 0 .and. n <= huge(i)) i = int(n, c_int)
  end function to_int

  ! The address of the byte array buf, or of the caller's byte none when buf is empty: a
  ! zero-sized byte array is legal Fortran, and C then reports a too-small or truncated buffer
  ! rather than a NULL pointer.
  function byte_loc(buf, nonempty, none) result(p)
    integer(c_int8_t), intent(in), target :: buf(*)
    logical, intent(in) :: nonempty
    integer(c_int8_t), intent(out), target :: none(1)
    type(c_ptr) :: p
    none = 0
    p = c_loc(none)
    if (nonempty) p = c_loc(buf(1))
  end function byte_loc

  ! ====== eccl_codec_template.F90: streams per count kind, then data per type and kind ======

#define ECCL_UNTYPED
#include "eccl_kinds.h"
#undef ECCL_UNTYPED
#include "eccl_dtypes.h"

end module eccl
