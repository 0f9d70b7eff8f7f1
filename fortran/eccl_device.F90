! eccl_device.F90 - module eccl_device: the GPU side of eccl from Fortran.  The queries and the
! device memory helpers of eccl_cuda.h exist in every build: without the CUDA backend they give
! ECCL_ERR_UNSUPPORTED, with it but no usable GPU ECCL_ERR_NO_DEVICE.  The collectives also take
! buffers as type(c_ptr) (device memory from eccl_cuda_malloc, CUDA Fortran's c_devloc, or
! OpenACC/OpenMP use_device_addr; host memory from c_loc works too), with the data type given
! explicitly: these specifics extend the generic names of eccl_movement and eccl_reductions.
module eccl_device
  use, intrinsic :: iso_c_binding
  use eccl_types
  use eccl_comm_api
  implicit none
  private

  public :: eccl_cuda_device_count, eccl_cuda_device_check, eccl_cuda_set_device
  public :: eccl_cuda_malloc, eccl_cuda_free, eccl_cuda_memcpy, eccl_cuda_comm_set_stream
  public :: eccl_cuda_comm_mpi_aware
  public :: eccl_bcast, eccl_allreduce, eccl_reduce, eccl_reduce_scatter_block, eccl_allgather
  public :: eccl_scatter, eccl_gather, eccl_sendrecv_replace
  public :: eccl_cuda_bcast_async, eccl_cuda_allreduce_async, eccl_cuda_reduce_async
  public :: eccl_cuda_reduce_scatter_block_async, eccl_cuda_allgather_async, eccl_cuda_scatter_async
  public :: eccl_cuda_gather_async, eccl_cuda_sendrecv_replace_async, eccl_cuda_comm_async_error

  ! The collectives on type(c_ptr) buffers, one specific per count kind, written once in
  ! eccl_device_template.F90.
