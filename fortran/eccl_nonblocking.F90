! eccl_nonblocking.F90 - module eccl_nonblocking: the nonblocking collectives from Fortran (eccl.h:
! eccl_ibcast ... eccl_isendrecv_replace, eccl_wait, eccl_test, eccl_waitall; doc/collectives.md
! "Nonblocking calls").
!
! The arguments of the blocking call (eccl_movement, eccl_reductions), then a type(eccl_request),
! then info.  The buffers are ASYNCHRONOUS: the actual arguments should be too (or be left alone
! until the request completes), so that the compiler does not move accesses across the wait.
! info of a post says only whether it was posted; the collective's own result is the info of
! eccl_wait / eccl_test / eccl_waitall.  One specific per data type and count kind, written once in
! eccl_nonblocking_template.F90.
module eccl_nonblocking
  use, intrinsic :: iso_c_binding
  use eccl_types
  use eccl_comm_api
  implicit none
  private

  public :: eccl_request, eccl_wait, eccl_test, eccl_waitall
  public :: eccl_ibcast, eccl_iallreduce, eccl_ireduce, eccl_ireduce_scatter_block
  public :: eccl_iallgather, eccl_iscatter, eccl_igather, eccl_isendrecv_replace

  ! A request (eccl_request_t): null until posted, null again once completed.
  type :: eccl_request
    type(c_ptr) :: ptr = c_null_ptr
  end type eccl_request

  ! call eccl_wait(req, info): complete req; info is the collective's result (its statistics:
  !  eccl_comm_last_stats afterwards).
  interface eccl_wait
    module procedure wait_one
  end interface eccl_wait
  ! call eccl_test(req, done, info): done = .true. and req completed (info its result),
  !  or .false. and still in flight (info = ECCL_SUCCESS).
  interface eccl_test
    module procedure test_one
  end interface eccl_test
  ! call eccl_waitall(reqs, info): every request of reqs(:), in order; info the first error.
  interface eccl_waitall
    module procedure wait_all
  end interface eccl_waitall

  ! the collectives of c_ipost (the order of eccl_fortran_ipost's switch)
  integer(c_int), parameter :: F_BCAST = 0, F_ALLREDUCE = 1, F_REDUCE = 2, F_RSB = 3, F_ALLGATHER = 4, &
    F_SCATTER = 5, F_GATHER = 6, F_SENDRECV = 7

#define ECCL_TEMPLATE "eccl_nonblocking_template.F90"
#define ECCL_PER_TYPE "eccl_kinds.h"
#define ECCL_X(f) ECCL_KS(ECCL_TS(f))
#define ECCL_SPEC
#include "eccl_dtypes.h"
#undef ECCL_SPEC

  interface
    function c_wait(req, stats) bind(C, name="eccl_wait") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: req
      type(c_ptr), value :: stats
      integer(c_int) :: rc
    end function c_wait
    function c_test(req, done, stats) bind(C, name="eccl_test") result(rc)
      import :: c_int, c_ptr
      type(c_ptr), intent(inout) :: req
      integer(c_int), intent(out) :: done
      type(c_ptr), value :: stats
      integer(c_int) :: rc
    end function c_test
    ! every post (fortran/eccl_fshim.c), `what` one of the F_* below
    function c_ipost(what, sbuf, rbuf, count, dtype, op, root, dest, sendtag, source, recvtag, bound, comm, &
        req) bind(C, name="eccl_fortran_ipost") result(rc)
      import :: c_int, c_ptr, c_size_t, eccl_bound
      integer(c_int), value :: what
      type(c_ptr), value :: sbuf, rbuf
      integer(c_size_t), value :: count
      integer(c_int), value :: dtype, op, root, dest, sendtag, source, recvtag
      type(eccl_bound), intent(in) :: bound
      type(c_ptr), value :: comm
      type(c_ptr), intent(out) :: req
      integer(c_int) :: rc
    end function c_ipost
  end interface

contains

  subroutine wait_one(req, info)
    type(eccl_request), intent(inout) :: req
    integer(c_int), intent(out) :: info
    info = c_wait(req%ptr, c_null_ptr)
  end subroutine wait_one

  subroutine test_one(req, done, info)
    type(eccl_request), intent(inout) :: req
    logical, intent(out) :: done
    integer(c_int), intent(out) :: info
    integer(c_int) :: d
    info = c_test(req%ptr, d, c_null_ptr)
    done = d /= 0
  end subroutine test_one

  subroutine wait_all(reqs, info)
    type(eccl_request), intent(inout) :: reqs(:)
    integer(c_int), intent(out) :: info
    integer :: i
    integer(c_int) :: rc
    info = ECCL_SUCCESS
    do i = 1, size(reqs)
      rc = c_wait(reqs(i)%ptr, c_null_ptr)
      if (rc /= ECCL_SUCCESS .and. info == ECCL_SUCCESS) info = rc
    end do
  end subroutine wait_all

#include "eccl_dtypes.h"

end module eccl_nonblocking
