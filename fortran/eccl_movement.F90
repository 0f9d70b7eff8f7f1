! eccl_movement.F90 - module eccl_movement: the data-movement collectives from Fortran (eccl.h:
! eccl_bcast, eccl_allgather, eccl_scatter, eccl_gather, eccl_sendrecv_replace).
!
! One specific per data type (real(c_float), real(c_double), complex(c_float_complex),
! complex(c_double_complex)) and count kind (integer(c_int) or integer(c_int64_t)); buffers are
! assumed-size x(*).  Arguments in MPI order, then the bound of the result, the eccl communicator
! and info.  A buffer that is not significant on a rank (scatter's sendbuf off the root) must
! still be an array (one element will do).
module eccl_movement
  use, intrinsic :: iso_c_binding
  use eccl_types
  use eccl_comm_api
  implicit none
  private

  public :: eccl_bcast, eccl_allgather, eccl_scatter, eccl_gather, eccl_sendrecv_replace

  ! call eccl_bcast(buf, count, root, bound, comm, info): buf of the root to every rank; |out - in|
  !  <= E.
  interface eccl_bcast
    module procedure bcast_f32, bcast_f32_i, bcast_f64, bcast_f64_i, bcast_c64, bcast_c64_i, &
      bcast_c128, bcast_c128_i
  end interface eccl_bcast

  ! call eccl_allgather(sendbuf, recvbuf, count, bound, comm, info): count elements per rank;
  !  recvbuf holds size*count.
  interface eccl_allgather
    module procedure allgather_f32, allgather_f32_i, allgather_f64, allgather_f64_i, &
      allgather_c64, allgather_c64_i, allgather_c128, allgather_c128_i
  end interface eccl_allgather

  ! call eccl_scatter(sendbuf, recvbuf, count, root, bound, comm, info): sendbuf (size*count, read
  !  at the root only) to count elements per rank.
  interface eccl_scatter
    module procedure scatter_f32, scatter_f32_i, scatter_f64, scatter_f64_i, scatter_c64, &
      scatter_c64_i, scatter_c128, scatter_c128_i
  end interface eccl_scatter

  ! call eccl_gather(sendbuf, recvbuf, count, root, bound, comm, info): count elements per rank into
  !  recvbuf (size*count, written at the root only).
  interface eccl_gather
    module procedure gather_f32, gather_f32_i, gather_f64, gather_f64_i, gather_c64, gather_c64_i, &
      gather_c128, gather_c128_i
  end interface eccl_gather

  ! call eccl_sendrecv_replace(buf, count, dest, sendtag, source, recvtag, bound, comm, info):
  !  Cannon's shift; |out - what source sent| <= E.
  interface eccl_sendrecv_replace
    module procedure sendrecv_replace_f32, sendrecv_replace_f32_i, sendrecv_replace_f64, &
      sendrecv_replace_f64_i, sendrecv_replace_c64, sendrecv_replace_c64_i, sendrecv_replace_c128, &
      sendrecv_replace_c128_i
  end interface eccl_sendrecv_replace

contains

  ! ---- eccl_bcast ----

  subroutine bcast_f32(buf, count, root, bound, comm, info)
    real(c_float), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    info = c_eccl_bcast(pbuf, int(count, c_size_t), ECCL_FLOAT32, root, bound, comm%ptr)
  end subroutine bcast_f32

  subroutine bcast_f32_i(buf, count, root, bound, comm, info)
    real(c_float), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call bcast_f32(buf, int(count, c_int64_t), root, bound, comm, info)
  end subroutine bcast_f32_i

  subroutine bcast_f64(buf, count, root, bound, comm, info)
    real(c_double), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    info = c_eccl_bcast(pbuf, int(count, c_size_t), ECCL_FLOAT64, root, bound, comm%ptr)
  end subroutine bcast_f64

  subroutine bcast_f64_i(buf, count, root, bound, comm, info)
    real(c_double), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call bcast_f64(buf, int(count, c_int64_t), root, bound, comm, info)
  end subroutine bcast_f64_i

  subroutine bcast_c64(buf, count, root, bound, comm, info)
    complex(c_float_complex), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    info = c_eccl_bcast(pbuf, int(count, c_size_t), ECCL_COMPLEX64, root, bound, comm%ptr)
  end subroutine bcast_c64

  subroutine bcast_c64_i(buf, count, root, bound, comm, info)
    complex(c_float_complex), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call bcast_c64(buf, int(count, c_int64_t), root, bound, comm, info)
  end subroutine bcast_c64_i

  subroutine bcast_c128(buf, count, root, bound, comm, info)
    complex(c_double_complex), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    info = c_eccl_bcast(pbuf, int(count, c_size_t), ECCL_COMPLEX128, root, bound, comm%ptr)
  end subroutine bcast_c128

  subroutine bcast_c128_i(buf, count, root, bound, comm, info)
    complex(c_double_complex), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call bcast_c128(buf, int(count, c_int64_t), root, bound, comm, info)
  end subroutine bcast_c128_i

  ! ---- eccl_allgather ----

  subroutine allgather_f32(sendbuf, recvbuf, count, bound, comm, info)
    real(c_float), intent(in), target :: sendbuf(*)
    real(c_float), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    psendbuf = c_null_ptr
    if (count > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (count > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_allgather(psendbuf, precvbuf, int(count, c_size_t), ECCL_FLOAT32, bound, comm%ptr)
  end subroutine allgather_f32

  subroutine allgather_f32_i(sendbuf, recvbuf, count, bound, comm, info)
    real(c_float), intent(in) :: sendbuf(*)
    real(c_float), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call allgather_f32(sendbuf, recvbuf, int(count, c_int64_t), bound, comm, info)
  end subroutine allgather_f32_i

  subroutine allgather_f64(sendbuf, recvbuf, count, bound, comm, info)
    real(c_double), intent(in), target :: sendbuf(*)
    real(c_double), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    psendbuf = c_null_ptr
    if (count > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (count > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_allgather(psendbuf, precvbuf, int(count, c_size_t), ECCL_FLOAT64, bound, comm%ptr)
  end subroutine allgather_f64

  subroutine allgather_f64_i(sendbuf, recvbuf, count, bound, comm, info)
    real(c_double), intent(in) :: sendbuf(*)
    real(c_double), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call allgather_f64(sendbuf, recvbuf, int(count, c_int64_t), bound, comm, info)
  end subroutine allgather_f64_i

  subroutine allgather_c64(sendbuf, recvbuf, count, bound, comm, info)
    complex(c_float_complex), intent(in), target :: sendbuf(*)
    complex(c_float_complex), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    psendbuf = c_null_ptr
    if (count > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (count > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_allgather(psendbuf, precvbuf, int(count, c_size_t), ECCL_COMPLEX64, bound, &
      comm%ptr)
  end subroutine allgather_c64

  subroutine allgather_c64_i(sendbuf, recvbuf, count, bound, comm, info)
    complex(c_float_complex), intent(in) :: sendbuf(*)
    complex(c_float_complex), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call allgather_c64(sendbuf, recvbuf, int(count, c_int64_t), bound, comm, info)
  end subroutine allgather_c64_i

  subroutine allgather_c128(sendbuf, recvbuf, count, bound, comm, info)
    complex(c_double_complex), intent(in), target :: sendbuf(*)
    complex(c_double_complex), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    psendbuf = c_null_ptr
    if (count > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (count > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_allgather(psendbuf, precvbuf, int(count, c_size_t), ECCL_COMPLEX128, bound, &
      comm%ptr)
  end subroutine allgather_c128

  subroutine allgather_c128_i(sendbuf, recvbuf, count, bound, comm, info)
    complex(c_double_complex), intent(in) :: sendbuf(*)
    complex(c_double_complex), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call allgather_c128(sendbuf, recvbuf, int(count, c_int64_t), bound, comm, info)
  end subroutine allgather_c128_i

  ! ---- eccl_scatter ----

  subroutine scatter_f32(sendbuf, recvbuf, count, root, bound, comm, info)
    real(c_float), intent(in), target :: sendbuf(*)
    real(c_float), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    psendbuf = c_null_ptr
    if (count > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (count > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_scatter(psendbuf, precvbuf, int(count, c_size_t), ECCL_FLOAT32, root, bound, &
      comm%ptr)
  end subroutine scatter_f32

  subroutine scatter_f32_i(sendbuf, recvbuf, count, root, bound, comm, info)
    real(c_float), intent(in) :: sendbuf(*)
    real(c_float), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call scatter_f32(sendbuf, recvbuf, int(count, c_int64_t), root, bound, comm, info)
  end subroutine scatter_f32_i

  subroutine scatter_f64(sendbuf, recvbuf, count, root, bound, comm, info)
    real(c_double), intent(in), target :: sendbuf(*)
    real(c_double), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    psendbuf = c_null_ptr
    if (count > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (count > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_scatter(psendbuf, precvbuf, int(count, c_size_t), ECCL_FLOAT64, root, bound, &
      comm%ptr)
  end subroutine scatter_f64

  subroutine scatter_f64_i(sendbuf, recvbuf, count, root, bound, comm, info)
    real(c_double), intent(in) :: sendbuf(*)
    real(c_double), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call scatter_f64(sendbuf, recvbuf, int(count, c_int64_t), root, bound, comm, info)
  end subroutine scatter_f64_i

  subroutine scatter_c64(sendbuf, recvbuf, count, root, bound, comm, info)
    complex(c_float_complex), intent(in), target :: sendbuf(*)
    complex(c_float_complex), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    psendbuf = c_null_ptr
    if (count > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (count > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_scatter(psendbuf, precvbuf, int(count, c_size_t), ECCL_COMPLEX64, root, bound, &
      comm%ptr)
  end subroutine scatter_c64

  subroutine scatter_c64_i(sendbuf, recvbuf, count, root, bound, comm, info)
    complex(c_float_complex), intent(in) :: sendbuf(*)
    complex(c_float_complex), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call scatter_c64(sendbuf, recvbuf, int(count, c_int64_t), root, bound, comm, info)
  end subroutine scatter_c64_i

  subroutine scatter_c128(sendbuf, recvbuf, count, root, bound, comm, info)
    complex(c_double_complex), intent(in), target :: sendbuf(*)
    complex(c_double_complex), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    psendbuf = c_null_ptr
    if (count > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (count > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_scatter(psendbuf, precvbuf, int(count, c_size_t), ECCL_COMPLEX128, root, bound, &
      comm%ptr)
  end subroutine scatter_c128

  subroutine scatter_c128_i(sendbuf, recvbuf, count, root, bound, comm, info)
    complex(c_double_complex), intent(in) :: sendbuf(*)
    complex(c_double_complex), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call scatter_c128(sendbuf, recvbuf, int(count, c_int64_t), root, bound, comm, info)
  end subroutine scatter_c128_i

  ! ---- eccl_gather ----

  subroutine gather_f32(sendbuf, recvbuf, count, root, bound, comm, info)
    real(c_float), intent(in), target :: sendbuf(*)
    real(c_float), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    psendbuf = c_null_ptr
    if (count > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (count > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_gather(psendbuf, precvbuf, int(count, c_size_t), ECCL_FLOAT32, root, bound, &
      comm%ptr)
  end subroutine gather_f32

  subroutine gather_f32_i(sendbuf, recvbuf, count, root, bound, comm, info)
    real(c_float), intent(in) :: sendbuf(*)
    real(c_float), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call gather_f32(sendbuf, recvbuf, int(count, c_int64_t), root, bound, comm, info)
  end subroutine gather_f32_i

  subroutine gather_f64(sendbuf, recvbuf, count, root, bound, comm, info)
    real(c_double), intent(in), target :: sendbuf(*)
    real(c_double), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    psendbuf = c_null_ptr
    if (count > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (count > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_gather(psendbuf, precvbuf, int(count, c_size_t), ECCL_FLOAT64, root, bound, &
      comm%ptr)
  end subroutine gather_f64

  subroutine gather_f64_i(sendbuf, recvbuf, count, root, bound, comm, info)
    real(c_double), intent(in) :: sendbuf(*)
    real(c_double), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call gather_f64(sendbuf, recvbuf, int(count, c_int64_t), root, bound, comm, info)
  end subroutine gather_f64_i

  subroutine gather_c64(sendbuf, recvbuf, count, root, bound, comm, info)
    complex(c_float_complex), intent(in), target :: sendbuf(*)
    complex(c_float_complex), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    psendbuf = c_null_ptr
    if (count > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (count > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_gather(psendbuf, precvbuf, int(count, c_size_t), ECCL_COMPLEX64, root, bound, &
      comm%ptr)
  end subroutine gather_c64

  subroutine gather_c64_i(sendbuf, recvbuf, count, root, bound, comm, info)
    complex(c_float_complex), intent(in) :: sendbuf(*)
    complex(c_float_complex), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call gather_c64(sendbuf, recvbuf, int(count, c_int64_t), root, bound, comm, info)
  end subroutine gather_c64_i

  subroutine gather_c128(sendbuf, recvbuf, count, root, bound, comm, info)
    complex(c_double_complex), intent(in), target :: sendbuf(*)
    complex(c_double_complex), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    psendbuf = c_null_ptr
    if (count > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (count > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_gather(psendbuf, precvbuf, int(count, c_size_t), ECCL_COMPLEX128, root, bound, &
      comm%ptr)
  end subroutine gather_c128

  subroutine gather_c128_i(sendbuf, recvbuf, count, root, bound, comm, info)
    complex(c_double_complex), intent(in) :: sendbuf(*)
    complex(c_double_complex), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call gather_c128(sendbuf, recvbuf, int(count, c_int64_t), root, bound, comm, info)
  end subroutine gather_c128_i

  ! ---- eccl_sendrecv_replace ----

  subroutine sendrecv_replace_f32(buf, count, dest, sendtag, source, recvtag, bound, comm, info)
    real(c_float), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: dest
    integer(c_int), intent(in) :: sendtag
    integer(c_int), intent(in) :: source
    integer(c_int), intent(in) :: recvtag
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    info = c_eccl_sendrecv_replace(pbuf, int(count, c_size_t), ECCL_FLOAT32, dest, sendtag, &
      source, recvtag, bound, comm%ptr)
  end subroutine sendrecv_replace_f32

  subroutine sendrecv_replace_f32_i(buf, count, dest, sendtag, source, recvtag, bound, comm, info)
    real(c_float), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: dest
    integer(c_int), intent(in) :: sendtag
    integer(c_int), intent(in) :: source
    integer(c_int), intent(in) :: recvtag
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call sendrecv_replace_f32(buf, int(count, c_int64_t), dest, sendtag, source, recvtag, bound, &
      comm, info)
  end subroutine sendrecv_replace_f32_i

  subroutine sendrecv_replace_f64(buf, count, dest, sendtag, source, recvtag, bound, comm, info)
    real(c_double), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: dest
    integer(c_int), intent(in) :: sendtag
    integer(c_int), intent(in) :: source
    integer(c_int), intent(in) :: recvtag
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    info = c_eccl_sendrecv_replace(pbuf, int(count, c_size_t), ECCL_FLOAT64, dest, sendtag, &
      source, recvtag, bound, comm%ptr)
  end subroutine sendrecv_replace_f64

  subroutine sendrecv_replace_f64_i(buf, count, dest, sendtag, source, recvtag, bound, comm, info)
    real(c_double), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: dest
    integer(c_int), intent(in) :: sendtag
    integer(c_int), intent(in) :: source
    integer(c_int), intent(in) :: recvtag
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call sendrecv_replace_f64(buf, int(count, c_int64_t), dest, sendtag, source, recvtag, bound, &
      comm, info)
  end subroutine sendrecv_replace_f64_i

  subroutine sendrecv_replace_c64(buf, count, dest, sendtag, source, recvtag, bound, comm, info)
    complex(c_float_complex), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: dest
    integer(c_int), intent(in) :: sendtag
    integer(c_int), intent(in) :: source
    integer(c_int), intent(in) :: recvtag
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    info = c_eccl_sendrecv_replace(pbuf, int(count, c_size_t), ECCL_COMPLEX64, dest, sendtag, &
      source, recvtag, bound, comm%ptr)
  end subroutine sendrecv_replace_c64

  subroutine sendrecv_replace_c64_i(buf, count, dest, sendtag, source, recvtag, bound, comm, info)
    complex(c_float_complex), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: dest
    integer(c_int), intent(in) :: sendtag
    integer(c_int), intent(in) :: source
    integer(c_int), intent(in) :: recvtag
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call sendrecv_replace_c64(buf, int(count, c_int64_t), dest, sendtag, source, recvtag, bound, &
      comm, info)
  end subroutine sendrecv_replace_c64_i

  subroutine sendrecv_replace_c128(buf, count, dest, sendtag, source, recvtag, bound, comm, info)
    complex(c_double_complex), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: dest
    integer(c_int), intent(in) :: sendtag
    integer(c_int), intent(in) :: source
    integer(c_int), intent(in) :: recvtag
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    info = c_eccl_sendrecv_replace(pbuf, int(count, c_size_t), ECCL_COMPLEX128, dest, sendtag, &
      source, recvtag, bound, comm%ptr)
  end subroutine sendrecv_replace_c128

  subroutine sendrecv_replace_c128_i(buf, count, dest, sendtag, source, recvtag, bound, comm, info)
    complex(c_double_complex), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: dest
    integer(c_int), intent(in) :: sendtag
    integer(c_int), intent(in) :: source
    integer(c_int), intent(in) :: recvtag
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call sendrecv_replace_c128(buf, int(count, c_int64_t), dest, sendtag, source, recvtag, bound, &
      comm, info)
  end subroutine sendrecv_replace_c128_i

end module eccl_movement
