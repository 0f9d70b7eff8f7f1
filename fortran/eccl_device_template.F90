! eccl_device_template.F90 - the collectives on type(c_ptr) buffers of module eccl_device, written
! once: eccl_device.F90 #includes this file through eccl_kinds.h (one specific per count kind),
! with ECCL_SPEC for the generic interfaces, then without it for the procedures.
#ifdef ECCL_SPEC
  ! call eccl_bcast(buf, count, dtype, root, bound, comm, info): buf a type(c_ptr) to count
  !  elements of dtype (ECCL_FLOAT32, ...); the other collectives likewise, in MPI order, with
  !  dtype after the count.  count is integer(c_int) or integer(c_int64_t).  In place: pass
  !  eccl_in_place() as sendbuf where MPI allows MPI_IN_PLACE (scatter: as recvbuf at the root);
  !  anywhere else it gives ECCL_ERR_INVALID_ARG before any communication.
  interface eccl_bcast
    module procedure ECCL_KS(bcast_ptr)
  end interface eccl_bcast
  interface eccl_allreduce
    module procedure ECCL_KS(allreduce_ptr)
  end interface eccl_allreduce
  interface eccl_reduce
    module procedure ECCL_KS(reduce_ptr)
  end interface eccl_reduce
  interface eccl_reduce_scatter_block
    module procedure ECCL_KS(reduce_scatter_block_ptr)
  end interface eccl_reduce_scatter_block
  interface eccl_allgather
    module procedure ECCL_KS(allgather_ptr)
  end interface eccl_allgather
  interface eccl_scatter
    module procedure ECCL_KS(scatter_ptr)
  end interface eccl_scatter
  interface eccl_gather
    module procedure ECCL_KS(gather_ptr)
  end interface eccl_gather
  interface eccl_sendrecv_replace
    module procedure ECCL_KS(sendrecv_replace_ptr)
  end interface eccl_sendrecv_replace
#else

  subroutine ECCL_KS(bcast_ptr)(buf, count, dtype, root, bound, comm, info)
    type(c_ptr), intent(in) :: buf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype, root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(buf)) return
    info = c_eccl_bcast(buf, int(count, c_size_t), dtype, root, bound, comm%ptr)
  end subroutine ECCL_KS(bcast_ptr)

  subroutine ECCL_KS(allreduce_ptr)(sendbuf, recvbuf, count, dtype, op, bound, comm, info)
    type(c_ptr), intent(in) :: sendbuf, recvbuf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype, op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(recvbuf)) return
    info = c_eccl_allreduce(sendbuf, recvbuf, int(count, c_size_t), dtype, op, bound, comm%ptr)
  end subroutine ECCL_KS(allreduce_ptr)

  subroutine ECCL_KS(reduce_ptr)(sendbuf, recvbuf, count, dtype, op, root, bound, comm, info)
    type(c_ptr), intent(in) :: sendbuf, recvbuf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype, op, root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(recvbuf)) return
    info = c_eccl_reduce(sendbuf, recvbuf, int(count, c_size_t), dtype, op, root, bound, comm%ptr)
  end subroutine ECCL_KS(reduce_ptr)

  subroutine ECCL_KS(reduce_scatter_block_ptr)(sendbuf, recvbuf, recvcount, dtype, op, bound, &
      comm, info)
    type(c_ptr), intent(in) :: sendbuf, recvbuf
    integer(ECCL_IK), intent(in) :: recvcount
    integer(c_int), intent(in) :: dtype, op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (recvcount < 0 .or. is_in_place(recvbuf)) return
    info = c_eccl_reduce_scatter_block(sendbuf, recvbuf, int(recvcount, c_size_t), dtype, op, &
      bound, comm%ptr)
  end subroutine ECCL_KS(reduce_scatter_block_ptr)

  subroutine ECCL_KS(allgather_ptr)(sendbuf, recvbuf, count, dtype, bound, comm, info)
    type(c_ptr), intent(in) :: sendbuf, recvbuf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(recvbuf)) return
    info = c_eccl_allgather(sendbuf, recvbuf, int(count, c_size_t), dtype, bound, comm%ptr)
  end subroutine ECCL_KS(allgather_ptr)

  ! eccl_in_place() as recvbuf is what MPI_Scatter accepts at the root: passed on to C.
  subroutine ECCL_KS(scatter_ptr)(sendbuf, recvbuf, count, dtype, root, bound, comm, info)
    type(c_ptr), intent(in) :: sendbuf, recvbuf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype, root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(sendbuf)) return
    info = c_eccl_scatter(sendbuf, recvbuf, int(count, c_size_t), dtype, root, bound, comm%ptr)
  end subroutine ECCL_KS(scatter_ptr)

  subroutine ECCL_KS(gather_ptr)(sendbuf, recvbuf, count, dtype, root, bound, comm, info)
    type(c_ptr), intent(in) :: sendbuf, recvbuf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype, root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(recvbuf)) return
    info = c_eccl_gather(sendbuf, recvbuf, int(count, c_size_t), dtype, root, bound, comm%ptr)
  end subroutine ECCL_KS(gather_ptr)

  subroutine ECCL_KS(sendrecv_replace_ptr)(buf, count, dtype, dest, sendtag, source, recvtag, &
      bound, comm, info)
    type(c_ptr), intent(in) :: buf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype, dest, sendtag, source, recvtag
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(buf)) return
    info = c_eccl_sendrecv_replace(buf, int(count, c_size_t), dtype, dest, sendtag, source, &
      recvtag, bound, comm%ptr)
  end subroutine ECCL_KS(sendrecv_replace_ptr)
