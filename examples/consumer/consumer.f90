! consumer.f90 - the smallest Fortran program against an installed eccl (doc/install.md): every
! rank contributes a smooth float64 field, eccl_allreduce sums them with an absolute bound, and
! every rank checks every element of the sum against the exact sum and the bound.
!
!   make -f examples/consumer/Makefile            (pkg-config)  or CMakeLists.txt (find_package)
!   mpiexec -n 2 ./consumer_f                     prints "consumer_f: OK ..."; exit status 1 when
!                                                 an element is outside the bound or a call fails
program consumer_f
  use, intrinsic :: iso_c_binding
  use mpi
  use eccl
  implicit none

  integer, parameter :: n = 100000             ! 800 KB per rank
  real(c_double), parameter :: e = 1.0e-6_c_double   ! ABS bound of the sum
  ! the rounding of the sum in float64 (doc/collectives.md section 3), far below the bound
  real(c_double), parameter :: rounding = 1.0e-12_c_double
  real(c_double), allocatable :: x(:), y(:)
  real(c_double) :: exact, err, maxerr, maxerr_all
  integer :: i, r, rank, nranks, ierr, info, nbad, nbad_all
  type(eccl_comm) :: comm
  type(eccl_config) :: cfg
  type(eccl_stats) :: st
  character(len=16) :: how

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)

  ! ALWAYS: compress even where the cost model would send the raw array (one node), so that the
  ! bound is exercised; applications leave the default, AUTO.
  cfg%compress = ECCL_COMPRESS_ALWAYS
  call eccl_comm_create(MPI_COMM_WORLD, cfg, comm, info)
  if (info /= ECCL_SUCCESS) then
    print '(a, i0, 2a)', 'consumer_f: rank ', rank, ': eccl_comm_create: ', eccl_strerror(info)
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if

  allocate(x(n), y(n))
  x = [(v(i, rank), i = 1, n)]
  y = 0
  nbad = 0
  call eccl_allreduce(x, y, n, ECCL_OP_SUM, eccl_bound_abs(e), comm, info)
  if (info /= ECCL_SUCCESS) then
    print '(a, i0, 4a)', 'consumer_f: rank ', rank, ': eccl_allreduce: ', eccl_strerror(info), &
      ' ', eccl_comm_last_error(comm)
    nbad = 1
  end if
  call eccl_comm_last_stats(comm, st, ierr)

  maxerr = 0
  if (nbad == 0) then
    do i = 1, n
      exact = sum([(v(i, r), r = 0, nranks - 1)])
      err = abs(y(i) - exact)
      maxerr = max(maxerr, err)
      if (.not. (err <= e + rounding)) then          ! also catches NaN
        if (nbad < 5) print '(a, i0, a, i0, a, es24.16, a, es24.16)', 'consumer_f: rank ', rank, &
          ': y(', i, ') = ', y(i), ', exact ', exact
        nbad = nbad + 1
      end if
    end do
  end if

  call MPI_Allreduce(nbad, nbad_all, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  call MPI_Allreduce(maxerr, maxerr_all, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD, ierr)
  if (rank == 0) then
    if (nbad_all > 0) then
      print '(a, i0, a)', 'consumer_f: FAILED: eccl_allreduce on ', nranks, &
        ' ranks (see the messages above)'
    else
      how = 'not compressed'
      if (st%compressed /= 0) how = 'compressed'
      print '(a, i0, a, i0, 3a, f0.2, a, es9.3, a, es9.3)', 'consumer_f: OK: eccl_allreduce SUM of ', &
        n, ' float64 on ', nranks, ' ranks, ', trim(how), ' (ratio ', st%ratio, '), max error ', &
        maxerr_all, ' <= bound ', e
    end if
  end if
  deallocate(x, y)
  call eccl_comm_free(comm, info)
  call MPI_Finalize(ierr)
  if (nbad_all > 0) stop 1

contains

  ! rank r's element i: smooth, different on every rank
  pure function v(i, r) result(val)
    integer, intent(in) :: i, r
    real(c_double) :: val
    real(c_double) :: t
    t = real(i, c_double) / n
    val = sin(20 * t + r) + 0.25_c_double * r
  end function v

end program consumer_f
