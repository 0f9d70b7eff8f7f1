! test_fortran_coll.F90 - the communicators and collectives of module eccl from Fortran, on any
! number of ranks: eccl_comm_create with an INTEGER handle (and a type(MPI_Comm) one when the MPI
! library has mpi_f08), eccl_comm_info, set_algorithm, last_error, last_stats; every collective
! (both buffer forms of allreduce and reduce) with each data type and both count kinds somewhere,
! results checked element by element against the bound; the type(c_ptr) forms of the collectives
! (on host memory through c_loc, and on device memory from eccl_cuda_malloc when every rank has a
! GPU), bit for bit against the array forms; the argument errors of doc/fortran.md (a null
! communicator, negative counts, eccl_in_place() where MPI refuses MPI_IN_PLACE); and the C layout
! of the bind(C) types eccl_config, eccl_stats and eccl_blacs_totals (C side:
! test_fortran_coll_layout.c).
!
!   mpiexec -n 3 tests/test_fortran_coll        exit status 0 pass, 1 fail
program test_fortran_coll
  use, intrinsic :: iso_c_binding
  use mpi
#ifdef ECCL_HAVE_MPI_F08
  use mpi_f08, only: F08_Comm => MPI_Comm, MPI_COMM_WORLD_F08 => MPI_COMM_WORLD
