! eccl_codec_template.F90 - the codec procedures of module eccl, written once: eccl.F90 #includes
! this file through eccl_dtypes.h and eccl_kinds.h (those taking data: one specific per data type
! and count kind), and, with ECCL_UNTYPED, through eccl_kinds.h alone (those on streams: one per
! count kind); with ECCL_SPEC for the generic interfaces, then without it for the procedures.
! Sizes go to C as size_t; a returned size that does not fit integer(c_int) is -1 (ECCL_FIT).
#if defined(ECCL_SPEC) && !defined(ECCL_UNTYPED)
  ! call eccl_data_range(x, n, vmin, vmax, info): min and max over the finite real components.
  interface eccl_data_range
    module procedure ECCL_X(data_range)
  end interface eccl_data_range

  ! call eccl_bound_resolve(bound, x, n, eb_abs, info): the absolute bound compressing x guarantees.
  interface eccl_bound_resolve
    module procedure ECCL_X(bound_resolve)
  end interface eccl_bound_resolve

  ! call eccl_compress(x, n, bound, buf, capacity, nbytes, info): nbytes of stream in buf(1:nbytes).
  ! ECCL_ERR_BUFFER_TOO_SMALL: nbytes is then eccl_compress_bound(n, dtype) (-1 when it does not fit
  ! the kind of n).
  interface eccl_compress
    module procedure ECCL_X(compress)
  end interface eccl_compress

  ! call eccl_decompress(buf, nbytes, x, n, info): n and the dtype of x must match the stream, and
  ! nbytes is the stream's size (the nbytes eccl_compress returned), not the size of buf.
  interface eccl_decompress
    module procedure ECCL_X(decompress)
  end interface eccl_decompress

  ! call eccl_hom_reduce(buf, nbytes, x, n, op, out, capacity, out_size, info): the stream of
  ! op(decompressed buf, x) without decompressing (op: ECCL_OP_SUM, _MAX, _MIN; MAX/MIN real only).
  interface eccl_hom_reduce
    module procedure ECCL_X(hom_reduce)
  end interface eccl_hom_reduce
#elif defined(ECCL_SPEC)
  ! eccl_compress_bound(n, dtype): worst-case stream bytes, of the kind of n (0 when unknown
  ! dtype or when it does not fit that kind).
  interface eccl_compress_bound
    module procedure ECCL_KS(compress_bound)
  end interface eccl_compress_bound

  ! call eccl_stream_info(buf, nbytes, sinfo, info)
  interface eccl_stream_info
    module procedure ECCL_KS(stream_info)
  end interface eccl_stream_info

  ! call eccl_hom_combine(a, a_size, b, b_size, op, out, capacity, out_size, info)
  interface eccl_hom_combine
    module procedure ECCL_KS(hom_combine)
  end interface eccl_hom_combine
