! eccl_comm_template.F90 - the procedures of module eccl_comm_api that take an MPI communicator,
! written once: eccl_comm.F90 #includes this file through eccl_handles.h (one specific per kind
! of handle), with ECCL_SPEC for the generic interfaces, then without it for the procedures.
#ifdef ECCL_SPEC
  ! call eccl_comm_create(comm, [config,] ecomm, info): wrap an MPI communicator (collective);
  ! free ecomm with eccl_comm_free.
  interface eccl_comm_create
    module procedure ECCL_HS(comm_create), ECCL_HS(comm_create_cfg)
  end interface eccl_comm_create

  ! call eccl_comm_info(ecomm, comm, size, rank, info): eccl's duplicate of the MPI communicator.
  ! On an error (a null ecomm) comm is MPI_COMM_NULL, size 0 and rank -1.
  interface eccl_comm_info
    module procedure ECCL_HS(comm_info)
  end interface eccl_comm_info
#else

  subroutine ECCL_HS(comm_create)(comm, ecomm, info)
    ECCL_H, intent(in) :: comm
    type(eccl_comm), intent(out) :: ecomm
    integer(c_int), intent(out) :: info
    info = c_comm_create_default(int(ECCL_HV(comm), c_int), c_null_ptr, ecomm%ptr)
  end subroutine ECCL_HS(comm_create)

  subroutine ECCL_HS(comm_create_cfg)(comm, config, ecomm, info)
    ECCL_H, intent(in) :: comm
    type(eccl_config), intent(in) :: config
    type(eccl_comm), intent(out) :: ecomm
    integer(c_int), intent(out) :: info
    info = c_comm_create(int(ECCL_HV(comm), c_int), config, ecomm%ptr)
  end subroutine ECCL_HS(comm_create_cfg)

  subroutine ECCL_HS(comm_info)(ecomm, comm, size, rank, info)
    type(eccl_comm), intent(in) :: ecomm
    ECCL_H, intent(out) :: comm
    integer(c_int), intent(out) :: size, rank, info
    integer(c_int) :: fcomm
    size = 0
    rank = -1
    info = c_comm_info(ecomm%ptr, fcomm, size, rank)
    ECCL_HV(comm) = int(fcomm)
  end subroutine ECCL_HS(comm_info)
#endif
