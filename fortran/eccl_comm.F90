! eccl_comm.F90 - module eccl_comm_api: eccl communicators from Fortran (doc/fortran.md), and the
! bind(C) interfaces of the collectives that eccl_movement and eccl_reductions wrap.
!
! An MPI communicator is given as the Fortran INTEGER handle of `use mpi` (or `mpif.h`), or as
! type(MPI_Comm) of `use mpi_f08` when the MPI library has that module; C converts the handle with
! MPI_Comm_f2c (fortran/eccl_fshim.c).  Everything here is public to the other eccl_* modules;
! module eccl re-exports only the eccl_comm_* procedures.
module eccl_comm_api
  use, intrinsic :: iso_c_binding
  use eccl_types
#ifdef ECCL_HAVE_MPI_F08
  use mpi_f08, only: MPI_Comm
#endif
  implicit none
  private

  public :: eccl_comm_create, eccl_comm_free, eccl_comm_set_algorithm, eccl_comm_info
  public :: eccl_comm_last_error, eccl_comm_last_stats
  public :: eccl_c_str, eccl_first_char, eccl_in_place, eccl_comm_rank
  public :: c_eccl_bcast, c_eccl_allreduce, c_eccl_reduce, c_eccl_reduce_scatter_block
  public :: c_eccl_allgather, c_eccl_scatter, c_eccl_gather, c_eccl_sendrecv_replace

  ! eccl_comm_create and eccl_comm_info, one specific per kind of MPI communicator handle: written
  ! once, in eccl_comm_template.F90.
#define ECCL_TEMPLATE "eccl_comm_template.F90"
#define ECCL_SPEC
#include "eccl_handles.h"
#undef ECCL_SPEC

  interface
    function c_comm_create(fcomm, config, out) bind(C, name="eccl_fortran_comm_create") result(rc)
      import :: c_int, c_ptr, eccl_config
      integer(c_int), value :: fcomm
      type(eccl_config), intent(in) :: config
      type(c_ptr), intent(out) :: out
      integer(c_int) :: rc
    end function c_comm_create

    function c_comm_create_default(fcomm, config, out) bind(C, name="eccl_fortran_comm_create") &
        result(rc)
      import :: c_int, c_ptr
      integer(c_int), value :: fcomm
      type(c_ptr), value :: config
      type(c_ptr), intent(out) :: out
      integer(c_int) :: rc
    end function c_comm_create_default

    function c_comm_free(comm) bind(C, name="eccl_comm_free") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: comm
      integer(c_int) :: rc
    end function c_comm_free

    function c_comm_set_algorithm(comm, coll, algo) bind(C, name="eccl_comm_set_algorithm") &
        result(rc)
      import :: c_int, c_ptr, c_char
      type(c_ptr), value :: comm
      character(kind=c_char), intent(in) :: coll(*), algo(*)
      integer(c_int) :: rc
    end function c_comm_set_algorithm

    function c_comm_info(comm, fcomm, size, rank) bind(C, name="eccl_fortran_comm_info") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), value :: comm
      integer(c_int), intent(out) :: fcomm
      integer(c_int), intent(inout) :: size, rank ! (left alone on an error)
      integer(c_int) :: rc
    end function c_comm_info

    function c_comm_last_error(comm) bind(C, name="eccl_comm_last_error") result(p)
      import :: c_ptr
      type(c_ptr), value :: comm
      type(c_ptr) :: p
    end function c_comm_last_error

    function c_comm_last_stats(comm, stats) bind(C, name="eccl_comm_last_stats") result(rc)
      import :: c_int, c_ptr, eccl_stats
      type(c_ptr), value :: comm
      type(eccl_stats), intent(out) :: stats
      integer(c_int) :: rc
    end function c_comm_last_stats

    function eccl_in_place() bind(C, name="eccl_fortran_in_place") result(p)
      import :: c_ptr
      type(c_ptr) :: p
    end function eccl_in_place

    ! ---- the collectives (eccl.h): buffers as addresses, counts as size_t ----
    function c_eccl_bcast(buf, count, dtype, root, bound, comm) bind(C, name="eccl_bcast") &
        result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: buf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, root
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm
      integer(c_int) :: rc
    end function c_eccl_bcast

    function c_eccl_allreduce(sendbuf, recvbuf, count, dtype, op, bound, comm) &
        bind(C, name="eccl_allreduce") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: sendbuf, recvbuf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, op
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm
      integer(c_int) :: rc
    end function c_eccl_allreduce

    function c_eccl_reduce(sendbuf, recvbuf, count, dtype, op, root, bound, comm) &
        bind(C, name="eccl_reduce") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: sendbuf, recvbuf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, op, root
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm
      integer(c_int) :: rc
    end function c_eccl_reduce

    function c_eccl_reduce_scatter_block(sendbuf, recvbuf, recvcount, dtype, op, bound, comm) &
        bind(C, name="eccl_reduce_scatter_block") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: sendbuf, recvbuf
      integer(c_size_t), value :: recvcount
      integer(c_int), value :: dtype, op
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm
      integer(c_int) :: rc
    end function c_eccl_reduce_scatter_block

    function c_eccl_allgather(sendbuf, recvbuf, count, dtype, bound, comm) &
        bind(C, name="eccl_allgather") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: sendbuf, recvbuf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm
      integer(c_int) :: rc
    end function c_eccl_allgather

    function c_eccl_scatter(sendbuf, recvbuf, count, dtype, root, bound, comm) &
        bind(C, name="eccl_scatter") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: sendbuf, recvbuf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, root
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm
      integer(c_int) :: rc
    end function c_eccl_scatter

    function c_eccl_gather(sendbuf, recvbuf, count, dtype, root, bound, comm) &
        bind(C, name="eccl_gather") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: sendbuf, recvbuf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, root
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm
      integer(c_int) :: rc
    end function c_eccl_gather

    function c_eccl_sendrecv_replace(buf, count, dtype, dest, sendtag, source, recvtag, bound, &
        comm) bind(C, name="eccl_sendrecv_replace") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      type(c_ptr), value :: buf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, dest, sendtag, source, recvtag
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm
      integer(c_int) :: rc
    end function c_eccl_sendrecv_replace
  end interface

