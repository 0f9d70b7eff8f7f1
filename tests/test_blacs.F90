! test_blacs.F90 - the BLACS drop-ins of module eccl against the real BLACS calls, on a grid of
! NPROW x NPCOL processes in ORDER ('R' or 'C'):
!   eccl_[sdcz]gebs2d/gebr2d for scopes R, C, A (contiguous and lda > m), eccl_[sdcz]gsum2d
!   everywhere (rdest = -1) and onto one process, eccl_[sd]gamx2d/gamn2d (ldia = -1), scalar and
!   array-element arguments, the type(c_ptr) specifics (on host memory here: the same bits as
!   the array calls; device memory: tests/test_blacs_device.c), invalid arguments (INFO = -position), the grid's communicators,
!   totals, and a grid re-created after blacs_gridexit.
! Every element is checked against the bound; everything runs twice, with compression forced
! (ECCL_COMPRESS_ALWAYS) and with the defaults.  The per-type comparisons: test_blacs_cases.F90.
!
!   mpiexec -n 4 tests/test_blacs 2 2 R        exit status 0 pass, 1 fail
program test_blacs
  use, intrinsic :: iso_c_binding
  use mpi
  use eccl
  use blacs_cases
  implicit none

  integer :: nprocs, ierr, salt, k, nfail_all
  character :: order
  character(len=16) :: arg
  character, parameter :: scopes(3) = ['R', 'C', 'A']
  type(eccl_config) :: cfg
  integer, external :: blacs_pnum

  call MPI_Init(ierr)
  nprow = 2
  npcol = 2
  order = 'R'
  if (command_argument_count() >= 3) then
    call get_command_argument(1, arg)
    read (arg, *) nprow
    call get_command_argument(2, arg)
    read (arg, *) npcol
    call get_command_argument(3, arg)
    order = arg(1:1)
  end if
  call blacs_pinfo(iam, nprocs)
  if (nprocs < nprow * npcol) then
    if (iam == 0) print '(a, i0, a, i0, a, i0)', 'test_blacs: need ', nprow * npcol, &
      ' processes for a ', nprow, ' x ', npcol
    call MPI_Finalize(ierr)
    stop 1
  end if
  call blacs_get(-1, 0, ictxt)
  call blacs_gridinit(ictxt, order, nprow, npcol)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
  bound_ebs = eccl_bound_abs(ebs)
  bound_ebd = eccl_bound_abs(ebd)

  do pass = 1, 2
    if (pass == 1) then
      cfg%compress = ECCL_COMPRESS_ALWAYS
      call eccl_blacs_configure(ictxt, cfg, ierr)
    else
      call eccl_blacs_configure(ictxt, ierr)
    end if
    call check(ierr == 0, 'eccl_blacs_configure', ierr)
    salt = 0
    do k = 1, 3
      salt = salt + 1
      call bcast_s(scopes(k), 0, salt)
      call bcast_d(scopes(k), 3, salt)
      call bcast_c(scopes(k), 3, salt)
      call bcast_z(scopes(k), 0, salt)
      call bcast_d(scopes(k), 0, salt + 7)
      call sum_s(scopes(k), 2, salt, .true.)
      call sum_d(scopes(k), 0, salt, .true.)
      call sum_d(scopes(k), 1, salt, .false.)
      call sum_c(scopes(k), 0, salt, .false.)
      call sum_z(scopes(k), 5, salt, .true.)
      call sum_z(scopes(k), 0, salt + 1, .false.)
      call sum_s(scopes(k), 0, salt + 2, .false.)
      call amx_d(scopes(k), salt, .true.)
      call amx_s(scopes(k), salt, .false.)
      call amn_d(scopes(k), salt, .false.)
      call amn_s(scopes(k), salt, .true.)
    end do
    call scalars()
    call pointers()
  end do
  call invalid_arguments()
  call communicators()
  call totals()
  call regrid()

  call MPI_Allreduce(nfail, nfail_all, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (iam == 0) print '(a, i0, a, i0, a, i0, a, a)', 'test_blacs: ', nchecks, &
    ' checks on rank 0, ', nfail_all, ' failures over all ranks (grid ', nprow, ' x ', &
    trim(itoa(npcol)) // ', order ' // order // ')'
  call blacs_gridexit(ictxt)
  call blacs_exit(1)
  call MPI_Finalize(ierr)
  if (nfail_all > 0) stop 1

contains

  ! Scalars and array elements (the rank-0 specifics): a 1 x 1 broadcast over the grid and the
  ! start of an (m-1) x 1 block given as a(2, 1), as BLACS codes pass them.
  subroutine scalars()
    real(c_double) :: x, y(5, 2)
    integer :: info, i
    x = -1
    if (myrow == 0 .and. mycol == 0) x = 0.25_c_double
    if (myrow == 0 .and. mycol == 0) then
      call eccl_dgebs2d(ictxt, 'All', ' ', 1, 1, x, 1, bound_ebd, info)
    else
      call eccl_dgebr2d(ictxt, 'all', ' ', 1, 1, x, 1, 0, 0, bound_ebd, info)
    end if
    call check(info == 0 .and. abs(x - 0.25_c_double) <= ebd, 'scalar broadcast', info)
    y = 0
    if (mycol == 0) y(:, 1) = [(real(i, c_double), i = 1, 5)]
    if (mycol == 0) then
      call eccl_dgebs2d(ictxt, 'r', ' ', 4, 1, y(2, 1), 5, bound_ebd, info)
    else
      call eccl_dgebr2d(ictxt, 'r', ' ', 4, 1, y(2, 1), 5, myrow, 0, bound_ebd, info)
    end if
    call check(info == 0 .and. abs(y(1, 1)) == merge(1, 0, mycol == 0) .and. &
      all(abs(y(2:5, 1) - [2, 3, 4, 5]) <= ebd), 'array-element broadcast', info)
    x = 1
    call eccl_dgsum2d(ictxt, 'A', ' ', 1, 1, x, 1, -1, -1, bound_ebd, info)
    call check(info == 0 .and. abs(x - nprow * npcol) <= ebd, 'scalar sum', info)
  end subroutine scalars

  ! The type(c_ptr) specifics (what device arrays use) on host memory from c_loc: the same calls
  ! as with arrays, so the same bits; invalid arguments keep their positions.
  subroutine pointers()
    real(c_double), target :: x(7, 3), y(7, 3)
    real(c_float), target :: sx(4, 2), sy(4, 2)
    integer :: info, info2, i, j
    do j = 1, 3
      do i = 1, 7
        x(i, j) = sin(0.3_c_double * i + 1.7_c_double * j + myrow - 0.5_c_double * mycol)
      end do
    end do
    y = x
    if (mycol == 0) then
      call eccl_dgebs2d(ictxt, 'R', ' ', 5, 3, x, 7, bound_ebd, info)
      call eccl_dgebs2d(ictxt, 'R', ' ', 5, 3, c_loc(y), 7, bound_ebd, info2)
    else
      call eccl_dgebr2d(ictxt, 'R', ' ', 5, 3, x, 7, myrow, 0, bound_ebd, info)
      call eccl_dgebr2d(ictxt, 'R', ' ', 5, 3, c_loc(y), 7, myrow, 0, bound_ebd, info2)
    end if
    call check(info == 0 .and. info2 == 0 .and. all(x == y), 'c_ptr broadcast = array broadcast', info2)
    call eccl_dgsum2d(ictxt, 'C', ' ', 6, 2, x, 7, -1, -1, bound_ebd, info)
    call eccl_dgsum2d(ictxt, 'C', ' ', 6, 2, c_loc(y), 7, -1, -1, bound_ebd, info2)
    call check(info == 0 .and. info2 == 0 .and. all(x == y), 'c_ptr sum = array sum', info2)
    sx = real(x(1:4, 1:2), c_float)
    sy = sx
    call eccl_sgsum2d(ictxt, 'A', ' ', 4, 2, sx, 4, 0, 0, bound_ebs, info)
    call eccl_sgsum2d(ictxt, 'A', ' ', 4, 2, c_loc(sy), 4, 0, 0, bound_ebs, info2)
    call check(info == 0 .and. info2 == 0 .and. all(sx == sy), 'c_ptr sum onto (0,0) = array sum', info2)
    call eccl_dgebs2d(ictxt, 'R', ' ', 5, 3, c_loc(y), 4, bound_ebd, info)
    call check(info == -7, 'c_ptr: lda < m gives -7', info)
    call eccl_zgsum2d(ictxt, 'R', ' ', 1, 1, c_null_ptr, 1, -1, -1, bound_ebd, info)
    call check(info == -6, 'c_ptr: a null address gives -6', info)
  end subroutine pointers

  ! Invalid arguments return -position before any communication.
  subroutine invalid_arguments()
    real(c_double) :: a(8, 2)
    real(c_float) :: sa(8, 2)
    complex(c_double_complex) :: za(8, 2)
    integer :: info, ira, ica
    type(eccl_bound) :: bad
    a = 1
    sa = 1
    za = 1
    bad = eccl_bound_abs(-1.0_c_double)
    call eccl_dgebs2d(ictxt, 'X', ' ', 4, 2, a, 8, bound_ebd, info)
    call check(info == -2, 'scope X gives -2', info)
    call eccl_dgebs2d(ictxt, '', ' ', 4, 2, a, 8, bound_ebd, info)
    call check(info == -2, 'empty scope gives -2', info)
    call eccl_dgebs2d(-1, 'R', ' ', 4, 2, a, 8, bound_ebd, info)
    call check(info == -1, 'context -1 gives -1', info)
    call eccl_dgebs2d(ictxt + 977, 'R', ' ', 4, 2, a, 8, bound_ebd, info)
    call check(info == -1, 'unknown context gives -1', info)
    call eccl_dgebs2d(ictxt, 'R', ' ', -1, 2, a, 8, bound_ebd, info)
    call check(info == -4, 'm < 0 gives -4', info)
    call eccl_dgebs2d(ictxt, 'R', ' ', 4, -2, a, 8, bound_ebd, info)
    call check(info == -5, 'n < 0 gives -5', info)
    call eccl_dgebs2d(ictxt, 'R', ' ', 4, 2, a, 3, bound_ebd, info)
    call check(info == -7, 'lda < m gives -7', info)
    call eccl_dgebs2d(ictxt, 'R', ' ', 4, 2, a, 8, bad, info)
    call check(info == -8, 'bad bound gives -8 (gebs2d)', info)
    call eccl_dgebr2d(ictxt, 'C', ' ', 4, 2, a, 8, nprow, mycol, bound_ebd, info)
    call check(info == -8, 'rsrc out of the grid gives -8', info)
    call eccl_dgebr2d(ictxt, 'R', ' ', 4, 2, a, 8, myrow, -3, bound_ebd, info)
    call check(info == -9, 'csrc out of the grid gives -9', info)
    call eccl_dgebr2d(ictxt, 'R', ' ', 4, 2, a, 8, myrow, mycol, bound_ebd, info)
    call check(info == -9, 'receiving from oneself gives -9', info)
    call eccl_dgebr2d(ictxt, 'A', ' ', 4, 2, a, 8, modulo(myrow + 1, nprow), &
      modulo(mycol + 1, npcol), bad, info)
    call check(info == -10, 'bad bound gives -10 (gebr2d)', info)
    call eccl_dgsum2d(ictxt, 'A', ' ', 4, 2, a, 8, nprow, 0, bound_ebd, info)
    call check(info == -8, 'rdest out of the grid gives -8', info)
    call eccl_dgsum2d(ictxt, 'A', ' ', 4, 2, a, 8, 0, npcol + 4, bound_ebd, info)
    call check(info == -9, 'cdest out of the grid gives -9', info)
    call eccl_zgsum2d(ictxt, 'C', ' ', 4, 2, za, 8, -1, -1, bad, info)
    call check(info == -10, 'bad bound gives -10 (gsum2d)', info)
    call eccl_dgamx2d(ictxt, 'A', ' ', 4, 2, a, 8, ira, ica, 4, -1, -1, bound_ebd, info)
    call check(info == -10, 'ldia /= -1 gives -10', info)
    call eccl_dgamn2d(ictxt, 'A', ' ', 4, 2, a, 8, ira, ica, -1, 0, npcol, bound_ebd, info)
    call check(info == -12, 'cdest out of the grid gives -12 (gamn2d)', info)
    call eccl_sgamx2d(ictxt, 'A', ' ', 4, 2, sa, 8, ira, ica, -1, -1, -1, bad, info)
    call check(info == -13, 'bad bound gives -13 (gamx2d)', info)
    call check(all(a == 1) .and. all(sa == 1) .and. all(za == 1), 'invalid calls leave the data alone', 0)
  end subroutine invalid_arguments

  ! The grid's eccl communicators: ranks as documented, one object per scope.
  subroutine communicators()
    type(eccl_comm) :: row, col, all, row2
    integer :: info, fcomm, sz, rk
    call eccl_blacs_comm(ictxt, 'Row', row, info)
    call check(info == 0, 'eccl_blacs_comm R', info)
    call eccl_comm_info(row, fcomm, sz, rk, info)
    call check(info == 0 .and. sz == npcol .and. rk == mycol, &
      'row communicator: size npcol, rank mycol', rk)
    call eccl_blacs_comm(ictxt, 'c', col, info)
    call eccl_comm_info(col, fcomm, sz, rk, info)
    call check(info == 0 .and. sz == nprow .and. rk == myrow, &
      'column communicator: rank myrow', rk)
    call eccl_blacs_comm(ictxt, 'A', all, info)
    call eccl_comm_info(all, fcomm, sz, rk, info)
    call check(info == 0 .and. sz == nprow * npcol .and. rk == blacs_pnum(ictxt, myrow, mycol), &
      'grid communicator: rank blacs_pnum', rk)
    call eccl_blacs_comm(ictxt, 'R', row2, info)
    call check(c_associated(row%ptr, row2%ptr), 'one communicator per scope', 0)
    call eccl_blacs_comm(ictxt, 'Q', row2, info)
    call check(info == ECCL_ERR_INVALID_ARG, 'unknown scope: ECCL_ERR_INVALID_ARG', info)
  end subroutine communicators

  subroutine totals()
    type(eccl_blacs_totals) :: t, t2
    integer :: info, ctx1
    real(c_double) :: x(3, 2)
    call eccl_blacs_get_totals(ictxt, t, .true., info)
    call check(info == 0 .and. t%calls > 0 .and. t%calls_compressed > 0 .and. t%bytes_raw > 0, &
      'totals count the calls', int(t%calls))
    call eccl_blacs_get_totals(ictxt, t2, .false., info)
    call check(info == 0 .and. t2%calls == 0, 'totals reset', int(t2%calls))
    ! a broadcast within a one-process scope (a column of a 1 x P grid) sends nothing
    call blacs_get(-1, 0, ctx1)
    call blacs_gridinit(ctx1, 'R', 1, nprow * npcol)
    x = 1
    call eccl_dgebs2d(ctx1, 'C', ' ', 3, 2, x, 3, bound_ebd, info)
    call eccl_blacs_get_totals(ctx1, t, .true., info)
    call check(info == 0 .and. t%calls == 1 .and. t%bytes_raw == 0 .and. t%bytes_sent == 0, &
      'one-process scope: a broadcast counts no bytes', int(t%bytes_sent))
    call blacs_gridexit(ctx1)
  end subroutine totals

  ! blacs_gridexit frees the grid's eccl state (the context number is then reused): a new grid,
  ! transposed, must get fresh communicators.
  subroutine regrid()
    integer :: info, ctx2, nr, nc, r, c
    real(c_double) :: v(3)
    type(eccl_comm) :: row
    call blacs_gridexit(ictxt)
    call blacs_get(-1, 0, ctx2)
    call blacs_gridinit(ctx2, order, npcol, nprow)
    call blacs_gridinfo(ctx2, nr, nc, r, c)
    v = [1, 2, 3] * real(c + 1, c_double)
    call eccl_dgsum2d(ctx2, 'R', ' ', 3, 1, v, 3, -1, -1, bound_ebd, info)
    call check(info == 0 .and. all(abs(v - [1, 2, 3] * (nc * (nc + 1) / 2.0_c_double)) <= ebd), &
      'sum on a grid made after gridexit', info)
    call eccl_blacs_comm(ctx2, 'R', row, info)
    call eccl_comm_info(row, nr, nc, r, info)
    call check(nc == nprow, 'the new grid has its own row communicator', nc)
    ictxt = ctx2
  end subroutine regrid

end program test_blacs