#endif
#ifdef ECCL_SPEC
  ! The stream-enqueued forms (eccl_cuda.h): the same arguments and one more, stream (type(c_ptr):
  ! the cudaStream_t), before info.  Returns at once; the collective runs in stream order.
  ! info: errors found at once (and the result of a call that ran at once); an enqueued call's
  ! result comes from eccl_cuda_comm_async_error once the stream has passed it.
  interface eccl_cuda_bcast_async
    module procedure ECCL_KS(bcast_async_ptr)
  end interface eccl_cuda_bcast_async
  interface eccl_cuda_allreduce_async
    module procedure ECCL_KS(allreduce_async_ptr)
  end interface eccl_cuda_allreduce_async
  interface eccl_cuda_reduce_async
    module procedure ECCL_KS(reduce_async_ptr)
  end interface eccl_cuda_reduce_async
  interface eccl_cuda_reduce_scatter_block_async
    module procedure ECCL_KS(reduce_scatter_block_async_ptr)
  end interface eccl_cuda_reduce_scatter_block_async
  interface eccl_cuda_allgather_async
    module procedure ECCL_KS(allgather_async_ptr)
  end interface eccl_cuda_allgather_async
  interface eccl_cuda_scatter_async
    module procedure ECCL_KS(scatter_async_ptr)
  end interface eccl_cuda_scatter_async
  interface eccl_cuda_gather_async
    module procedure ECCL_KS(gather_async_ptr)
  end interface eccl_cuda_gather_async
  interface eccl_cuda_sendrecv_replace_async
    module procedure ECCL_KS(sendrecv_replace_async_ptr)
  end interface eccl_cuda_sendrecv_replace_async
#else

  subroutine ECCL_KS(bcast_async_ptr)(buf, count, dtype, root, bound, comm, stream, info)
    type(c_ptr), intent(in) :: buf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype, root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(c_ptr), intent(in) :: stream
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(buf)) return
    info = c_bcast_async(buf, int(count, c_size_t), dtype, root, bound, comm%ptr, stream)
  end subroutine ECCL_KS(bcast_async_ptr)

  subroutine ECCL_KS(allreduce_async_ptr)(sendbuf, recvbuf, count, dtype, op, bound, comm, &
    stream, info)
    type(c_ptr), intent(in) :: sendbuf, recvbuf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype, op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(c_ptr), intent(in) :: stream
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(recvbuf)) return
    info = c_allreduce_async(sendbuf, recvbuf, int(count, c_size_t), dtype, op, bound, &
      comm%ptr, stream)
  end subroutine ECCL_KS(allreduce_async_ptr)

  subroutine ECCL_KS(reduce_async_ptr)(sendbuf, recvbuf, count, dtype, op, root, bound, comm, &
    stream, info)
    type(c_ptr), intent(in) :: sendbuf, recvbuf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype, op, root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(c_ptr), intent(in) :: stream
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(recvbuf)) return
    info = c_reduce_async(sendbuf, recvbuf, int(count, c_size_t), dtype, op, root, bound, &
      comm%ptr, stream)
  end subroutine ECCL_KS(reduce_async_ptr)

  subroutine ECCL_KS(reduce_scatter_block_async_ptr)(sendbuf, recvbuf, recvcount, dtype, op, &
    bound, comm, stream, info)
    type(c_ptr), intent(in) :: sendbuf, recvbuf
    integer(ECCL_IK), intent(in) :: recvcount
    integer(c_int), intent(in) :: dtype, op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(c_ptr), intent(in) :: stream
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (recvcount < 0 .or. is_in_place(recvbuf)) return
    info = c_reduce_scatter_block_async(sendbuf, recvbuf, int(recvcount, c_size_t), dtype, op, &
      bound, comm%ptr, stream)
  end subroutine ECCL_KS(reduce_scatter_block_async_ptr)

  subroutine ECCL_KS(allgather_async_ptr)(sendbuf, recvbuf, count, dtype, bound, comm, stream, info)
    type(c_ptr), intent(in) :: sendbuf, recvbuf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(c_ptr), intent(in) :: stream
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(recvbuf)) return
    info = c_allgather_async(sendbuf, recvbuf, int(count, c_size_t), dtype, bound, comm%ptr, stream)
  end subroutine ECCL_KS(allgather_async_ptr)

  subroutine ECCL_KS(scatter_async_ptr)(sendbuf, recvbuf, count, dtype, root, bound, comm, &
    stream, info)
    type(c_ptr), intent(in) :: sendbuf, recvbuf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype, root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(c_ptr), intent(in) :: stream
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(sendbuf)) return
    info = c_scatter_async(sendbuf, recvbuf, int(count, c_size_t), dtype, root, bound, &
      comm%ptr, stream)
  end subroutine ECCL_KS(scatter_async_ptr)

  subroutine ECCL_KS(gather_async_ptr)(sendbuf, recvbuf, count, dtype, root, bound, comm, &
    stream, info)
    type(c_ptr), intent(in) :: sendbuf, recvbuf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype, root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(c_ptr), intent(in) :: stream
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(recvbuf)) return
    info = c_gather_async(sendbuf, recvbuf, int(count, c_size_t), dtype, root, bound, &
      comm%ptr, stream)
  end subroutine ECCL_KS(gather_async_ptr)

  subroutine ECCL_KS(sendrecv_replace_async_ptr)(buf, count, dtype, dest, sendtag, source, &
    recvtag, bound, comm, stream, info)
    type(c_ptr), intent(in) :: buf
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dtype, dest, sendtag, source, recvtag
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(c_ptr), intent(in) :: stream
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0 .or. is_in_place(buf)) return
    info = c_sendrecv_replace_async(buf, int(count, c_size_t), dtype, dest, sendtag, source, &
      recvtag, bound, comm%ptr, stream)
  end subroutine ECCL_KS(sendrecv_replace_async_ptr)
#endif
