! eccl.F90 - module eccl: the Fortran 2008 interface to eccl (doc/fortran.md).
!
! `use eccl` gives everything: this file holds the codec; the constants and types come from
! eccl_types.F90, the communicators and collectives from eccl_comm.F90, eccl_movement.F90 and
! eccl_reductions.F90, the GPU queries from eccl_device.F90, and the BLACS layer (when built with
! ScaLAPACK) from eccl_blacs.F90, eccl_blacs_extrema.F90 and eccl_panels.F90.  Those modules are
! private helpers of this one: only names listed public here are part of the interface.
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
  public :: eccl_cuda_device_count, eccl_cuda_device_check, eccl_cuda_set_device
  public :: eccl_cuda_malloc, eccl_cuda_free, eccl_cuda_memcpy, eccl_in_place
  public :: eccl_cuda_comm_set_stream, eccl_cuda_comm_mpi_aware
#ifdef ECCL_HAVE_SCALAPACK
  public :: eccl_blacs_totals, eccl_blacs_comm, eccl_blacs_configure, eccl_blacs_get_totals
  public :: eccl_sgebs2d, eccl_dgebs2d, eccl_cgebs2d, eccl_zgebs2d
  public :: eccl_sgebr2d, eccl_dgebr2d, eccl_cgebr2d, eccl_zgebr2d
  public :: eccl_sgsum2d, eccl_dgsum2d, eccl_cgsum2d, eccl_zgsum2d
  public :: eccl_sgamx2d, eccl_dgamx2d, eccl_sgamn2d, eccl_dgamn2d
  public :: eccl_desc_local_rows, eccl_desc_local_cols, eccl_panel_width
  public :: eccl_panel_bcast_col, eccl_panel_bcast_row
