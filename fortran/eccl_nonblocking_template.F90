! eccl_nonblocking_template.F90 - the posts of module eccl_nonblocking, written once for every data
! type and count kind: eccl_nonblocking.F90 #includes this file through eccl_dtypes.h and
! eccl_kinds.h, with ECCL_SPEC for the generic interfaces, then without it for the procedures.
! Each is the blocking wrapper (eccl_movement_template.F90, eccl_reductions_template.F90) with a
! request, and ASYNCHRONOUS buffers.
#ifdef ECCL_SPEC
  ! call eccl_ibcast(buf, count, root, bound, comm, req, info)
  interface eccl_ibcast
    module procedure ECCL_X(ibcast)
  end interface eccl_ibcast
  ! call eccl_iallreduce(sendbuf, recvbuf, count, op, bound, comm, req, info)
  ! call eccl_iallreduce(buf, count, op, bound, comm, req, info): in place
  interface eccl_iallreduce
    module procedure ECCL_X(iallreduce), ECCL_X(iallreduce_ip)
  end interface eccl_iallreduce
  ! call eccl_ireduce(sendbuf, recvbuf, count, op, root, bound, comm, req, info)
  interface eccl_ireduce
    module procedure ECCL_X(ireduce)
  end interface eccl_ireduce
  ! call eccl_ireduce_scatter_block(sendbuf, recvbuf, recvcount, op, bound, comm, req, info)
  interface eccl_ireduce_scatter_block
    module procedure ECCL_X(ireduce_scatter_block)
  end interface eccl_ireduce_scatter_block
  ! call eccl_iallgather(sendbuf, recvbuf, count, bound, comm, req, info)
  interface eccl_iallgather
    module procedure ECCL_X(iallgather)
  end interface eccl_iallgather
  ! call eccl_iscatter(sendbuf, recvbuf, count, root, bound, comm, req, info)
  interface eccl_iscatter
    module procedure ECCL_X(iscatter)
  end interface eccl_iscatter
  ! call eccl_igather(sendbuf, recvbuf, count, root, bound, comm, req, info)
  interface eccl_igather
    module procedure ECCL_X(igather)
  end interface eccl_igather
  ! call eccl_isendrecv_replace(buf, count, dest, sendtag, source, recvtag, bound, comm, req, info)
  interface eccl_isendrecv_replace
    module procedure ECCL_X(isendrecv_replace)
  end interface eccl_isendrecv_replace