#endif
  use eccl
  implicit none

  integer, parameter :: n = 1000
  real(c_double), parameter :: e = 1.0e-4_c_double
  integer :: rank, size, ierr, nchecks = 0, nfail = 0, nfail_all, provided
  type(eccl_comm) :: comm
  type(eccl_config) :: cfg
  type(eccl_bound) :: bnd

  interface
    function ftest_config_layout(off) bind(C, name="eccl_ftest_config_layout") result(sz)
      import :: c_int64_t
      integer(c_int64_t), intent(out) :: off(9)
      integer(c_int64_t) :: sz
    end function ftest_config_layout
    function ftest_stats_layout(off) bind(C, name="eccl_ftest_stats_layout") result(sz)
      import :: c_int64_t
      integer(c_int64_t), intent(out) :: off(15)
      integer(c_int64_t) :: sz
    end function ftest_stats_layout
    function ftest_totals_layout(off) bind(C, name="eccl_ftest_totals_layout") result(sz)
      import :: c_int64_t
      integer(c_int64_t), intent(out) :: off(6)
      integer(c_int64_t) :: sz
    end function ftest_totals_layout
    function ftest_check_config(c) bind(C, name="eccl_ftest_check_config") result(ok)
      import :: c_int, eccl_config
      type(eccl_config), intent(in) :: c
      integer(c_int) :: ok
    end function ftest_check_config
  end interface

  ! (MPI_THREAD_MULTIPLE: the nonblocking calls get their progress thread)
  call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, size, ierr)
  bnd = eccl_bound_abs(e)

  call test_layout()
  call test_comms()
  cfg%compress = ECCL_COMPRESS_ALWAYS
  call eccl_comm_create(MPI_COMM_WORLD, cfg, comm, ierr)
  call check(ierr == ECCL_SUCCESS, 'eccl_comm_create with a config')
  call test_bcast()
  call test_allreduce()
  call test_reduce()
  call test_scatter_gather()
  call test_sendrecv()
  call test_nonblocking()
  call test_ptr()
  call test_in_place_misuse()
  call test_negative_counts()
  call eccl_comm_free(comm, ierr)
  call check(ierr == ECCL_SUCCESS .and. .not. c_associated(comm%ptr), 'eccl_comm_free')

  call MPI_Allreduce(nfail, nfail_all, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (rank == 0) print '(a, i0, a, i0, a, i0, a)', 'test_fortran_coll: ', nchecks, &
    ' checks on rank 0, ', nfail_all, ' failures over ', size, ' ranks'
  call MPI_Finalize(ierr)
  if (nfail_all > 0) stop 1

contains

  subroutine check(ok, what)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    nchecks = nchecks + 1
    if (.not. ok) then
      nfail = nfail + 1
      if (nfail <= 20) print '(a, i0, 2a)', '[rank ', rank, '] FAIL: ', what
    end if
  end subroutine check

  ! Value i of rank r's data.
  pure real(c_double) function v(i, r)
    integer, intent(in) :: i, r
    v = sin(0.01_c_double * i + r) + 0.5_c_double * r
  end function v

  subroutine test_layout()
    type(eccl_config), target :: c
    type(eccl_stats), target :: s
    type(eccl_blacs_totals), target :: t
    integer(c_int64_t) :: coff(15), foff(15), csz
    type(c_ptr) :: p
    csz = ftest_config_layout(coff(1:9))
    call check(csz == c_sizeof(c), 'sizeof(eccl_config_t)')
    p = c_loc(c)
    foff(1) = off(p, c_loc(c%bound))
    foff(2) = off(p, c_loc(c%compress))
    foff(3) = off(p, c_loc(c%fallback))
    foff(4) = off(p, c_loc(c%sum_mode))
    foff(5) = off(p, c_loc(c%sum_c))
    foff(6) = off(p, c_loc(c%alpha))
    foff(7) = off(p, c_loc(c%beta))
    foff(8) = off(p, c_loc(c%min_bytes))
    foff(9) = off(p, c_loc(c%format))
    call check(all(foff(1:9) == coff(1:9)), 'eccl_config field offsets')
    call check(ftest_check_config(c) == 1, 'default eccl_config == ECCL_CONFIG_INITIALIZER')
    csz = ftest_stats_layout(coff)
    call check(csz == c_sizeof(s), 'sizeof(eccl_stats_t)')
    p = c_loc(s)
    foff(1) = off(p, c_loc(s%algorithm))
    foff(2) = off(p, c_loc(s%compressed))
    foff(3) = off(p, c_loc(s%result))
    foff(4) = off(p, c_loc(s%bound_requested))
    foff(5) = off(p, c_loc(s%eb_per_message))
    foff(6) = off(p, c_loc(s%bytes_raw))
    foff(7) = off(p, c_loc(s%bytes_sent))
    foff(8) = off(p, c_loc(s%ratio))
    foff(9) = off(p, c_loc(s%t_total))
    foff(10) = off(p, c_loc(s%t_codec))
    foff(11) = off(p, c_loc(s%t_network))
    foff(12) = off(p, c_loc(s%model_ratio))
    foff(13) = off(p, c_loc(s%model_t_mpi))
    foff(14) = off(p, c_loc(s%model_t_chosen))
    foff(15) = off(p, c_loc(s%reason))
    call check(all(foff == coff), 'eccl_stats field offsets')
    csz = ftest_totals_layout(coff(1:9))
    if (csz > 0) then
      call check(csz == c_sizeof(t), 'sizeof(eccl_blacs_totals_t)')
      p = c_loc(t)
      foff(1) = off(p, c_loc(t%calls))
      foff(2) = off(p, c_loc(t%calls_compressed))
      foff(3) = off(p, c_loc(t%bytes_raw))
      foff(4) = off(p, c_loc(t%bytes_sent))
      foff(5) = off(p, c_loc(t%t_total))
      foff(6) = off(p, c_loc(t%max_eb))
      foff(7) = off(p, c_loc(t%t_select))
      foff(8) = off(p, c_loc(t%t_codec))
      foff(9) = off(p, c_loc(t%t_network))
      call check(all(foff(1:9) == coff(1:9)), 'eccl_blacs_totals field offsets')
    end if
  end subroutine test_layout

  integer(c_int64_t) function off(base, field)
    type(c_ptr), intent(in) :: base, field
    integer(c_intptr_t) :: a, b
    a = transfer(base, a)
    b = transfer(field, b)
    off = int(b - a, c_int64_t)
  end function off

  ! Communicators from both kinds of MPI handle; info; errors and their messages.
  subroutine test_comms()
    type(eccl_comm) :: c2
    integer :: fcomm, sz, rk, info, cmp
    real(c_double) :: one(1)
#ifdef ECCL_HAVE_MPI_F08
    type(F08_Comm) :: f08comm
#endif
    call eccl_comm_create(MPI_COMM_WORLD, c2, info)
    call check(info == ECCL_SUCCESS, 'eccl_comm_create (INTEGER handle)')
    call eccl_comm_info(c2, fcomm, sz, rk, info)
    call check(info == 0 .and. sz == size .and. rk == rank, 'eccl_comm_info size and rank')
    call MPI_Comm_compare(fcomm, MPI_COMM_WORLD, cmp, ierr)
    call check(cmp == MPI_CONGRUENT, 'eccl_comm_info gives a duplicate of the communicator')
    call eccl_comm_set_algorithm(c2, 'bcast', 'no-such-algorithm', info)
    call check(info == ECCL_ERR_INVALID_ARG, 'unknown algorithm: ECCL_ERR_INVALID_ARG')
    call eccl_comm_set_algorithm(c2, 'bcast   ', 'binomial  ', info)
    call check(info == ECCL_SUCCESS, 'set_algorithm ignores trailing blanks')
    one = 1
    call eccl_bcast(one, 1, size + 3, bnd, c2, info)
    call check(info == ECCL_ERR_INVALID_ARG .and. len(eccl_comm_last_error(c2)) > 0, &
      'bad root: ECCL_ERR_INVALID_ARG and a message')
    call eccl_comm_free(c2, info)
#ifdef ECCL_HAVE_MPI_F08
    call eccl_comm_create(MPI_COMM_WORLD_F08, c2, info)
    call check(info == ECCL_SUCCESS, 'eccl_comm_create (type(MPI_Comm))')
    call eccl_comm_info(c2, f08comm, sz, rk, info)
    call check(info == 0 .and. sz == size .and. rk == rank, 'eccl_comm_info (type(MPI_Comm))')
    call eccl_comm_free(c2, info)
#endif
    call eccl_comm_free(c2, info)
    call check(info == ECCL_SUCCESS, 'freeing a null communicator is a no-op')
    ! a null (never created, or freed) communicator: every output of eccl_comm_info is defined,
    ! and no rank or size of a real communicator
    sz = 5
    rk = 5
    call eccl_comm_info(c2, fcomm, sz, rk, info)
    call check(info == ECCL_ERR_INVALID_ARG .and. fcomm == MPI_COMM_NULL .and. sz == 0 .and. &
      rk == -1, 'eccl_comm_info of a null communicator: INVALID_ARG, MPI_COMM_NULL, size 0, rank -1')
#ifdef ECCL_HAVE_MPI_F08
    sz = 5
    rk = 5
    call eccl_comm_info(c2, f08comm, sz, rk, info)
    call check(info == ECCL_ERR_INVALID_ARG .and. sz == 0 .and. rk == -1, &
      'eccl_comm_info (type(MPI_Comm)) of a null communicator: size 0, rank -1')
#endif
    call eccl_bcast(one, 1, 0, bnd, c2, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'bcast on a null communicator: ECCL_ERR_INVALID_ARG')
    call eccl_allreduce(one, 1, ECCL_OP_SUM, bnd, c2, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'allreduce on a null communicator: ECCL_ERR_INVALID_ARG')
    call eccl_reduce(one, 1, ECCL_OP_SUM, 0, bnd, c2, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'reduce in place on a null communicator')
  end subroutine test_comms

  subroutine test_bcast()
    real(c_double) :: x(n)
    complex(c_float_complex) :: z(n)
    type(eccl_stats) :: st
    integer :: i, info, root
    root = size - 1
    do i = 1, n
      x(i) = merge(v(i, root), -7.0_c_double, rank == root)
      z(i) = merge(cmplx(v(i, 1), -v(i, 2), c_float), (0.0, 0.0), rank == root)
    end do
    call eccl_bcast(x, n, root, bnd, comm, info)
    call check(info == 0 .and. all(abs(x - [(v(i, root), i = 1, n)]) <= e), 'bcast real(c_double)')
    call eccl_comm_last_stats(comm, st, info)
    call check(info == 0 .and. (size == 1 .or. st%compressed == 1) .and. &
      len(eccl_to_string(st%algorithm)) > 0, 'last_stats after a compressed bcast')
    call eccl_bcast(z, int(n, c_int64_t), root, eccl_bound_abs(1.0e-3_c_double), comm, info)
    call check(info == 0 .and. all(abs(real(z) - [(real(v(i, 1), c_float), i = 1, n)]) <= 1.0e-3 .and. &
      abs(aimag(z) + [(real(v(i, 2), c_float), i = 1, n)]) <= 1.0e-3), 'bcast complex(c_float_complex)')
  end subroutine test_bcast

  ! The nonblocking calls: bit for bit the blocking results, several in flight, completed by
  ! eccl_wait, eccl_waitall and an eccl_test loop.
  subroutine test_nonblocking()
    real(c_float), asynchronous :: s(n), sr(n), sb(n)
    real(c_double), asynchronous :: x(n), xr(n), xb(n), g(n * size), gb(n * size), w(n), wb(n)
    complex(c_double_complex), asynchronous :: z(n), zb(n)
    type(eccl_request) :: req(5)
    integer :: i, info
    logical :: done
    do i = 1, n
      s(i) = real(v(i, rank), c_float)
      x(i) = v(i, rank) * 3
      z(i) = cmplx(v(i, rank), -v(i, rank), c_double)
    end do
    ! the blocking results first
    call eccl_allreduce(s, sb, n, ECCL_OP_SUM, bnd, comm, info)
    xb = x
    call eccl_bcast(xb, int(n, c_int64_t), 0, bnd, comm, info)
    call eccl_allgather(x, gb, n, bnd, comm, info)
    zb = z
    call eccl_allreduce(zb, n, ECCL_OP_SUM, bnd, comm, info)
    wb = x
    call eccl_sendrecv_replace(wb, n, mod(rank + 1, size), 1, mod(rank + size - 1, size), 1, bnd, comm, info)
    ! then posted together
    xr = x
    w = x
    call eccl_iallreduce(s, sr, n, ECCL_OP_SUM, bnd, comm, req(1), info)
    call check(info == ECCL_SUCCESS .and. c_associated(req(1)%ptr), 'eccl_iallreduce posted')
    call eccl_ibcast(xr, int(n, c_int64_t), 0, bnd, comm, req(2), info)
    call check(info == ECCL_SUCCESS, 'eccl_ibcast posted')
    call eccl_iallgather(x, g, n, bnd, comm, req(3), info)
    call check(info == ECCL_SUCCESS, 'eccl_iallgather posted')
    call eccl_iallreduce(z, n, ECCL_OP_SUM, bnd, comm, req(4), info)
    call check(info == ECCL_SUCCESS, 'eccl_iallreduce in place posted')
    call eccl_isendrecv_replace(w, n, mod(rank + 1, size), 1, mod(rank + size - 1, size), 1, bnd, comm, &
      req(5), info)
    call check(info == ECCL_SUCCESS, 'eccl_isendrecv_replace posted')
    call eccl_wait(req(2), info)
    call check(info == ECCL_SUCCESS .and. .not. c_associated(req(2)%ptr), 'eccl_wait')
    done = .false.
    do while (.not. done)
      call eccl_test(req(1), done, info)
      if (info /= ECCL_SUCCESS) exit
    end do
    call check(info == ECCL_SUCCESS .and. done, 'eccl_test loop')
    call eccl_waitall(req, info)
    call check(info == ECCL_SUCCESS, 'eccl_waitall')
    call check(all(sr == sb), 'iallreduce real(c_float) = allreduce, bit for bit')
    call check(all(xr == xb), 'ibcast real(c_double) = bcast')
    call check(all(g == gb), 'iallgather real(c_double) = allgather')
    call check(all(z == zb), 'iallreduce in place complex(c_double_complex) = allreduce')
    call check(all(w == wb), 'isendrecv_replace real(c_double) = sendrecv_replace')
    ! errors are the request's result
    call eccl_ibcast(xr, -1, 0, bnd, comm, req(1), info)
    call check(info == ECCL_ERR_INVALID_ARG, 'eccl_ibcast with a negative count')
    call eccl_iallreduce(s, sr, n, 99_c_int, bnd, comm, req(1), info)
    call check(info == ECCL_SUCCESS, 'a post with a bad op is posted')
    call eccl_wait(req(1), info)
    call check(info == ECCL_ERR_INVALID_ARG, 'its wait says ECCL_ERR_INVALID_ARG')
    call eccl_waitall(req(1:1), info)
    call check(info == ECCL_SUCCESS, 'eccl_waitall of completed (null) requests')
  end subroutine test_nonblocking

  subroutine test_allreduce()
    real(c_float) :: s(n), sr(n)
    complex(c_double_complex) :: z(n)
    real(c_double) :: x(n), y(n * size), mx(n), exact
    integer :: i, r, info
    do i = 1, n
      s(i) = real(v(i, rank), c_float)
      z(i) = cmplx(v(i, rank), 2 * v(i, rank), c_double)
      mx(i) = v(i, rank)
    end do
    call eccl_allreduce(s, sr, int(n, c_int64_t), ECCL_OP_SUM, eccl_bound_abs(1.0e-2_c_double), comm, info)
    call check(info == 0, 'allreduce real(c_float) info')
    do i = 1, n
      exact = sum([(real(real(v(i, r), c_float), c_double), r = 0, size - 1)])
      call check(abs(sr(i) - exact) <= 1.0e-2_c_double + 1.0e-4_c_double, &
        'allreduce SUM real(c_float)')
    end do
    call eccl_allreduce(z, n, ECCL_OP_AVG, bnd, comm, info)
    call check(info == 0, 'allreduce in place complex(c_double_complex) info')
    do i = 1, n
      exact = sum([(v(i, r), r = 0, size - 1)]) / size
      call check(abs(real(z(i)) - exact) <= e + 1.0e-12_c_double .and. &
        abs(aimag(z(i)) - 2 * exact) <= e + 1.0e-12_c_double, 'allreduce AVG in place')
    end do
    call eccl_allreduce(mx, n, ECCL_OP_MAX, bnd, comm, info)
    call check(info == 0 .and. all(abs(mx - [(maxval([(v(i, r), r = 0, size - 1)]), i = 1, n)]) <= e), &
      'allreduce MAX in place real(c_double)')
    ! reduce_scatter_block: rank r gets the sum of every rank's block r
    do r = 0, size - 1
      y(r * n + 1:(r + 1) * n) = [(v(i, rank) + r, i = 1, n)]
    end do
    call eccl_reduce_scatter_block(y, x, n, ECCL_OP_SUM, bnd, comm, info)
    call check(info == 0 .and. all(abs(x - [(sum([(v(i, r), r = 0, size - 1)]) + size * rank, &
      i = 1, n)]) <= e + 1.0e-12_c_double), 'reduce_scatter_block real(c_double)')
  end subroutine test_allreduce

  subroutine test_reduce()
    real(c_double) :: x(n), y(n)
    complex(c_float_complex) :: z(n)
    integer :: i, r, info, root
    root = mod(1, size)
    x = [(v(i, rank), i = 1, n)]
    y = -1
    call eccl_reduce(x, y, n, ECCL_OP_SUM, root, bnd, comm, info)
    call check(info == 0, 'reduce info')
    if (rank == root) call check(all(abs(y - [(sum([(v(i, r), r = 0, size - 1)]), i = 1, n)]) <= &
      e + 1.0e-12_c_double), 'reduce SUM real(c_double) at the root')
    z = [(cmplx(v(i, rank), 0.0, c_float), i = 1, n)]
    call eccl_reduce(z, int(n, c_int64_t), ECCL_OP_SUM, root, eccl_bound_abs(1.0e-2_c_double), comm, info)
    call check(info == 0, 'reduce in place info')
    if (rank == root) call check(all(abs(real(z) - [(sum([(v(i, r), r = 0, size - 1)]), i = 1, n)]) <= &
      1.0e-2_c_double + 1.0e-4_c_double), 'reduce SUM in place complex(c_float_complex) at the root')
  end subroutine test_reduce

  subroutine test_scatter_gather()
    real(c_double) :: full(n * size), mine(n)
    complex(c_double_complex) :: zall(n * size), zmine(n)
    real(c_float) :: sall(n * size), smine(n)
    integer :: i, r, info
    ! scatter from rank 0: rank r gets v(:, r)
    full = [((v(i, r), i = 1, n), r = 0, size - 1)]
    call eccl_scatter(full, mine, n, 0, bnd, comm, info)
    call check(info == 0 .and. all_close(mine, [(v(i, rank), i = 1, n)], e), 'scatter real(c_double)')
    ! gather to the last rank
    zmine = [(cmplx(v(i, rank), -v(i, rank), c_double), i = 1, n)]
    call eccl_gather(zmine, zall, int(n, c_int64_t), size - 1, bnd, comm, info)
    call check(info == 0, 'gather info')
    if (rank == size - 1) call check(all_close(real(zall), [((v(i, r), i = 1, n), r = 0, size - 1)], e) &
      .and. all_close(aimag(zall), [((-v(i, r), i = 1, n), r = 0, size - 1)], e), &
      'gather complex(c_double_complex) at the root')
    ! allgather
    smine = [(real(v(i, rank), c_float), i = 1, n)]
    call eccl_allgather(smine, sall, n, eccl_bound_abs(1.0e-3_c_double), comm, info)
    call check(info == 0 .and. all(abs(sall - [((real(v(i, r), c_float), i = 1, n), r = 0, size - 1)]) &
      <= 1.0e-3), 'allgather real(c_float)')
  end subroutine test_scatter_gather

  logical function all_close(a, b, tol)
    real(c_double), intent(in) :: a(:), b(:), tol
    all_close = all(abs(a - b) <= tol)
  end function all_close

  ! A ring shift, as in Cannon's algorithm.
  subroutine test_sendrecv()
    real(c_double) :: x(n)
    integer :: i, info, left, right
    right = mod(rank + 1, size)
    left = mod(rank - 1 + size, size)
    x = [(v(i, rank), i = 1, n)]
    call eccl_sendrecv_replace(x, n, right, 3, left, 3, bnd, comm, info)
    call check(info == 0 .and. all_close(x, [(v(i, left), i = 1, n)], e), 'sendrecv_replace real(c_double)')
  end subroutine test_sendrecv

  ! The type(c_ptr) forms: on host arrays through c_loc they must give the array forms' results
  ! bit for bit (same data, same algorithm); on device memory (every rank has a GPU) the
  ! broadcast must arrive within the bound.
  subroutine test_ptr()
    real(c_double), target :: x(n), y(n), want(n), g(n * size), gwant(n * size)
    integer :: i, k, ierr2, have, all_have
    integer(c_int) :: info, info2, aware, aerr
    type(c_ptr) :: d, d2
    do i = 1, n
      x(i) = v(i, rank)
    end do
    call eccl_allreduce(x, want, int(n, c_int64_t), ECCL_OP_SUM, bnd, comm, info)
    call check(info == 0, 'allreduce array form (reference of the c_ptr form)')
    call eccl_allreduce(c_loc(x), c_loc(y), n, ECCL_FLOAT64, ECCL_OP_SUM, bnd, comm, info)
    call check(info == 0 .and. all(y == want), 'allreduce type(c_ptr) = array form')
    y = x
    call eccl_allreduce(eccl_in_place(), c_loc(y), int(n, c_int64_t), ECCL_FLOAT64, ECCL_OP_SUM, &
      bnd, comm, info)
    call check(info == 0 .and. all(y == want), 'allreduce type(c_ptr) in place = array form')
    call eccl_allgather(x, gwant, n, bnd, comm, info)
    call eccl_allgather(c_loc(x), c_loc(g), n, ECCL_FLOAT64, bnd, comm, info)
    call check(info == 0 .and. all(g == gwant), 'allgather type(c_ptr) = array form')
    y = merge(x, -1.0_c_double, rank == 0)
    call eccl_bcast(c_loc(y), n, ECCL_FLOAT64, 0, bnd, comm, info)
    call check(info == 0 .and. all(abs(y - [(v(i, 0), i = 1, n)]) <= e), 'bcast type(c_ptr)')
    call eccl_bcast(c_loc(y), -1_c_int64_t, ECCL_FLOAT64, 0, bnd, comm, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'bcast type(c_ptr) with a negative count')

    ! no stream set (c_null_ptr): accepted with the CUDA backend, ECCL_ERR_UNSUPPORTED without
    call eccl_cuda_comm_set_stream(comm, c_null_ptr, info)
    call check(info == ECCL_SUCCESS .or. info == ECCL_ERR_UNSUPPORTED, 'eccl_cuda_comm_set_stream(c_null_ptr)')
    ! the CUDA-aware MPI decision: 0 or 1 with the CUDA backend, 0 and ECCL_ERR_UNSUPPORTED without
    call eccl_cuda_comm_mpi_aware(comm, aware, info)
    call check((info == ECCL_SUCCESS .and. (aware == 0 .or. aware == 1)) .or. &
      (info == ECCL_ERR_UNSUPPORTED .and. aware == 0), 'eccl_cuda_comm_mpi_aware')

    ! device memory, when every rank has it
    call eccl_cuda_malloc(d, int(8 * n, c_int64_t), info)
    call check(info == ECCL_SUCCESS .or. info == ECCL_ERR_NO_DEVICE .or. &
      info == ECCL_ERR_UNSUPPORTED .or. info == ECCL_ERR_NO_MEMORY, 'eccl_cuda_malloc result')
    have = merge(1, 0, info == ECCL_SUCCESS)
    call MPI_Allreduce(have, all_have, 1, MPI_INTEGER, MPI_MIN, MPI_COMM_WORLD, ierr2)
    if (all_have == 1) then
      y = merge(x, -1.0_c_double, rank == 0)
      call eccl_cuda_memcpy(d, c_loc(y), int(8 * n, c_int64_t), info)
      call check(info == 0, 'eccl_cuda_memcpy to the device')
      call eccl_bcast(d, n, ECCL_FLOAT64, 0, bnd, comm, info)
      call check(info == 0, 'bcast of device memory')
      y = 0
      call eccl_cuda_memcpy(c_loc(y), d, int(8 * n, c_int64_t), info)
      call check(info == 0 .and. all(abs(y - [(v(i, 0), i = 1, n)]) <= e), &
        'bcast of device memory within the bound')
      ! the stream-enqueued form on the legacy stream (c_null_ptr), twice: the first call with
      ! these arguments runs at once, the second is enqueued; eccl_cuda_memcpy, on the legacy
      ! stream, reads the result in stream order.  Each within the bound of the exact sum, so
      ! within 2e of the host array form's.
      call eccl_cuda_malloc(d2, int(8 * n, c_int64_t), info)
      call eccl_cuda_memcpy(d, c_loc(x), int(8 * n, c_int64_t), info)
      do k = 1, 2
        call eccl_cuda_allreduce_async(d, d2, n, ECCL_FLOAT64, ECCL_OP_SUM, bnd, comm, c_null_ptr, info)
        call check(info == 0, 'eccl_cuda_allreduce_async')
        y = 0
        call eccl_cuda_memcpy(c_loc(y), d2, int(8 * n, c_int64_t), info)
        call eccl_cuda_comm_async_error(comm, aerr, info2)
        call check(info == 0 .and. info2 == 0 .and. aerr == ECCL_SUCCESS .and. all(abs(y - want) <= 2 * e), &
          'eccl_cuda_allreduce_async on device memory within the bound')
      end do
      call eccl_cuda_free(d2, info)
    else
      if (rank == 0) print '(a)', 'test_fortran_coll: no GPU on every rank, device-memory cases skipped'
      ! no GPU: the stream-enqueued form says so at once
      call eccl_cuda_allreduce_async(c_loc(x), c_loc(y), n, ECCL_FLOAT64, ECCL_OP_SUM, bnd, comm, &
        c_null_ptr, info)
      call check(info == ECCL_ERR_NO_DEVICE .or. info == ECCL_ERR_UNSUPPORTED, &
        'eccl_cuda_allreduce_async without a GPU')
    end if
    call eccl_cuda_comm_async_error(comm, aerr, info)
    call check(info == 0 .and. aerr == ECCL_SUCCESS, 'eccl_cuda_comm_async_error')
    call eccl_cuda_free(d, info)
    call check(info == 0 .and. .not. c_associated(d), 'eccl_cuda_free')
  end subroutine test_ptr

  ! eccl_in_place() where MPI does not accept MPI_IN_PLACE (a receive buffer, bcast's and
  ! sendrecv_replace's buffer, scatter's send buffer): a local argument error on every rank (each
  ! makes the same call, so none waits), never a dereference of the MPI_IN_PLACE address.
  subroutine test_in_place_misuse()
    real(c_double), target :: x(n), g(n * size)
    integer(c_int) :: info
    integer :: i, r
    type(c_ptr) :: ip
    ip = eccl_in_place()
    x = 1
    g = 2
    call eccl_bcast(ip, n, ECCL_FLOAT64, 0, bnd, comm, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'bcast of eccl_in_place(): ECCL_ERR_INVALID_ARG')
    call eccl_allreduce(c_loc(x), ip, n, ECCL_FLOAT64, ECCL_OP_SUM, bnd, comm, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'allreduce into eccl_in_place(): ECCL_ERR_INVALID_ARG')
    call eccl_allreduce(ip, ip, int(n, c_int64_t), ECCL_FLOAT64, ECCL_OP_SUM, bnd, comm, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'allreduce with both buffers in place: ECCL_ERR_INVALID_ARG')
    call eccl_reduce(c_loc(x), ip, n, ECCL_FLOAT64, ECCL_OP_SUM, 0, bnd, comm, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'reduce into eccl_in_place(): ECCL_ERR_INVALID_ARG')
    call eccl_reduce_scatter_block(c_loc(g), ip, n, ECCL_FLOAT64, ECCL_OP_SUM, bnd, comm, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'reduce_scatter_block into eccl_in_place(): ECCL_ERR_INVALID_ARG')
    call eccl_allgather(c_loc(x), ip, n, ECCL_FLOAT64, bnd, comm, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'allgather into eccl_in_place(): ECCL_ERR_INVALID_ARG')
    call eccl_scatter(ip, c_loc(x), n, ECCL_FLOAT64, 0, bnd, comm, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'scatter from eccl_in_place(): ECCL_ERR_INVALID_ARG')
    call eccl_gather(c_loc(x), ip, n, ECCL_FLOAT64, 0, bnd, comm, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'gather into eccl_in_place(): ECCL_ERR_INVALID_ARG')
    call eccl_sendrecv_replace(ip, n, ECCL_FLOAT64, mod(rank + 1, size), 5, &
      mod(rank - 1 + size, size), 5, bnd, comm, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'sendrecv_replace of eccl_in_place(): ECCL_ERR_INVALID_ARG')
    call check(all(x == 1) .and. all(g == 2), 'rejected in-place calls leave the buffers alone')
    ! where MPI accepts it, it still works: allgather with the send buffer in place
    g = -1
    g(rank * n + 1:(rank + 1) * n) = [(v(i, rank), i = 1, n)]
    call eccl_allgather(ip, c_loc(g), n, ECCL_FLOAT64, bnd, comm, info)
    call check(info == 0 .and. all(abs(g - [((v(i, r), i = 1, n), r = 0, size - 1)]) <= e), &
      'allgather with eccl_in_place() as the send buffer')
  end subroutine test_in_place_misuse

  ! A negative count in the array forms (doc/fortran.md, "Argument checks"): ECCL_ERR_INVALID_ARG
  ! from the wrapper on every rank, before any communication, buffers untouched.
  subroutine test_negative_counts()
    real(c_double) :: x(4), y(4 * size)
    complex(c_float_complex) :: z(4)
    integer(c_int) :: info, k, nbad
    x = 1
    y = 2
    z = (3.0, 0.0)
    nbad = 0
    do k = 1, 11
      select case (k)
      case (1); call eccl_bcast(x, -1, 0, bnd, comm, info)
      case (2); call eccl_allreduce(x, y, -1_c_int64_t, ECCL_OP_SUM, bnd, comm, info)
      case (3); call eccl_allreduce(z, -2, ECCL_OP_SUM, bnd, comm, info)
      case (4); call eccl_reduce(x, y, -1, ECCL_OP_SUM, 0, bnd, comm, info)
      case (5); call eccl_reduce(z, -1_c_int64_t, ECCL_OP_SUM, 0, bnd, comm, info)
      case (6); call eccl_reduce_scatter_block(y, x, -1, ECCL_OP_SUM, bnd, comm, info)
      case (7); call eccl_allgather(x, y, -1, bnd, comm, info)
      case (8); call eccl_scatter(y, x, -huge(0_c_int64_t), 0, bnd, comm, info)
      case (9); call eccl_gather(x, y, -1, 0, bnd, comm, info)
      case (10); call eccl_sendrecv_replace(x, -1, 0, 1, 0, 1, bnd, comm, info)
      case default; call eccl_allgather(c_null_ptr, c_null_ptr, -1, ECCL_FLOAT64, bnd, comm, info)
      end select
      if (info /= ECCL_ERR_INVALID_ARG) nbad = nbad + 1
    end do
    call check(nbad == 0, 'negative counts: ECCL_ERR_INVALID_ARG from every collective')
    call check(all(x == 1) .and. all(y == 2) .and. all(z == (3.0, 0.0)), &
      'negative counts leave the buffers alone')
  end subroutine test_negative_counts

end program test_fortran_coll