#endif

  public :: eccl_strerror, eccl_version_string, eccl_dtype_size, eccl_dtype_name
  public :: eccl_bound_abs, eccl_bound_rel, eccl_bound_lossless
  public :: eccl_compress_bound, eccl_data_range, eccl_bound_resolve
  public :: eccl_compress, eccl_decompress, eccl_stream_info
  public :: eccl_hom_reduce, eccl_hom_combine

  ! eccl_compress_bound(n, dtype): worst-case stream bytes, of the kind of n (0 when unknown
  ! dtype or when it does not fit that kind).
  interface eccl_compress_bound
    module procedure compress_bound_i, compress_bound_l
  end interface eccl_compress_bound

  ! call eccl_data_range(x, n, vmin, vmax, info)
  interface eccl_data_range
    module procedure data_range_f32, data_range_f64, data_range_c64, data_range_c128
    module procedure data_range_f32_i, data_range_f64_i, data_range_c64_i, data_range_c128_i
  end interface eccl_data_range

  ! call eccl_bound_resolve(bound, x, n, eb_abs, info)
  interface eccl_bound_resolve
    module procedure bound_resolve_f32, bound_resolve_f64, bound_resolve_c64, bound_resolve_c128
    module procedure bound_resolve_f32_i, bound_resolve_f64_i, bound_resolve_c64_i, &
      bound_resolve_c128_i
  end interface eccl_bound_resolve

  ! call eccl_compress(x, n, bound, buf, capacity, nbytes, info)
  interface eccl_compress
    module procedure compress_f32, compress_f64, compress_c64, compress_c128
    module procedure compress_f32_i, compress_f64_i, compress_c64_i, compress_c128_i
  end interface eccl_compress

  ! call eccl_decompress(buf, nbytes, x, n, info)
  interface eccl_decompress
    module procedure decompress_f32, decompress_f64, decompress_c64, decompress_c128
    module procedure decompress_f32_i, decompress_f64_i, decompress_c64_i, decompress_c128_i
  end interface eccl_decompress

  ! call eccl_stream_info(buf, nbytes, sinfo, info)
  interface eccl_stream_info
    module procedure stream_info_i, stream_info_l
  end interface eccl_stream_info

  ! call eccl_hom_reduce(buf, nbytes, x, n, op, out, capacity, out_size, info)
  interface eccl_hom_reduce
    module procedure hom_reduce_f32, hom_reduce_f64, hom_reduce_c64, hom_reduce_c128
    module procedure hom_reduce_f32_i, hom_reduce_f64_i, hom_reduce_c64_i, hom_reduce_c128_i
  end interface eccl_hom_reduce

  ! call eccl_hom_combine(a, a_size, b, b_size, op, out, capacity, out_size, info)
  interface eccl_hom_combine
    module procedure hom_combine_i, hom_combine_l
  end interface eccl_hom_combine

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

  function compress_bound_l(n, dtype) result(nbytes)
    integer(c_int64_t), intent(in) :: n
    integer(c_int), intent(in) :: dtype
    integer(c_int64_t) :: nbytes
    integer(c_size_t) :: m
    nbytes = 0
    if (n < 0) return
    m = c_eccl_compress_bound(int(n, c_size_t), dtype)
    if (m >= 0 .and. m <= huge(nbytes)) nbytes = int(m, c_int64_t)
  end function compress_bound_l

  function compress_bound_i(n, dtype) result(nbytes)
    integer(c_int), intent(in) :: n, dtype
    integer(c_int) :: nbytes
    nbytes = max(0_c_int, to_int(compress_bound_l(int(n, c_int64_t), dtype)))
  end function compress_bound_i

  ! ============ dtype-free cores: data address, counts as integer(c_int64_t) ==============
  ! A zero-sized byte array is legal Fortran: its address is that of a local byte, so C reports a
  ! too-small or truncated buffer rather than a NULL pointer.

  subroutine data_range_core(px, n, dtype, vmin, vmax, info)
    type(c_ptr), intent(in) :: px
    integer(c_int64_t), intent(in) :: n
    integer(c_int), intent(in) :: dtype
    real(c_double), intent(out) :: vmin, vmax
    integer(c_int), intent(out) :: info
    vmin = 0
    vmax = 0
    info = ECCL_ERR_INVALID_ARG
    if (n < 0) return
    info = c_eccl_data_range(px, int(n, c_size_t), dtype, vmin, vmax)
  end subroutine data_range_core

  subroutine bound_resolve_core(bound, px, n, dtype, eb_abs, info)
    type(eccl_bound), intent(in) :: bound
    type(c_ptr), intent(in) :: px
    integer(c_int64_t), intent(in) :: n
    integer(c_int), intent(in) :: dtype
    real(c_double), intent(out) :: eb_abs
    integer(c_int), intent(out) :: info
    eb_abs = 0
    info = ECCL_ERR_INVALID_ARG
    if (n < 0) return
    info = c_eccl_bound_resolve(bound, px, int(n, c_size_t), dtype, eb_abs)
  end subroutine bound_resolve_core

  subroutine compress_core(px, n, dtype, bound, buf, capacity, nbytes, info)
    type(c_ptr), intent(in) :: px
    integer(c_int64_t), intent(in) :: n, capacity
    integer(c_int), intent(in) :: dtype
    type(eccl_bound), intent(in) :: bound
    integer(c_int8_t), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(out) :: nbytes
    integer(c_int), intent(out) :: info
    integer(c_int8_t), target :: none(1)
    integer(c_size_t) :: sz
    type(c_ptr) :: pb
    nbytes = 0
    info = ECCL_ERR_INVALID_ARG
    if (n < 0 .or. capacity < 0) return
    pb = c_loc(none)
    if (capacity > 0) pb = c_loc(buf(1))
    sz = 0
    info = c_eccl_compress(px, int(n, c_size_t), dtype, bound, pb, int(capacity, c_size_t), sz)
    nbytes = int(sz, c_int64_t)
  end subroutine compress_core

  subroutine decompress_core(buf, nbytes, px, n, dtype, info)
    integer(c_int8_t), intent(in), target :: buf(*)
    integer(c_int64_t), intent(in) :: nbytes, n
    type(c_ptr), intent(in) :: px
    integer(c_int), intent(in) :: dtype
    integer(c_int), intent(out) :: info
    integer(c_int8_t), target :: none(1)
    type(c_ptr) :: pb
    info = ECCL_ERR_INVALID_ARG
    if (n < 0 .or. nbytes < 0) return
    none = 0
    pb = c_loc(none)
    if (nbytes > 0) pb = c_loc(buf(1))
    info = c_eccl_decompress(pb, int(nbytes, c_size_t), px, int(n, c_size_t), dtype)
  end subroutine decompress_core

  subroutine hom_reduce_core(buf, nbytes, px, n, dtype, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in), target :: buf(*)
    integer(c_int64_t), intent(in) :: nbytes, n, capacity
    type(c_ptr), intent(in) :: px
    integer(c_int), intent(in) :: dtype, op
    integer(c_int8_t), intent(inout), target :: out(*)
    integer(c_int64_t), intent(out) :: out_size
    integer(c_int), intent(out) :: info
    integer(c_int8_t), target :: none_in(1), none_out(1)
    integer(c_size_t) :: sz
    type(c_ptr) :: pb, po
    out_size = 0
    info = ECCL_ERR_INVALID_ARG
    if (n < 0 .or. nbytes < 0 .or. capacity < 0) return
    none_in = 0
    pb = c_loc(none_in)
    if (nbytes > 0) pb = c_loc(buf(1))
    po = c_loc(none_out)
    if (capacity > 0) po = c_loc(out(1))
    sz = 0
    info = c_eccl_hom_reduce(pb, int(nbytes, c_size_t), px, int(n, c_size_t), dtype, op, po, &
      int(capacity, c_size_t), sz)
    out_size = int(sz, c_int64_t)
  end subroutine hom_reduce_core

  ! ================================= streams (no dtype) ====================================

  subroutine stream_info_l(buf, nbytes, sinfo, info)
    integer(c_int8_t), intent(in), target :: buf(*)
    integer(c_int64_t), intent(in) :: nbytes
    type(eccl_stream_info_t), intent(out) :: sinfo
    integer(c_int), intent(out) :: info
    integer(c_int8_t), target :: none(1)
    type(c_ptr) :: pb
    info = ECCL_ERR_INVALID_ARG
    if (nbytes < 0) return
    none = 0
    pb = c_loc(none)
    if (nbytes > 0) pb = c_loc(buf(1))
    info = c_eccl_stream_info(pb, int(nbytes, c_size_t), sinfo)
  end subroutine stream_info_l

  subroutine stream_info_i(buf, nbytes, sinfo, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int), intent(in) :: nbytes
    type(eccl_stream_info_t), intent(out) :: sinfo
    integer(c_int), intent(out) :: info
    call stream_info_l(buf, int(nbytes, c_int64_t), sinfo, info)
  end subroutine stream_info_i

  subroutine hom_combine_l(a, a_size, b, b_size, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in), target :: a(*), b(*)
    integer(c_int64_t), intent(in) :: a_size, b_size, capacity
    integer(c_int), intent(in) :: op
    integer(c_int8_t), intent(inout), target :: out(*)
    integer(c_int64_t), intent(out) :: out_size
    integer(c_int), intent(out) :: info
    integer(c_int8_t), target :: none_a(1), none_b(1), none_out(1)
    integer(c_size_t) :: sz
    type(c_ptr) :: pa, pb, po
    out_size = 0
    info = ECCL_ERR_INVALID_ARG
    if (a_size < 0 .or. b_size < 0 .or. capacity < 0) return
    none_a = 0
    none_b = 0
    pa = c_loc(none_a)
    if (a_size > 0) pa = c_loc(a(1))
    pb = c_loc(none_b)
    if (b_size > 0) pb = c_loc(b(1))
    po = c_loc(none_out)
    if (capacity > 0) po = c_loc(out(1))
    sz = 0
    info = c_eccl_hom_combine(pa, int(a_size, c_size_t), pb, int(b_size, c_size_t), op, po, &
      int(capacity, c_size_t), sz)
    out_size = int(sz, c_int64_t)
  end subroutine hom_combine_l

  subroutine hom_combine_i(a, a_size, b, b_size, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in) :: a(*), b(*)
    integer(c_int), intent(in) :: a_size, b_size, capacity, op
    integer(c_int8_t), intent(inout) :: out(*)
    integer(c_int), intent(out) :: out_size, info
    integer(c_int64_t) :: sz
    call hom_combine_l(a, int(a_size, c_int64_t), b, int(b_size, c_int64_t), op, out, &
      int(capacity, c_int64_t), sz, info)
    out_size = to_int(sz)
  end subroutine hom_combine_i

  ! ========================= typed specifics: the dtype from x ============================
  ! Each takes c_loc of x(1) only when n > 0 (x(1) does not exist for an empty array).

  ! call eccl_data_range(x, n, vmin, vmax, info): min and max over the finite real components.

  subroutine data_range_f32(x, n, vmin, vmax, info)
    real(c_float), intent(in), target :: x(*)
    integer(c_int64_t), intent(in) :: n
    real(c_double), intent(out) :: vmin, vmax
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call data_range_core(px, n, ECCL_FLOAT32, vmin, vmax, info)
  end subroutine data_range_f32

  subroutine data_range_f32_i(x, n, vmin, vmax, info)
    real(c_float), intent(in) :: x(*)
    integer(c_int), intent(in) :: n
    real(c_double), intent(out) :: vmin, vmax
    integer(c_int), intent(out) :: info
    call data_range_f32(x, int(n, c_int64_t), vmin, vmax, info)
  end subroutine data_range_f32_i

  subroutine data_range_f64(x, n, vmin, vmax, info)
    real(c_double), intent(in), target :: x(*)
    integer(c_int64_t), intent(in) :: n
    real(c_double), intent(out) :: vmin, vmax
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call data_range_core(px, n, ECCL_FLOAT64, vmin, vmax, info)
  end subroutine data_range_f64

  subroutine data_range_f64_i(x, n, vmin, vmax, info)
    real(c_double), intent(in) :: x(*)
    integer(c_int), intent(in) :: n
    real(c_double), intent(out) :: vmin, vmax
    integer(c_int), intent(out) :: info
    call data_range_f64(x, int(n, c_int64_t), vmin, vmax, info)
  end subroutine data_range_f64_i

  subroutine data_range_c64(x, n, vmin, vmax, info)
    complex(c_float_complex), intent(in), target :: x(*)
    integer(c_int64_t), intent(in) :: n
    real(c_double), intent(out) :: vmin, vmax
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call data_range_core(px, n, ECCL_COMPLEX64, vmin, vmax, info)
  end subroutine data_range_c64

  subroutine data_range_c64_i(x, n, vmin, vmax, info)
    complex(c_float_complex), intent(in) :: x(*)
    integer(c_int), intent(in) :: n
    real(c_double), intent(out) :: vmin, vmax
    integer(c_int), intent(out) :: info
    call data_range_c64(x, int(n, c_int64_t), vmin, vmax, info)
  end subroutine data_range_c64_i

  subroutine data_range_c128(x, n, vmin, vmax, info)
    complex(c_double_complex), intent(in), target :: x(*)
    integer(c_int64_t), intent(in) :: n
    real(c_double), intent(out) :: vmin, vmax
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call data_range_core(px, n, ECCL_COMPLEX128, vmin, vmax, info)
  end subroutine data_range_c128

  subroutine data_range_c128_i(x, n, vmin, vmax, info)
    complex(c_double_complex), intent(in) :: x(*)
    integer(c_int), intent(in) :: n
    real(c_double), intent(out) :: vmin, vmax
    integer(c_int), intent(out) :: info
    call data_range_c128(x, int(n, c_int64_t), vmin, vmax, info)
  end subroutine data_range_c128_i

  ! call eccl_bound_resolve(bound, x, n, eb_abs, info): the absolute bound compressing x guarantees.

  subroutine bound_resolve_f32(bound, x, n, eb_abs, info)
    type(eccl_bound), intent(in) :: bound
    real(c_float), intent(in), target :: x(*)
    integer(c_int64_t), intent(in) :: n
    real(c_double), intent(out) :: eb_abs
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call bound_resolve_core(bound, px, n, ECCL_FLOAT32, eb_abs, info)
  end subroutine bound_resolve_f32

  subroutine bound_resolve_f32_i(bound, x, n, eb_abs, info)
    type(eccl_bound), intent(in) :: bound
    real(c_float), intent(in) :: x(*)
    integer(c_int), intent(in) :: n
    real(c_double), intent(out) :: eb_abs
    integer(c_int), intent(out) :: info
    call bound_resolve_f32(bound, x, int(n, c_int64_t), eb_abs, info)
  end subroutine bound_resolve_f32_i

  subroutine bound_resolve_f64(bound, x, n, eb_abs, info)
    type(eccl_bound), intent(in) :: bound
    real(c_double), intent(in), target :: x(*)
    integer(c_int64_t), intent(in) :: n
    real(c_double), intent(out) :: eb_abs
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call bound_resolve_core(bound, px, n, ECCL_FLOAT64, eb_abs, info)
  end subroutine bound_resolve_f64

  subroutine bound_resolve_f64_i(bound, x, n, eb_abs, info)
    type(eccl_bound), intent(in) :: bound
    real(c_double), intent(in) :: x(*)
    integer(c_int), intent(in) :: n
    real(c_double), intent(out) :: eb_abs
    integer(c_int), intent(out) :: info
    call bound_resolve_f64(bound, x, int(n, c_int64_t), eb_abs, info)
  end subroutine bound_resolve_f64_i

  subroutine bound_resolve_c64(bound, x, n, eb_abs, info)
    type(eccl_bound), intent(in) :: bound
    complex(c_float_complex), intent(in), target :: x(*)
    integer(c_int64_t), intent(in) :: n
    real(c_double), intent(out) :: eb_abs
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call bound_resolve_core(bound, px, n, ECCL_COMPLEX64, eb_abs, info)
  end subroutine bound_resolve_c64

  subroutine bound_resolve_c64_i(bound, x, n, eb_abs, info)
    type(eccl_bound), intent(in) :: bound
    complex(c_float_complex), intent(in) :: x(*)
    integer(c_int), intent(in) :: n
    real(c_double), intent(out) :: eb_abs
    integer(c_int), intent(out) :: info
    call bound_resolve_c64(bound, x, int(n, c_int64_t), eb_abs, info)
  end subroutine bound_resolve_c64_i

  subroutine bound_resolve_c128(bound, x, n, eb_abs, info)
    type(eccl_bound), intent(in) :: bound
    complex(c_double_complex), intent(in), target :: x(*)
    integer(c_int64_t), intent(in) :: n
    real(c_double), intent(out) :: eb_abs
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call bound_resolve_core(bound, px, n, ECCL_COMPLEX128, eb_abs, info)
  end subroutine bound_resolve_c128

  subroutine bound_resolve_c128_i(bound, x, n, eb_abs, info)
    type(eccl_bound), intent(in) :: bound
    complex(c_double_complex), intent(in) :: x(*)
    integer(c_int), intent(in) :: n
    real(c_double), intent(out) :: eb_abs
    integer(c_int), intent(out) :: info
    call bound_resolve_c128(bound, x, int(n, c_int64_t), eb_abs, info)
  end subroutine bound_resolve_c128_i

  ! call eccl_compress(x, n, bound, buf, capacity, nbytes, info): nbytes of stream in buf(1:nbytes).
  ! ECCL_ERR_BUFFER_TOO_SMALL: nbytes is then eccl_compress_bound(n, dtype) (-1 when it does not fit
  ! the kind of n).

  subroutine compress_f32(x, n, bound, buf, capacity, nbytes, info)
    real(c_float), intent(in), target :: x(*)
    integer(c_int64_t), intent(in) :: n, capacity
    type(eccl_bound), intent(in) :: bound
    integer(c_int8_t), intent(inout) :: buf(*)
    integer(c_int64_t), intent(out) :: nbytes
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call compress_core(px, n, ECCL_FLOAT32, bound, buf, capacity, nbytes, info)
  end subroutine compress_f32

  subroutine compress_f32_i(x, n, bound, buf, capacity, nbytes, info)
    real(c_float), intent(in) :: x(*)
    integer(c_int), intent(in) :: n, capacity
    type(eccl_bound), intent(in) :: bound
    integer(c_int8_t), intent(inout) :: buf(*)
    integer(c_int), intent(out) :: nbytes, info
    integer(c_int64_t) :: sz
    call compress_f32(x, int(n, c_int64_t), bound, buf, int(capacity, c_int64_t), sz, info)
    nbytes = to_int(sz)
  end subroutine compress_f32_i

  subroutine compress_f64(x, n, bound, buf, capacity, nbytes, info)
    real(c_double), intent(in), target :: x(*)
    integer(c_int64_t), intent(in) :: n, capacity
    type(eccl_bound), intent(in) :: bound
    integer(c_int8_t), intent(inout) :: buf(*)
    integer(c_int64_t), intent(out) :: nbytes
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call compress_core(px, n, ECCL_FLOAT64, bound, buf, capacity, nbytes, info)
  end subroutine compress_f64

  subroutine compress_f64_i(x, n, bound, buf, capacity, nbytes, info)
    real(c_double), intent(in) :: x(*)
    integer(c_int), intent(in) :: n, capacity
    type(eccl_bound), intent(in) :: bound
    integer(c_int8_t), intent(inout) :: buf(*)
    integer(c_int), intent(out) :: nbytes, info
    integer(c_int64_t) :: sz
    call compress_f64(x, int(n, c_int64_t), bound, buf, int(capacity, c_int64_t), sz, info)
    nbytes = to_int(sz)
  end subroutine compress_f64_i

  subroutine compress_c64(x, n, bound, buf, capacity, nbytes, info)
    complex(c_float_complex), intent(in), target :: x(*)
    integer(c_int64_t), intent(in) :: n, capacity
    type(eccl_bound), intent(in) :: bound
    integer(c_int8_t), intent(inout) :: buf(*)
    integer(c_int64_t), intent(out) :: nbytes
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call compress_core(px, n, ECCL_COMPLEX64, bound, buf, capacity, nbytes, info)
  end subroutine compress_c64

  subroutine compress_c64_i(x, n, bound, buf, capacity, nbytes, info)
    complex(c_float_complex), intent(in) :: x(*)
    integer(c_int), intent(in) :: n, capacity
    type(eccl_bound), intent(in) :: bound
    integer(c_int8_t), intent(inout) :: buf(*)
    integer(c_int), intent(out) :: nbytes, info
    integer(c_int64_t) :: sz
    call compress_c64(x, int(n, c_int64_t), bound, buf, int(capacity, c_int64_t), sz, info)
    nbytes = to_int(sz)
  end subroutine compress_c64_i

  subroutine compress_c128(x, n, bound, buf, capacity, nbytes, info)
    complex(c_double_complex), intent(in), target :: x(*)
    integer(c_int64_t), intent(in) :: n, capacity
    type(eccl_bound), intent(in) :: bound
    integer(c_int8_t), intent(inout) :: buf(*)
    integer(c_int64_t), intent(out) :: nbytes
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call compress_core(px, n, ECCL_COMPLEX128, bound, buf, capacity, nbytes, info)
  end subroutine compress_c128

  subroutine compress_c128_i(x, n, bound, buf, capacity, nbytes, info)
    complex(c_double_complex), intent(in) :: x(*)
    integer(c_int), intent(in) :: n, capacity
    type(eccl_bound), intent(in) :: bound
    integer(c_int8_t), intent(inout) :: buf(*)
    integer(c_int), intent(out) :: nbytes, info
    integer(c_int64_t) :: sz
    call compress_c128(x, int(n, c_int64_t), bound, buf, int(capacity, c_int64_t), sz, info)
    nbytes = to_int(sz)
  end subroutine compress_c128_i

  ! call eccl_decompress(buf, nbytes, x, n, info): n and the dtype of x must match the stream, and
  ! nbytes is the stream's size (the nbytes eccl_compress returned), not the size of buf.

  subroutine decompress_f32(buf, nbytes, x, n, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int64_t), intent(in) :: nbytes, n
    real(c_float), intent(inout), target :: x(*)
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call decompress_core(buf, nbytes, px, n, ECCL_FLOAT32, info)
  end subroutine decompress_f32

  subroutine decompress_f32_i(buf, nbytes, x, n, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int), intent(in) :: nbytes, n
    real(c_float), intent(inout) :: x(*)
    integer(c_int), intent(out) :: info
    call decompress_f32(buf, int(nbytes, c_int64_t), x, int(n, c_int64_t), info)
  end subroutine decompress_f32_i

  subroutine decompress_f64(buf, nbytes, x, n, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int64_t), intent(in) :: nbytes, n
    real(c_double), intent(inout), target :: x(*)
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call decompress_core(buf, nbytes, px, n, ECCL_FLOAT64, info)
  end subroutine decompress_f64

  subroutine decompress_f64_i(buf, nbytes, x, n, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int), intent(in) :: nbytes, n
    real(c_double), intent(inout) :: x(*)
    integer(c_int), intent(out) :: info
    call decompress_f64(buf, int(nbytes, c_int64_t), x, int(n, c_int64_t), info)
  end subroutine decompress_f64_i

  subroutine decompress_c64(buf, nbytes, x, n, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int64_t), intent(in) :: nbytes, n
    complex(c_float_complex), intent(inout), target :: x(*)
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call decompress_core(buf, nbytes, px, n, ECCL_COMPLEX64, info)
  end subroutine decompress_c64

  subroutine decompress_c64_i(buf, nbytes, x, n, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int), intent(in) :: nbytes, n
    complex(c_float_complex), intent(inout) :: x(*)
    integer(c_int), intent(out) :: info
    call decompress_c64(buf, int(nbytes, c_int64_t), x, int(n, c_int64_t), info)
  end subroutine decompress_c64_i

  subroutine decompress_c128(buf, nbytes, x, n, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int64_t), intent(in) :: nbytes, n
    complex(c_double_complex), intent(inout), target :: x(*)
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call decompress_core(buf, nbytes, px, n, ECCL_COMPLEX128, info)
  end subroutine decompress_c128

  subroutine decompress_c128_i(buf, nbytes, x, n, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int), intent(in) :: nbytes, n
    complex(c_double_complex), intent(inout) :: x(*)
    integer(c_int), intent(out) :: info
    call decompress_c128(buf, int(nbytes, c_int64_t), x, int(n, c_int64_t), info)
  end subroutine decompress_c128_i

  ! call eccl_hom_reduce(buf, nbytes, x, n, op, out, capacity, out_size, info): the stream of
  ! op(decompressed buf, x) without decompressing (op: ECCL_OP_SUM, _MAX, _MIN; MAX/MIN real only).

  subroutine hom_reduce_f32(buf, nbytes, x, n, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int64_t), intent(in) :: nbytes, n, capacity
    real(c_float), intent(in), target :: x(*)
    integer(c_int), intent(in) :: op
    integer(c_int8_t), intent(inout) :: out(*)
    integer(c_int64_t), intent(out) :: out_size
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call hom_reduce_core(buf, nbytes, px, n, ECCL_FLOAT32, op, out, capacity, out_size, info)
  end subroutine hom_reduce_f32

  subroutine hom_reduce_f32_i(buf, nbytes, x, n, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int), intent(in) :: nbytes, n, capacity
    real(c_float), intent(in) :: x(*)
    integer(c_int), intent(in) :: op
    integer(c_int8_t), intent(inout) :: out(*)
    integer(c_int), intent(out) :: out_size, info
    integer(c_int64_t) :: sz
    call hom_reduce_f32(buf, int(nbytes, c_int64_t), x, int(n, c_int64_t), op, out, &
      int(capacity, c_int64_t), sz, info)
    out_size = to_int(sz)
  end subroutine hom_reduce_f32_i

  subroutine hom_reduce_f64(buf, nbytes, x, n, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int64_t), intent(in) :: nbytes, n, capacity
    real(c_double), intent(in), target :: x(*)
    integer(c_int), intent(in) :: op
    integer(c_int8_t), intent(inout) :: out(*)
    integer(c_int64_t), intent(out) :: out_size
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call hom_reduce_core(buf, nbytes, px, n, ECCL_FLOAT64, op, out, capacity, out_size, info)
  end subroutine hom_reduce_f64

  subroutine hom_reduce_f64_i(buf, nbytes, x, n, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int), intent(in) :: nbytes, n, capacity
    real(c_double), intent(in) :: x(*)
    integer(c_int), intent(in) :: op
    integer(c_int8_t), intent(inout) :: out(*)
    integer(c_int), intent(out) :: out_size, info
    integer(c_int64_t) :: sz
    call hom_reduce_f64(buf, int(nbytes, c_int64_t), x, int(n, c_int64_t), op, out, &
      int(capacity, c_int64_t), sz, info)
    out_size = to_int(sz)
  end subroutine hom_reduce_f64_i

  subroutine hom_reduce_c64(buf, nbytes, x, n, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int64_t), intent(in) :: nbytes, n, capacity
    complex(c_float_complex), intent(in), target :: x(*)
    integer(c_int), intent(in) :: op
    integer(c_int8_t), intent(inout) :: out(*)
    integer(c_int64_t), intent(out) :: out_size
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call hom_reduce_core(buf, nbytes, px, n, ECCL_COMPLEX64, op, out, capacity, out_size, info)
  end subroutine hom_reduce_c64

  subroutine hom_reduce_c64_i(buf, nbytes, x, n, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int), intent(in) :: nbytes, n, capacity
    complex(c_float_complex), intent(in) :: x(*)
    integer(c_int), intent(in) :: op
    integer(c_int8_t), intent(inout) :: out(*)
    integer(c_int), intent(out) :: out_size, info
    integer(c_int64_t) :: sz
    call hom_reduce_c64(buf, int(nbytes, c_int64_t), x, int(n, c_int64_t), op, out, &
      int(capacity, c_int64_t), sz, info)
    out_size = to_int(sz)
  end subroutine hom_reduce_c64_i

  subroutine hom_reduce_c128(buf, nbytes, x, n, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int64_t), intent(in) :: nbytes, n, capacity
    complex(c_double_complex), intent(in), target :: x(*)
    integer(c_int), intent(in) :: op
    integer(c_int8_t), intent(inout) :: out(*)
    integer(c_int64_t), intent(out) :: out_size
    integer(c_int), intent(out) :: info
    type(c_ptr) :: px
    px = c_null_ptr
    if (n > 0) px = c_loc(x(1))
    call hom_reduce_core(buf, nbytes, px, n, ECCL_COMPLEX128, op, out, capacity, out_size, info)
  end subroutine hom_reduce_c128

  subroutine hom_reduce_c128_i(buf, nbytes, x, n, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in) :: buf(*)
    integer(c_int), intent(in) :: nbytes, n, capacity
    complex(c_double_complex), intent(in) :: x(*)
    integer(c_int), intent(in) :: op
    integer(c_int8_t), intent(inout) :: out(*)
    integer(c_int), intent(out) :: out_size, info
    integer(c_int64_t) :: sz
    call hom_reduce_c128(buf, int(nbytes, c_int64_t), x, int(n, c_int64_t), op, out, &
      int(capacity, c_int64_t), sz, info)
    out_size = to_int(sz)
  end subroutine hom_reduce_c128_i

end module eccl
