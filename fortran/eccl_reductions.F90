! eccl_reductions.F90 - module eccl_reductions: the reductions from Fortran (eccl.h:
! eccl_allreduce, eccl_reduce, eccl_reduce_scatter_block).
!
! One specific per data type and count kind, as in eccl_movement.F90.  op is ECCL_OP_SUM, _AVG,
! _MAX, _MIN (real only) or _PROD (uncompressed fallback).  eccl_allreduce and eccl_reduce also
! have an in-place form with one buffer (MPI_IN_PLACE in C).
module eccl_reductions
  use, intrinsic :: iso_c_binding
  use eccl_types
  use eccl_comm_api
  implicit none
  private

  public :: eccl_allreduce, eccl_reduce, eccl_reduce_scatter_block

  ! call eccl_allreduce(sendbuf, recvbuf, count, op, bound, comm, info)
  ! call eccl_allreduce(buf, count, op, bound, comm, info): in place (MPI_IN_PLACE)
  interface eccl_allreduce
    module procedure allreduce_f32, allreduce_f32_i, allreduce_f64, allreduce_f64_i, &
      allreduce_c64, allreduce_c64_i, allreduce_c128, allreduce_c128_i
    module procedure allreduce_ip_f32, allreduce_ip_f32_i, allreduce_ip_f64, allreduce_ip_f64_i, &
      allreduce_ip_c64, allreduce_ip_c64_i, allreduce_ip_c128, allreduce_ip_c128_i
  end interface eccl_allreduce

  ! call eccl_reduce(sendbuf, recvbuf, count, op, root, bound, comm, info): recvbuf written at the
  !  root only
  ! call eccl_reduce(buf, count, op, root, bound, comm, info): in place at the root; elsewhere buf
  !  is only read
  interface eccl_reduce
    module procedure reduce_f32, reduce_f32_i, reduce_f64, reduce_f64_i, reduce_c64, reduce_c64_i, &
      reduce_c128, reduce_c128_i
    module procedure reduce_ip_f32, reduce_ip_f32_i, reduce_ip_f64, reduce_ip_f64_i, &
      reduce_ip_c64, reduce_ip_c64_i, reduce_ip_c128, reduce_ip_c128_i
  end interface eccl_reduce

  ! call eccl_reduce_scatter_block(sendbuf, recvbuf, recvcount, op, bound, comm, info): sendbuf
  !  holds size*recvcount
  interface eccl_reduce_scatter_block
    module procedure reduce_scatter_block_f32, reduce_scatter_block_f32_i, &
      reduce_scatter_block_f64, reduce_scatter_block_f64_i, reduce_scatter_block_c64, &
      reduce_scatter_block_c64_i, reduce_scatter_block_c128, reduce_scatter_block_c128_i
  end interface eccl_reduce_scatter_block