#define ECCL_TEMPLATE "eccl_device_template.F90"
#define ECCL_SPEC
#include "eccl_kinds.h"
#undef ECCL_SPEC

  interface
    function c_device_count(count) bind(C, name="eccl_cuda_device_count") result(rc)
      import :: c_int
      integer(c_int), intent(out) :: count
      integer(c_int) :: rc
    end function c_device_count

    function c_device_check(device, name, name_len) bind(C, name="eccl_cuda_device_check") &
        result(rc)
      import :: c_int, c_char, c_size_t
      integer(c_int), value :: device
      character(kind=c_char), intent(out) :: name(*)
      integer(c_size_t), value :: name_len
      integer(c_int) :: rc
    end function c_device_check

    function c_cuda_set_device(device) bind(C, name="eccl_cuda_set_device") result(rc)
      import :: c_int
      integer(c_int), value :: device
      integer(c_int) :: rc
    end function c_cuda_set_device

    function c_cuda_malloc(ptr, bytes) bind(C, name="eccl_cuda_malloc") result(rc)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), intent(out) :: ptr
      integer(c_size_t), value :: bytes
      integer(c_int) :: rc
    end function c_cuda_malloc

    function c_cuda_free(ptr) bind(C, name="eccl_cuda_free") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), value :: ptr
      integer(c_int) :: rc
    end function c_cuda_free

    function c_cuda_comm_set_stream(comm, stream) bind(C, name="eccl_cuda_comm_set_stream") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), value :: comm, stream
      integer(c_int) :: rc
    end function c_cuda_comm_set_stream

    function c_cuda_comm_mpi_aware(comm, aware) bind(C, name="eccl_cuda_comm_mpi_aware") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), value :: comm
      integer(c_int) :: aware
      integer(c_int) :: rc
    end function c_cuda_comm_mpi_aware

    function c_cuda_memcpy(dst, src, bytes) bind(C, name="eccl_cuda_memcpy") result(rc)
      import :: c_int, c_ptr, c_size_t
      type(c_ptr), value :: dst, src
      integer(c_size_t), value :: bytes
      integer(c_int) :: rc
    end function c_cuda_memcpy

    function c_bcast_async(buf, count, dtype, root, bound, comm, stream) &
        bind(C, name="eccl_cuda_bcast_async") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: buf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, root
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm, stream
      integer(c_int) :: rc
    end function c_bcast_async

    function c_allreduce_async(sendbuf, recvbuf, count, dtype, op, bound, comm, stream) &
        bind(C, name="eccl_cuda_allreduce_async") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: sendbuf, recvbuf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, op
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm, stream
      integer(c_int) :: rc
    end function c_allreduce_async

    function c_reduce_async(sendbuf, recvbuf, count, dtype, op, root, bound, comm, stream) &
        bind(C, name="eccl_cuda_reduce_async") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: sendbuf, recvbuf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, op, root
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm, stream
      integer(c_int) :: rc
    end function c_reduce_async

    function c_reduce_scatter_block_async(sendbuf, recvbuf, recvcount, dtype, op, bound, comm, &
      stream) &
        bind(C, name="eccl_cuda_reduce_scatter_block_async") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: sendbuf, recvbuf
      integer(c_size_t), value :: recvcount
      integer(c_int), value :: dtype, op
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm, stream
      integer(c_int) :: rc
    end function c_reduce_scatter_block_async

    function c_allgather_async(sendbuf, recvbuf, count, dtype, bound, comm, stream) &
        bind(C, name="eccl_cuda_allgather_async") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: sendbuf, recvbuf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm, stream
      integer(c_int) :: rc
    end function c_allgather_async

    function c_scatter_async(sendbuf, recvbuf, count, dtype, root, bound, comm, stream) &
        bind(C, name="eccl_cuda_scatter_async") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: sendbuf, recvbuf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, root
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm, stream
      integer(c_int) :: rc
    end function c_scatter_async

    function c_gather_async(sendbuf, recvbuf, count, dtype, root, bound, comm, stream) &
        bind(C, name="eccl_cuda_gather_async") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: sendbuf, recvbuf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, root
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm, stream
      integer(c_int) :: rc
    end function c_gather_async

    function c_sendrecv_replace_async(buf, count, dtype, dest, sendtag, source, recvtag, &
      bound, comm, stream) &
        bind(C, name="eccl_cuda_sendrecv_replace_async") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: buf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, dest, sendtag, source, recvtag
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm, stream
      integer(c_int) :: rc
    end function c_sendrecv_replace_async

    function c_cuda_comm_async_error(comm, result) bind(C, name="eccl_cuda_comm_async_error") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), value :: comm
      integer(c_int) :: result
      integer(c_int) :: rc
    end function c_cuda_comm_async_error
  end interface