#else

  ! Every post: the buffers' addresses (c_null_ptr for those a collective does not take) and its
  ! scalars, through c_ipost; a negative count is refused here, as by the blocking wrappers.
  subroutine ECCL_X(ipost)(what, sbuf, rbuf, count, op, root, dest, sendtag, source, recvtag, bound, comm, &
      req, info)
    integer(c_int), intent(in) :: what, op, root, dest, sendtag, source, recvtag
    type(c_ptr), intent(in) :: sbuf, rbuf
    integer(ECCL_IK), intent(in) :: count
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    info = c_ipost(what, sbuf, rbuf, int(count, c_size_t), ECCL_DT, op, root, dest, sendtag, source, recvtag, &
      bound, comm%ptr, req%ptr)
  end subroutine ECCL_X(ipost)

  subroutine ECCL_X(ibcast)(buf, count, root, bound, comm, req, info)
    ECCL_T, intent(inout), target, asynchronous :: buf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    call ECCL_X(ipost)(F_BCAST, c_null_ptr, eccl_loc(buf, count), count, 0, root, 0, 0, 0, 0, bound, comm, req, info)
  end subroutine ECCL_X(ibcast)

  subroutine ECCL_X(iallreduce)(sendbuf, recvbuf, count, op, bound, comm, req, info)
    ECCL_T, intent(in), target, asynchronous :: sendbuf(*)
    ECCL_T, intent(inout), target, asynchronous :: recvbuf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    call ECCL_X(ipost)(F_ALLREDUCE, eccl_loc(sendbuf, count), eccl_loc(recvbuf, count), count, op, 0, 0, 0, 0, 0, &
      bound, comm, req, info)
  end subroutine ECCL_X(iallreduce)

  subroutine ECCL_X(iallreduce_ip)(buf, count, op, bound, comm, req, info)
    ECCL_T, intent(inout), target, asynchronous :: buf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    call ECCL_X(ipost)(F_ALLREDUCE, eccl_in_place(), eccl_loc(buf, count), count, op, 0, 0, 0, 0, 0, bound, comm, &
      req, info)
  end subroutine ECCL_X(iallreduce_ip)

  subroutine ECCL_X(ireduce)(sendbuf, recvbuf, count, op, root, bound, comm, req, info)
    ECCL_T, intent(in), target, asynchronous :: sendbuf(*)
    ECCL_T, intent(inout), target, asynchronous :: recvbuf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: op, root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    call ECCL_X(ipost)(F_REDUCE, eccl_loc(sendbuf, count), eccl_loc(recvbuf, count), count, op, root, 0, 0, 0, 0, &
      bound, comm, req, info)
  end subroutine ECCL_X(ireduce)

  subroutine ECCL_X(ireduce_scatter_block)(sendbuf, recvbuf, recvcount, op, bound, comm, req, info)
    ECCL_T, intent(in), target, asynchronous :: sendbuf(*)
    ECCL_T, intent(inout), target, asynchronous :: recvbuf(*)
    integer(ECCL_IK), intent(in) :: recvcount
    integer(c_int), intent(in) :: op
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    call ECCL_X(ipost)(F_RSB, eccl_loc(sendbuf, recvcount), eccl_loc(recvbuf, recvcount), recvcount, op, 0, 0, 0, &
      0, 0, bound, comm, req, info)
  end subroutine ECCL_X(ireduce_scatter_block)

  ! iallgather, iscatter, igather: (sendbuf, recvbuf, count[, root]); root 0 for iallgather
  subroutine ECCL_X(iallgather)(sendbuf, recvbuf, count, bound, comm, req, info)
    ECCL_T, intent(in), target, asynchronous :: sendbuf(*)
    ECCL_T, intent(inout), target, asynchronous :: recvbuf(*)
    integer(ECCL_IK), intent(in) :: count
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    call ECCL_X(ipost)(F_ALLGATHER, eccl_loc(sendbuf, count), eccl_loc(recvbuf, count), count, 0, 0, 0, 0, 0, 0, &
      bound, comm, req, info)
  end subroutine ECCL_X(iallgather)

  subroutine ECCL_X(iscatter)(sendbuf, recvbuf, count, root, bound, comm, req, info)
    ECCL_T, intent(in), target, asynchronous :: sendbuf(*)
    ECCL_T, intent(inout), target, asynchronous :: recvbuf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    call ECCL_X(ipost)(F_SCATTER, eccl_loc(sendbuf, count), eccl_loc(recvbuf, count), count, 0, root, 0, 0, 0, 0, &
      bound, comm, req, info)
  end subroutine ECCL_X(iscatter)

  subroutine ECCL_X(igather)(sendbuf, recvbuf, count, root, bound, comm, req, info)
    ECCL_T, intent(in), target, asynchronous :: sendbuf(*)
    ECCL_T, intent(inout), target, asynchronous :: recvbuf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    call ECCL_X(ipost)(F_GATHER, eccl_loc(sendbuf, count), eccl_loc(recvbuf, count), count, 0, root, 0, 0, 0, 0, &
      bound, comm, req, info)
  end subroutine ECCL_X(igather)

  subroutine ECCL_X(isendrecv_replace)(buf, count, dest, sendtag, source, recvtag, bound, comm, req, info)
    ECCL_T, intent(inout), target, asynchronous :: buf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dest, sendtag, source, recvtag
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    type(eccl_request), intent(out) :: req
    integer(c_int), intent(out) :: info
    call ECCL_X(ipost)(F_SENDRECV, c_null_ptr, eccl_loc(buf, count), count, 0, 0, dest, sendtag, source, recvtag, &
      bound, comm, req, info)
  end subroutine ECCL_X(isendrecv_replace)
#endif