contains

  ! ---- eccl_allreduce ----

  subroutine allreduce_f32(sendbuf, recvbuf, count, op, bound, comm, info)
    real(c_float), intent(in), target :: sendbuf(*)
    real(c_float), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
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
    info = c_eccl_allreduce(psendbuf, precvbuf, int(count, c_size_t), ECCL_FLOAT32, op, bound, &
      comm%ptr)
  end subroutine allreduce_f32

  subroutine allreduce_f32_i(sendbuf, recvbuf, count, op, bound, comm, info)
    real(c_float), intent(in) :: sendbuf(*)
    real(c_float), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call allreduce_f32(sendbuf, recvbuf, int(count, c_int64_t), op, bound, comm, info)
  end subroutine allreduce_f32_i

  subroutine allreduce_f64(sendbuf, recvbuf, count, op, bound, comm, info)
    real(c_double), intent(in), target :: sendbuf(*)
    real(c_double), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
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
    info = c_eccl_allreduce(psendbuf, precvbuf, int(count, c_size_t), ECCL_FLOAT64, op, bound, &
      comm%ptr)
  end subroutine allreduce_f64

  subroutine allreduce_f64_i(sendbuf, recvbuf, count, op, bound, comm, info)
    real(c_double), intent(in) :: sendbuf(*)
    real(c_double), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call allreduce_f64(sendbuf, recvbuf, int(count, c_int64_t), op, bound, comm, info)
  end subroutine allreduce_f64_i

  subroutine allreduce_c64(sendbuf, recvbuf, count, op, bound, comm, info)
    complex(c_float_complex), intent(in), target :: sendbuf(*)
    complex(c_float_complex), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
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
    info = c_eccl_allreduce(psendbuf, precvbuf, int(count, c_size_t), ECCL_COMPLEX64, op, bound, &
      comm%ptr)
  end subroutine allreduce_c64

  subroutine allreduce_c64_i(sendbuf, recvbuf, count, op, bound, comm, info)
    complex(c_float_complex), intent(in) :: sendbuf(*)
    complex(c_float_complex), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call allreduce_c64(sendbuf, recvbuf, int(count, c_int64_t), op, bound, comm, info)
  end subroutine allreduce_c64_i

  subroutine allreduce_c128(sendbuf, recvbuf, count, op, bound, comm, info)
    complex(c_double_complex), intent(in), target :: sendbuf(*)
    complex(c_double_complex), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
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
    info = c_eccl_allreduce(psendbuf, precvbuf, int(count, c_size_t), ECCL_COMPLEX128, op, bound, &
      comm%ptr)
  end subroutine allreduce_c128

  subroutine allreduce_c128_i(sendbuf, recvbuf, count, op, bound, comm, info)
    complex(c_double_complex), intent(in) :: sendbuf(*)
    complex(c_double_complex), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call allreduce_c128(sendbuf, recvbuf, int(count, c_int64_t), op, bound, comm, info)
  end subroutine allreduce_c128_i

  ! ---- eccl_allreduce (in place) ----

  subroutine allreduce_ip_f32(buf, count, op, bound, comm, info)
    real(c_float), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    info = c_eccl_allreduce(eccl_in_place(), pbuf, int(count, c_size_t), ECCL_FLOAT32, op, bound, &
      comm%ptr)
  end subroutine allreduce_ip_f32

  subroutine allreduce_ip_f32_i(buf, count, op, bound, comm, info)
    real(c_float), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call allreduce_ip_f32(buf, int(count, c_int64_t), op, bound, comm, info)
  end subroutine allreduce_ip_f32_i

  subroutine allreduce_ip_f64(buf, count, op, bound, comm, info)
    real(c_double), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    info = c_eccl_allreduce(eccl_in_place(), pbuf, int(count, c_size_t), ECCL_FLOAT64, op, bound, &
      comm%ptr)
  end subroutine allreduce_ip_f64

  subroutine allreduce_ip_f64_i(buf, count, op, bound, comm, info)
    real(c_double), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call allreduce_ip_f64(buf, int(count, c_int64_t), op, bound, comm, info)
  end subroutine allreduce_ip_f64_i

  subroutine allreduce_ip_c64(buf, count, op, bound, comm, info)
    complex(c_float_complex), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    info = c_eccl_allreduce(eccl_in_place(), pbuf, int(count, c_size_t), ECCL_COMPLEX64, op, &
      bound, comm%ptr)
  end subroutine allreduce_ip_c64

  subroutine allreduce_ip_c64_i(buf, count, op, bound, comm, info)
    complex(c_float_complex), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call allreduce_ip_c64(buf, int(count, c_int64_t), op, bound, comm, info)
  end subroutine allreduce_ip_c64_i

  subroutine allreduce_ip_c128(buf, count, op, bound, comm, info)
    complex(c_double_complex), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    info = c_eccl_allreduce(eccl_in_place(), pbuf, int(count, c_size_t), ECCL_COMPLEX128, op, &
      bound, comm%ptr)
  end subroutine allreduce_ip_c128

  subroutine allreduce_ip_c128_i(buf, count, op, bound, comm, info)
    complex(c_double_complex), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call allreduce_ip_c128(buf, int(count, c_int64_t), op, bound, comm, info)
  end subroutine allreduce_ip_c128_i

  ! ---- eccl_reduce ----

  subroutine reduce_f32(sendbuf, recvbuf, count, op, root, bound, comm, info)
    real(c_float), intent(in), target :: sendbuf(*)
    real(c_float), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
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
    info = c_eccl_reduce(psendbuf, precvbuf, int(count, c_size_t), ECCL_FLOAT32, op, root, bound, &
      comm%ptr)
  end subroutine reduce_f32

  subroutine reduce_f32_i(sendbuf, recvbuf, count, op, root, bound, comm, info)
    real(c_float), intent(in) :: sendbuf(*)
    real(c_float), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call reduce_f32(sendbuf, recvbuf, int(count, c_int64_t), op, root, bound, comm, info)
  end subroutine reduce_f32_i

  subroutine reduce_f64(sendbuf, recvbuf, count, op, root, bound, comm, info)
    real(c_double), intent(in), target :: sendbuf(*)
    real(c_double), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
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
    info = c_eccl_reduce(psendbuf, precvbuf, int(count, c_size_t), ECCL_FLOAT64, op, root, bound, &
      comm%ptr)
  end subroutine reduce_f64

  subroutine reduce_f64_i(sendbuf, recvbuf, count, op, root, bound, comm, info)
    real(c_double), intent(in) :: sendbuf(*)
    real(c_double), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call reduce_f64(sendbuf, recvbuf, int(count, c_int64_t), op, root, bound, comm, info)
  end subroutine reduce_f64_i

  subroutine reduce_c64(sendbuf, recvbuf, count, op, root, bound, comm, info)
    complex(c_float_complex), intent(in), target :: sendbuf(*)
    complex(c_float_complex), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
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
    info = c_eccl_reduce(psendbuf, precvbuf, int(count, c_size_t), ECCL_COMPLEX64, op, root, &
      bound, comm%ptr)
  end subroutine reduce_c64

  subroutine reduce_c64_i(sendbuf, recvbuf, count, op, root, bound, comm, info)
    complex(c_float_complex), intent(in) :: sendbuf(*)
    complex(c_float_complex), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call reduce_c64(sendbuf, recvbuf, int(count, c_int64_t), op, root, bound, comm, info)
  end subroutine reduce_c64_i

  subroutine reduce_c128(sendbuf, recvbuf, count, op, root, bound, comm, info)
    complex(c_double_complex), intent(in), target :: sendbuf(*)
    complex(c_double_complex), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
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
    info = c_eccl_reduce(psendbuf, precvbuf, int(count, c_size_t), ECCL_COMPLEX128, op, root, &
      bound, comm%ptr)
  end subroutine reduce_c128

  subroutine reduce_c128_i(sendbuf, recvbuf, count, op, root, bound, comm, info)
    complex(c_double_complex), intent(in) :: sendbuf(*)
    complex(c_double_complex), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call reduce_c128(sendbuf, recvbuf, int(count, c_int64_t), op, root, bound, comm, info)
  end subroutine reduce_c128_i

  ! ---- eccl_reduce (in place) ----

  subroutine reduce_ip_f32(buf, count, op, root, bound, comm, info)
    real(c_float), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    if (eccl_comm_rank(comm) == root) then
      info = c_eccl_reduce(eccl_in_place(), pbuf, int(count, c_size_t), ECCL_FLOAT32, op, root, &
        bound, comm%ptr)
    else
      info = c_eccl_reduce(pbuf, pbuf, int(count, c_size_t), ECCL_FLOAT32, op, root, bound, &
        comm%ptr)
    end if
  end subroutine reduce_ip_f32

  subroutine reduce_ip_f32_i(buf, count, op, root, bound, comm, info)
    real(c_float), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call reduce_ip_f32(buf, int(count, c_int64_t), op, root, bound, comm, info)
  end subroutine reduce_ip_f32_i

  subroutine reduce_ip_f64(buf, count, op, root, bound, comm, info)
    real(c_double), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    if (eccl_comm_rank(comm) == root) then
      info = c_eccl_reduce(eccl_in_place(), pbuf, int(count, c_size_t), ECCL_FLOAT64, op, root, &
        bound, comm%ptr)
    else
      info = c_eccl_reduce(pbuf, pbuf, int(count, c_size_t), ECCL_FLOAT64, op, root, bound, &
        comm%ptr)
    end if
  end subroutine reduce_ip_f64

  subroutine reduce_ip_f64_i(buf, count, op, root, bound, comm, info)
    real(c_double), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call reduce_ip_f64(buf, int(count, c_int64_t), op, root, bound, comm, info)
  end subroutine reduce_ip_f64_i

  subroutine reduce_ip_c64(buf, count, op, root, bound, comm, info)
    complex(c_float_complex), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    if (eccl_comm_rank(comm) == root) then
      info = c_eccl_reduce(eccl_in_place(), pbuf, int(count, c_size_t), ECCL_COMPLEX64, op, root, &
        bound, comm%ptr)
    else
      info = c_eccl_reduce(pbuf, pbuf, int(count, c_size_t), ECCL_COMPLEX64, op, root, bound, &
        comm%ptr)
    end if
  end subroutine reduce_ip_c64

  subroutine reduce_ip_c64_i(buf, count, op, root, bound, comm, info)
    complex(c_float_complex), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call reduce_ip_c64(buf, int(count, c_int64_t), op, root, bound, comm, info)
  end subroutine reduce_ip_c64_i

  subroutine reduce_ip_c128(buf, count, op, root, bound, comm, info)
    complex(c_double_complex), intent(inout), target :: buf(*)
    integer(c_int64_t), intent(in) :: count
    integer(c_int), intent(in) :: op
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = c_null_ptr
    if (count > 0) pbuf = c_loc(buf(1))
    if (eccl_comm_rank(comm) == root) then
      info = c_eccl_reduce(eccl_in_place(), pbuf, int(count, c_size_t), ECCL_COMPLEX128, op, root, &
        bound, comm%ptr)
    else
      info = c_eccl_reduce(pbuf, pbuf, int(count, c_size_t), ECCL_COMPLEX128, op, root, bound, &
        comm%ptr)
    end if
  end subroutine reduce_ip_c128

  subroutine reduce_ip_c128_i(buf, count, op, root, bound, comm, info)
    complex(c_double_complex), intent(inout) :: buf(*)
    integer(c_int), intent(in) :: count
    integer(c_int), intent(in) :: op
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call reduce_ip_c128(buf, int(count, c_int64_t), op, root, bound, comm, info)
  end subroutine reduce_ip_c128_i

  ! ---- eccl_reduce_scatter_block ----

  subroutine reduce_scatter_block_f32(sendbuf, recvbuf, recvcount, op, bound, comm, info)
    real(c_float), intent(in), target :: sendbuf(*)
    real(c_float), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: recvcount
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (recvcount < 0) return
    psendbuf = c_null_ptr
    if (recvcount > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (recvcount > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_reduce_scatter_block(psendbuf, precvbuf, int(recvcount, c_size_t), ECCL_FLOAT32, &
      op, bound, comm%ptr)
  end subroutine reduce_scatter_block_f32

  subroutine reduce_scatter_block_f32_i(sendbuf, recvbuf, recvcount, op, bound, comm, info)
    real(c_float), intent(in) :: sendbuf(*)
    real(c_float), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: recvcount
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call reduce_scatter_block_f32(sendbuf, recvbuf, int(recvcount, c_int64_t), op, bound, comm, &
      info)
  end subroutine reduce_scatter_block_f32_i

  subroutine reduce_scatter_block_f64(sendbuf, recvbuf, recvcount, op, bound, comm, info)
    real(c_double), intent(in), target :: sendbuf(*)
    real(c_double), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: recvcount
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (recvcount < 0) return
    psendbuf = c_null_ptr
    if (recvcount > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (recvcount > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_reduce_scatter_block(psendbuf, precvbuf, int(recvcount, c_size_t), ECCL_FLOAT64, &
      op, bound, comm%ptr)
  end subroutine reduce_scatter_block_f64

  subroutine reduce_scatter_block_f64_i(sendbuf, recvbuf, recvcount, op, bound, comm, info)
    real(c_double), intent(in) :: sendbuf(*)
    real(c_double), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: recvcount
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call reduce_scatter_block_f64(sendbuf, recvbuf, int(recvcount, c_int64_t), op, bound, comm, &
      info)
  end subroutine reduce_scatter_block_f64_i

  subroutine reduce_scatter_block_c64(sendbuf, recvbuf, recvcount, op, bound, comm, info)
    complex(c_float_complex), intent(in), target :: sendbuf(*)
    complex(c_float_complex), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: recvcount
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (recvcount < 0) return
    psendbuf = c_null_ptr
    if (recvcount > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (recvcount > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_reduce_scatter_block(psendbuf, precvbuf, int(recvcount, c_size_t), &
      ECCL_COMPLEX64, op, bound, comm%ptr)
  end subroutine reduce_scatter_block_c64

  subroutine reduce_scatter_block_c64_i(sendbuf, recvbuf, recvcount, op, bound, comm, info)
    complex(c_float_complex), intent(in) :: sendbuf(*)
    complex(c_float_complex), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: recvcount
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call reduce_scatter_block_c64(sendbuf, recvbuf, int(recvcount, c_int64_t), op, bound, comm, &
      info)
  end subroutine reduce_scatter_block_c64_i

  subroutine reduce_scatter_block_c128(sendbuf, recvbuf, recvcount, op, bound, comm, info)
    complex(c_double_complex), intent(in), target :: sendbuf(*)
    complex(c_double_complex), intent(inout), target :: recvbuf(*)
    integer(c_int64_t), intent(in) :: recvcount
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: psendbuf, precvbuf
    info = ECCL_ERR_INVALID_ARG
    if (recvcount < 0) return
    psendbuf = c_null_ptr
    if (recvcount > 0) psendbuf = c_loc(sendbuf(1))
    precvbuf = c_null_ptr
    if (recvcount > 0) precvbuf = c_loc(recvbuf(1))
    info = c_eccl_reduce_scatter_block(psendbuf, precvbuf, int(recvcount, c_size_t), &
      ECCL_COMPLEX128, op, bound, comm%ptr)
  end subroutine reduce_scatter_block_c128

  subroutine reduce_scatter_block_c128_i(sendbuf, recvbuf, recvcount, op, bound, comm, info)
    complex(c_double_complex), intent(in) :: sendbuf(*)
    complex(c_double_complex), intent(inout) :: recvbuf(*)
    integer(c_int), intent(in) :: recvcount
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    call reduce_scatter_block_c128(sendbuf, recvbuf, int(recvcount, c_int64_t), op, bound, comm, &
      info)
  end subroutine reduce_scatter_block_c128_i

end module eccl_reductions
