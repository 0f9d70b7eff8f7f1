! eccl_movement_template.F90 - the procedures of module eccl_movement, written once for every data
! type and count kind: eccl_movement.F90 #includes this file through eccl_dtypes.h and
! eccl_kinds.h, with ECCL_SPEC for the generic interfaces, then without it for the procedures.
#ifdef ECCL_SPEC
  ! call eccl_bcast(buf, count, root, bound, comm, info): buf of the root to every rank; |out - in|
  !  <= E.
  interface eccl_bcast
    module procedure ECCL_X(bcast)
  end interface eccl_bcast

  ! call eccl_allgather(sendbuf, recvbuf, count, bound, comm, info): count elements per rank;
  !  recvbuf holds size*count.
  interface eccl_allgather
    module procedure ECCL_X(allgather)
  end interface eccl_allgather

  ! call eccl_scatter(sendbuf, recvbuf, count, root, bound, comm, info): sendbuf (size*count, read
  !  at the root only) to count elements per rank.
  interface eccl_scatter
    module procedure ECCL_X(scatter)
  end interface eccl_scatter

  ! call eccl_gather(sendbuf, recvbuf, count, root, bound, comm, info): count elements per rank into
  !  recvbuf (size*count, written at the root only).
  interface eccl_gather
    module procedure ECCL_X(gather)
  end interface eccl_gather

  ! call eccl_sendrecv_replace(buf, count, dest, sendtag, source, recvtag, bound, comm, info):
  !  Cannon's shift; |out - what source sent| <= E.
  interface eccl_sendrecv_replace
    module procedure ECCL_X(sendrecv_replace)
  end interface eccl_sendrecv_replace
#else

  subroutine ECCL_X(bcast)(buf, count, root, bound, comm, info)
    ECCL_T, intent(inout), target :: buf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    info = c_eccl_bcast(eccl_loc(buf, count), int(count, c_size_t), ECCL_DT, root, bound, &
      comm%ptr)
  end subroutine ECCL_X(bcast)

  subroutine ECCL_X(allgather)(sendbuf, recvbuf, count, bound, comm, info)
    ECCL_T, intent(in), target :: sendbuf(*)
    ECCL_T, intent(inout), target :: recvbuf(*)
    integer(ECCL_IK), intent(in) :: count
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    info = c_eccl_allgather(eccl_loc(sendbuf, count), eccl_loc(recvbuf, count), &
      int(count, c_size_t), ECCL_DT, bound, comm%ptr)
  end subroutine ECCL_X(allgather)

  subroutine ECCL_X(scatter)(sendbuf, recvbuf, count, root, bound, comm, info)
    ECCL_T, intent(in), target :: sendbuf(*)
    ECCL_T, intent(inout), target :: recvbuf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    info = c_eccl_scatter(eccl_loc(sendbuf, count), eccl_loc(recvbuf, count), &
      int(count, c_size_t), ECCL_DT, root, bound, comm%ptr)
  end subroutine ECCL_X(scatter)

  subroutine ECCL_X(gather)(sendbuf, recvbuf, count, root, bound, comm, info)
    ECCL_T, intent(in), target :: sendbuf(*)
    ECCL_T, intent(inout), target :: recvbuf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: root
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    info = c_eccl_gather(eccl_loc(sendbuf, count), eccl_loc(recvbuf, count), &
      int(count, c_size_t), ECCL_DT, root, bound, comm%ptr)
  end subroutine ECCL_X(gather)

  subroutine ECCL_X(sendrecv_replace)(buf, count, dest, sendtag, source, recvtag, bound, comm, &
      info)
    ECCL_T, intent(inout), target :: buf(*)
    integer(ECCL_IK), intent(in) :: count
    integer(c_int), intent(in) :: dest, sendtag, source, recvtag
    type(eccl_bound), intent(in) :: bound
    type(eccl_comm), intent(in) :: comm
    integer(c_int), intent(out) :: info
    info = ECCL_ERR_INVALID_ARG
    if (count < 0) return
    info = c_eccl_sendrecv_replace(eccl_loc(buf, count), int(count, c_size_t), ECCL_DT, dest, &
      sendtag, source, recvtag, bound, comm%ptr)
  end subroutine ECCL_X(sendrecv_replace)
#endif
