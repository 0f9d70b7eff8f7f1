! eccl_reductions_template.F90 - the procedures of module eccl_reductions, written once for every
! data type and count kind: eccl_reductions.F90 #includes this file through eccl_dtypes.h and
! eccl_kinds.h, with ECCL_SPEC for the generic interfaces, then without it for the procedures.
#ifdef ECCL_SPEC
  ! call eccl_allreduce(sendbuf, recvbuf, count, op, bound, comm, info)
  ! call eccl_allreduce(buf, count, op, bound, comm, info): in place (MPI_IN_PLACE)
  interface eccl_allreduce
    module procedure ECCL_X(allreduce), ECCL_X(allreduce_ip)
  end interface eccl_allreduce

  ! call eccl_reduce(sendbuf, recvbuf, count, op, root, bound, comm, info): recvbuf written at the
  !  root only
  ! call eccl_reduce(buf, count, op, root, bound, comm, info): in place at the root; elsewhere buf
  !  is only read
  interface eccl_reduce
    module procedure ECCL_X(reduce), ECCL_X(reduce_ip)
  end interface eccl_reduce

  ! call eccl_reduce_scatter_block(sendbuf, recvbuf, recvcount, op, bound, comm, info): sendbuf
  !  holds size*recvcount
  interface eccl_reduce_scatter_block
    module procedure ECCL_X(reduce_scatter_block)
  end interface eccl_reduce_scatter_block
#else

  subroutine ECCL_X(allreduce)(sendbuf, recvbuf, count, op, bound, comm, info)
    ECCL_T, intent(in), target :: sendbuf(*)
    ECCL_T, intent(inout), target :: recvbuf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    info = c_eccl_allreduce(eccl_loc(sendbuf, count), eccl_loc(recvbuf, count), &
      int(count, c_size_t), ECCL_DT, op, bound, comm%ptr)
  end subroutine ECCL_X(allreduce)

  subroutine ECCL_X(allreduce_ip)(buf, count, op, bound, comm, info)
    ECCL_T, intent(inout), target :: buf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    info = c_eccl_allreduce(eccl_in_place(), eccl_loc(buf, count), int(count, c_size_t), &
      ECCL_DT, op, bound, comm%ptr)
  end subroutine ECCL_X(allreduce_ip)

  subroutine ECCL_X(reduce)(sendbuf, recvbuf, count, op, root, bound, comm, info)
    ECCL_T, intent(in), target :: sendbuf(*)
    ECCL_T, intent(inout), target :: recvbuf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: op, root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    info = c_eccl_reduce(eccl_loc(sendbuf, count), eccl_loc(recvbuf, count), &
      int(count, c_size_t), ECCL_DT, op, root, bound, comm%ptr)
  end subroutine ECCL_X(reduce)

  ! In place: MPI_IN_PLACE as the send buffer at the root only; elsewhere buf is the send buffer.
  subroutine ECCL_X(reduce_ip)(buf, count, op, root, bound, comm, info)
    ECCL_T, intent(inout), target :: buf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: op, root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    type(c_ptr) :: pbuf, psend
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    pbuf = eccl_loc(buf, count)
    psend = pbuf
    if (eccl_comm_rank(comm) == root) psend = eccl_in_place()
    info = c_eccl_reduce(psend, pbuf, int(count, c_size_t), ECCL_DT, op, root, bound, comm%ptr)
  end subroutine ECCL_X(reduce_ip)

  subroutine ECCL_X(reduce_scatter_block)(sendbuf, recvbuf, recvcount, op, bound, comm, info)
    ECCL_T, intent(in), target :: sendbuf(*)
    ECCL_T, intent(inout), target :: recvbuf(*)
    integer(ECCL_IK), intent(in) :: recvcount
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (recvcount < 0) return
    info = c_eccl_reduce_scatter_block(eccl_loc(sendbuf, recvcount), eccl_loc(recvbuf, recvcount), &
      int(recvcount, c_size_t), ECCL_DT, op, bound, comm%ptr)
  end subroutine ECCL_X(reduce_scatter_block)
#endif