contains

  ! A Fortran string as a NUL-terminated C string (trailing blanks kept).
  pure function eccl_c_str(s) result(c)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=len(s) + 1) :: c
    c = s // c_null_char
  end function eccl_c_str

  ! The first character of a BLACS scope or top argument, NUL-terminated ('' gives NUL alone,
  ! which C rejects as a scope).
  pure function eccl_first_char(s) result(c)
    character(len=*), intent(in) :: s
    character(kind=c_char, len=2) :: c
    c = c_null_char // c_null_char
    if (len(s) > 0) c(1:1) = s(1:1)
  end function eccl_first_char

  ! This process's rank in ecomm (-1 for a null communicator).
  function eccl_comm_rank(ecomm) result(rank)
    type(eccl_comm), intent(in) :: ecomm
    integer(c_int) :: rank, fcomm, size
    rank = -1
    size = 0
    if (c_comm_info(ecomm%ptr, fcomm, size, rank) /= ECCL_SUCCESS) rank = -1
  end function eccl_comm_rank

  ! Collective; ecomm is null afterwards (freeing a null communicator is a no-op).  Never free a
  ! communicator from eccl_blacs_comm: its grid owns it.
  subroutine eccl_comm_free(ecomm, info)
    type(eccl_comm), intent(inout) :: ecomm
    integer(c_int), intent(out) :: info
    info = c_comm_free(ecomm%ptr)
  end subroutine eccl_comm_free

  ! call eccl_comm_set_algorithm(ecomm, 'bcast', 'binomial', info) ('auto' restores the model);
  ! trailing blanks of the names are ignored.
  subroutine eccl_comm_set_algorithm(ecomm, collective, algorithm, info)
    type(eccl_comm), intent(in) :: ecomm
    character(len=*), intent(in) :: collective, algorithm
    integer(c_int), intent(out) :: info
    info = c_comm_set_algorithm(ecomm%ptr, eccl_c_str(trim(collective)), &
      eccl_c_str(trim(algorithm)))
  end subroutine eccl_comm_set_algorithm

  ! The message of the last error on ecomm ('' after a success).
  function eccl_comm_last_error(ecomm) result(s)
    type(eccl_comm), intent(in) :: ecomm
    character(len=:), allocatable :: s
    s = eccl_c_string(c_comm_last_error(ecomm%ptr))
  end function eccl_comm_last_error

  ! What the last collective on ecomm did (this process's view).
  subroutine eccl_comm_last_stats(ecomm, stats, info)
    type(eccl_comm), intent(in) :: ecomm
    type(eccl_stats), intent(out) :: stats
    integer(c_int), intent(out) :: info
    info = c_comm_last_stats(ecomm%ptr, stats)
  end subroutine eccl_comm_last_stats

  ! ---- eccl_comm_create, eccl_comm_info (eccl_comm_template.F90) ----
#include "eccl_handles.h"

end module eccl_comm_api