contains

  ! Whether p is eccl_in_place() (MPI_IN_PLACE).  The collectives below reject it, as a local
  ! argument error, where MPI does not accept MPI_IN_PLACE (a receive buffer, the buffer of bcast
  ! and sendrecv_replace, scatter's send buffer): C would take it for the address of data.
  logical function is_in_place(p)
    type(c_ptr), intent(in) :: p
    is_in_place = c_associated(p, eccl_in_place())
  end function is_in_place

  ! call eccl_cuda_device_count(count, info): CUDA devices this process can use (0 when none).
  subroutine eccl_cuda_device_count(count, info)
    integer(c_int), intent(out) :: count, info
    count = 0
    info = c_device_count(count)
  end subroutine eccl_cuda_device_count

  ! call eccl_cuda_device_check(device, name, info): ECCL_SUCCESS when device can run eccl's
  ! kernels; name receives as much of the device name as it holds (blank-padded).
  subroutine eccl_cuda_device_check(device, name, info)
    integer(c_int), intent(in) :: device
    character(len=*), intent(out) :: name
    integer(c_int), intent(out) :: info
    character(kind=c_char) :: buf(len(name) + 1)
    buf = c_null_char
    info = c_device_check(device, buf, int(size(buf), c_size_t))
    name = eccl_to_string(buf)
  end subroutine eccl_cuda_device_check

  ! call eccl_cuda_set_device(device, info): make `device` (0-based) the current CUDA device, e.g.
  ! mod(local_rank, count) for one GPU per rank.
  subroutine eccl_cuda_set_device(device, info)
    integer(c_int), intent(in) :: device
    integer(c_int), intent(out) :: info
    info = c_cuda_set_device(device)
  end subroutine eccl_cuda_set_device

  ! call eccl_cuda_malloc(ptr, bytes, info): bytes of device memory on the current device
  ! (c_null_ptr for 0 bytes or on error); free it with eccl_cuda_free.
  subroutine eccl_cuda_malloc(ptr, bytes, info)
    type(c_ptr), intent(out) :: ptr
    integer(c_int64_t), intent(in) :: bytes
    integer(c_int), intent(out) :: info
    ptr = c_null_ptr
    info = ECCL_ERR_INVALID_ARG
    if (bytes < 0) return
    info = c_cuda_malloc(ptr, int(bytes, c_size_t))
  end subroutine eccl_cuda_malloc

  ! call eccl_cuda_free(ptr, info): ptr from eccl_cuda_malloc (c_null_ptr accepted); ptr becomes
  ! c_null_ptr.
  subroutine eccl_cuda_free(ptr, info)
    type(c_ptr), intent(inout) :: ptr
    integer(c_int), intent(out) :: info
    info = c_cuda_free(ptr)
    if (info == ECCL_SUCCESS) ptr = c_null_ptr
  end subroutine eccl_cuda_free

  ! call eccl_cuda_memcpy(dst, src, bytes, info): copy bytes between host and/or device memory
  ! (c_loc of a host array, or a device pointer); returns when the copy is done.
  subroutine eccl_cuda_memcpy(dst, src, bytes, info)
    type(c_ptr), intent(in) :: dst, src
    integer(c_int64_t), intent(in) :: bytes
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (bytes < 0) return
    info = c_cuda_memcpy(dst, src, int(bytes, c_size_t))
  end subroutine eccl_cuda_memcpy

  ! call eccl_cuda_comm_set_stream(comm, stream, info): order comm's collectives after the work
  ! enqueued on a CUDA stream (type(c_ptr): the cudaStream_t, e.g. c_ptr of a CUDA Fortran
  ! stream handle or acc_get_cuda_stream; c_null_ptr: none).  See eccl_cuda.h.
  subroutine eccl_cuda_comm_set_stream(comm, stream, info)
    type(eccl_comm), intent(in) :: comm
    type(c_ptr), intent(in) :: stream
    integer(c_int), intent(out) :: info
    info = c_cuda_comm_set_stream(comm%ptr, stream)
  end subroutine eccl_cuda_comm_set_stream

  ! call eccl_cuda_comm_mpi_aware(comm, aware, info): aware = 1 when comm's plain MPI collectives
  ! hand device buffers to MPI as they are (a CUDA-aware MPI: ECCL_CUDA_AWARE, doc/env.md), 0 when
  ! they stage them through host memory.  info: ECCL_ERR_UNSUPPORTED without the CUDA backend.
  subroutine eccl_cuda_comm_mpi_aware(comm, aware, info)
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: aware, info
    aware = 0
    info = c_cuda_comm_mpi_aware(comm%ptr, aware)
  end subroutine eccl_cuda_comm_mpi_aware

  ! call eccl_cuda_comm_async_error(comm, result, info): result = the first error of comm's
  ! stream-enqueued calls not yet reported (ECCL_SUCCESS: none), then forgotten; does not wait
  ! (synchronise the stream first).  info: ECCL_ERR_INVALID_ARG for a null communicator.
  subroutine eccl_cuda_comm_async_error(comm, result, info)
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: result, info
    result = ECCL_SUCCESS
    info = c_cuda_comm_async_error(comm%ptr, result)
  end subroutine eccl_cuda_comm_async_error

  ! ---- the collectives on type(c_ptr) buffers (eccl_device_template.F90) ----
#include "eccl_kinds.h"

end module eccl_device