#elif !defined(ECCL_UNTYPED)

  subroutine ECCL_X(data_range)(x, n, vmin, vmax, info)
    ECCL_T, intent(in), target :: x(*)
    integer(ECCL_IK), intent(in) :: n
    real(c_double), intent(out) :: vmin, vmax
    integer(c_int), intent(out) :: info
    vmin = 0
    vmax = 0
    info = ECCL_ERR_INVALID_ARG
    if (n < 0) return
    info = c_eccl_data_range(eccl_loc(x, n), int(n, c_size_t), ECCL_DT, vmin, vmax)
  end subroutine ECCL_X(data_range)

  subroutine ECCL_X(bound_resolve)(bound, x, n, eb_abs, info)
    type(eccl_bound), intent(in) :: bound
    ECCL_T, intent(in), target :: x(*)
    integer(ECCL_IK), intent(in) :: n
    real(c_double), intent(out) :: eb_abs
    integer(c_int), intent(out) :: info
    eb_abs = 0
    info = ECCL_ERR_INVALID_ARG
    if (n < 0) return
    info = c_eccl_bound_resolve(bound, eccl_loc(x, n), int(n, c_size_t), ECCL_DT, eb_abs)
  end subroutine ECCL_X(bound_resolve)

  subroutine ECCL_X(compress)(x, n, bound, buf, capacity, nbytes, info)
    ECCL_T, intent(in), target :: x(*)
    integer(ECCL_IK), intent(in) :: n, capacity
    type(eccl_bound), intent(in) :: bound
    integer(c_int8_t), intent(inout), target :: buf(*)
    integer(ECCL_IK), intent(out) :: nbytes
    integer(c_int), intent(out) :: info
    integer(c_int8_t), target :: none(1)
    integer(c_size_t) :: sz
    nbytes = 0
    info = ECCL_ERR_INVALID_ARG
    if (n < 0 .or. capacity < 0) return
    sz = 0
    info = c_eccl_compress(eccl_loc(x, n), int(n, c_size_t), ECCL_DT, bound, &
      byte_loc(buf, capacity > 0, none), int(capacity, c_size_t), sz)
    nbytes = ECCL_FIT(int(sz, c_int64_t))
  end subroutine ECCL_X(compress)

  subroutine ECCL_X(decompress)(buf, nbytes, x, n, info)
    integer(c_int8_t), intent(in), target :: buf(*)
    integer(ECCL_IK), intent(in) :: nbytes, n
    ECCL_T, intent(inout), target :: x(*)
    integer(c_int), intent(out) :: info
    integer(c_int8_t), target :: none(1)
    info = ECCL_ERR_INVALID_ARG
    if (n < 0 .or. nbytes < 0) return
    info = c_eccl_decompress(byte_loc(buf, nbytes > 0, none), int(nbytes, c_size_t), &
      eccl_loc(x, n), int(n, c_size_t), ECCL_DT)
  end subroutine ECCL_X(decompress)

  subroutine ECCL_X(hom_reduce)(buf, nbytes, x, n, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in), target :: buf(*)
    integer(ECCL_IK), intent(in) :: nbytes, n, capacity
    ECCL_T, intent(in), target :: x(*)
    integer(c_int), intent(in) :: op
    integer(c_int8_t), intent(inout), target :: out(*)
    integer(ECCL_IK), intent(out) :: out_size
    integer(c_int), intent(out) :: info
    integer(c_int8_t), target :: none_in(1), none_out(1)
    integer(c_size_t) :: sz
    out_size = 0
    info = ECCL_ERR_INVALID_ARG
    if (n < 0 .or. nbytes < 0 .or. capacity < 0) return
    sz = 0
    info = c_eccl_hom_reduce(byte_loc(buf, nbytes > 0, none_in), int(nbytes, c_size_t), &
      eccl_loc(x, n), int(n, c_size_t), ECCL_DT, op, byte_loc(out, capacity > 0, none_out), &
      int(capacity, c_size_t), sz)
    out_size = ECCL_FIT(int(sz, c_int64_t))
  end subroutine ECCL_X(hom_reduce)
#else

  function ECCL_KS(compress_bound)(n, dtype) result(nbytes)
    integer(ECCL_IK), intent(in) :: n
    integer(c_int), intent(in) :: dtype
    integer(ECCL_IK) :: nbytes
    integer(c_size_t) :: m
    nbytes = 0
    if (n < 0) return
    m = c_eccl_compress_bound(int(n, c_size_t), dtype)
    if (m >= 0 .and. m <= huge(nbytes)) nbytes = int(m, ECCL_IK)
  end function ECCL_KS(compress_bound)

  subroutine ECCL_KS(stream_info)(buf, nbytes, sinfo, info)
    integer(c_int8_t), intent(in), target :: buf(*)
    integer(ECCL_IK), intent(in) :: nbytes
    type(eccl_stream_info_t), intent(out) :: sinfo
    integer(c_int), intent(out) :: info
    integer(c_int8_t), target :: none(1)
    info = ECCL_ERR_INVALID_ARG
    if (nbytes < 0) return
    info = c_eccl_stream_info(byte_loc(buf, nbytes > 0, none), int(nbytes, c_size_t), sinfo)
  end subroutine ECCL_KS(stream_info)

  subroutine ECCL_KS(hom_combine)(a, a_size, b, b_size, op, out, capacity, out_size, info)
    integer(c_int8_t), intent(in), target :: a(*), b(*)
    integer(ECCL_IK), intent(in) :: a_size, b_size, capacity
    integer(c_int), intent(in) :: op
    integer(c_int8_t), intent(inout), target :: out(*)
    integer(ECCL_IK), intent(out) :: out_size
    integer(c_int), intent(out) :: info
    integer(c_int8_t), target :: none_a(1), none_b(1), none_out(1)
    integer(c_size_t) :: sz
    out_size = 0
    info = ECCL_ERR_INVALID_ARG
    if (a_size < 0 .or. b_size < 0 .or. capacity < 0) return
    sz = 0
    info = c_eccl_hom_combine(byte_loc(a, a_size > 0, none_a), int(a_size, c_size_t), &
      byte_loc(b, b_size > 0, none_b), int(b_size, c_size_t), op, &
      byte_loc(out, capacity > 0, none_out), int(capacity, c_size_t), sz)
    out_size = ECCL_FIT(int(sz, c_int64_t))
  end subroutine ECCL_KS(hom_combine)
#endif
