! pdgemm_plain - an ordinary ScaLAPACK program that knows nothing of eccl: C = A * B with PDGEMM
! on a BLACS grid, every local element of C checked against its exact value.
!
! It is the "unmodified binary" of doc/blacs-interposer.md: run it as it is, or with
! LD_PRELOAD=libeccl_blacs.so and ECCL_BLACS=abs:E, and give it the same E as its third argument:
! it then checks the a-priori bound of a product whose panels travelled with an absolute error of
! at most E per element (PBLAS broadcasts each panel of A and B once, from its owner):
!
!   |C(i,j) - sum_k A(i,k) B(k,j)| <= E (sum_k |A(i,k)| + sum_k |B(k,j)|) + K E^2
!                                     + 2 K u sum_k |A(i,k) B(k,j)|       (u: unit roundoff)
!
! With E = 0 (the default) only the rounding term remains.  The exact value is computed in
! quadruple precision from the double-precision entries of A and B.
!
! usage: mpiexec -n P ./pdgemm_plain [N [NB [E [kind [check]]]]]   (N = 512, NB = 64, E = 0)
!   kind smooth (default): smooth kernels, which compress well; random: uniform noise.
!   check (default) or nocheck: nocheck times PDGEMM only (for sizes where the quadruple-precision
!   check, O(N^3 / P) per process, would take too long).
! PDGEMM runs twice; the time printed is the second call's (the first one sets up whatever the
! BLACS underneath sets up on first use).
! Exit status: 0 every element within the bound, 1 some element outside, 2 bad arguments.
program pdgemm_plain
  implicit none
  integer, parameter :: dp = kind(1.0d0), qp = selected_real_kind(30)
  integer :: iam, nprocs, ictxt, nprow, npcol, myrow, mycol, info
  integer :: n, nb, mloc, nloc, lld, i, j, k, gi, gj, nbad, nbad_all, ia(1), ja(1)
  integer :: desca(9), descb(9), descc(9)
  real(dp), allocatable :: a(:,:), b(:,:), c(:,:), arow(:,:), bcol(:,:)
  real(dp) :: e, u, worst, worst_all, errmax, errmax_all, t0, t1
  real(qp) :: exact, bound, err
  real(dp) :: sad, sbd, sabd
  character(len=32) :: arg, kind_arg, check_arg
  integer, external :: numroc, indxl2g

  n = 512; nb = 64; e = 0.0_dp; kind_arg = 'smooth'; check_arg = 'check'
  if (command_argument_count() >= 1) then
    call get_command_argument(1, arg); read (arg, *, iostat=info) n
    if (info /= 0 .or. n < 1) call usage('N must be a whole number >= 1')
  end if
  if (command_argument_count() >= 2) then
    call get_command_argument(2, arg); read (arg, *, iostat=info) nb
    if (info /= 0 .or. nb < 1) call usage('NB must be a whole number >= 1')
  end if
  if (command_argument_count() >= 3) then
    call get_command_argument(3, arg); read (arg, *, iostat=info) e
    if (info /= 0 .or. e < 0.0_dp) call usage('E must be a number >= 0')
  end if
  if (command_argument_count() >= 4) then
    call get_command_argument(4, kind_arg)
    if (kind_arg /= 'smooth' .and. kind_arg /= 'random') call usage('kind must be smooth or random')
  end if
  if (command_argument_count() >= 5) then
    call get_command_argument(5, check_arg)
    if (check_arg /= 'check' .and. check_arg /= 'nocheck') call usage('check must be check or nocheck')
  end if

  call blacs_pinfo(iam, nprocs)
  nprow = int(sqrt(real(nprocs)))
  do while (mod(nprocs, nprow) /= 0)
    nprow = nprow - 1
  end do
  npcol = nprocs / nprow
  call blacs_get(-1, 0, ictxt)
  call blacs_gridinit(ictxt, 'Row-major', nprow, npcol)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)

  mloc = numroc(n, nb, myrow, 0, nprow)
  nloc = numroc(n, nb, mycol, 0, npcol)
  lld = max(1, mloc)
  call descinit(desca, n, n, nb, nb, 0, 0, ictxt, lld, info)
  call descinit(descb, n, n, nb, nb, 0, 0, ictxt, lld, info)
  call descinit(descc, n, n, nb, nb, 0, 0, ictxt, lld, info)
  allocate (a(lld, max(1, nloc)), b(lld, max(1, nloc)), c(lld, max(1, nloc)))
  do j = 1, nloc
    gj = indxl2g(j, nb, mycol, 0, npcol)
    do i = 1, mloc
      gi = indxl2g(i, nb, myrow, 0, nprow)
      a(i, j) = fa(gi, gj)
      b(i, j) = fb(gi, gj)
    end do
  end do
  c = 0.0_dp

  call blacs_barrier(ictxt, 'All')
  call pdgemm('N', 'N', n, n, n, 1.0_dp, a, 1, 1, desca, b, 1, 1, descb, 0.0_dp, c, 1, 1, descc)
  call blacs_barrier(ictxt, 'All')
  t0 = wtime()
  call pdgemm('N', 'N', n, n, n, 1.0_dp, a, 1, 1, desca, b, 1, 1, descb, 0.0_dp, c, 1, 1, descc)
  call blacs_barrier(ictxt, 'All')
  t1 = wtime()

  nbad = 0; worst = 0.0_dp; errmax = 0.0_dp
  if (check_arg == 'check') then
  ! every local element against its exact value and its bound: my rows of A and columns of B
  ! in full, as PDGEMM saw them (double), multiplied in quadruple precision
  allocate (arow(max(1, mloc), n), bcol(n, max(1, nloc)))
  do k = 1, n
    do i = 1, mloc
      arow(i, k) = fa(indxl2g(i, nb, myrow, 0, nprow), k)
    end do
  end do
  do j = 1, nloc
    do k = 1, n
      bcol(k, j) = fb(k, indxl2g(j, nb, mycol, 0, npcol))
    end do
  end do
  u = epsilon(1.0_dp) / 2
  nbad = 0; worst = 0.0_dp; errmax = 0.0_dp
  do j = 1, nloc
    sbd = sum(abs(bcol(:, j)))
    do i = 1, mloc
      ! the exact value in quadruple precision; the bound's sums in double (they only scale E
      ! and the rounding allowance, and are rounded up by the factor 1 + 1e-12)
      exact = 0
      sabd = 0
      do k = 1, n
        exact = exact + real(arow(i, k), qp) * real(bcol(k, j), qp)
        sabd = sabd + abs(arow(i, k) * bcol(k, j))
      end do
      sad = sum(abs(arow(i, :)))
      bound = real((e * (sad + sbd) + n * e**2 + 2 * n * u * sabd) * (1 + 1e-12_dp), qp)
      err = abs(real(c(i, j), qp) - exact)
      if (err > bound) nbad = nbad + 1
      errmax = max(errmax, real(err, dp))
      if (bound > 0) worst = max(worst, real(err / bound, dp))
    end do
  end do
  deallocate (arow, bcol)
  end if
  call igsum2d(ictxt, 'All', ' ', 1, 1, nbad, 1, -1, -1)
  nbad_all = nbad
  worst_all = worst; errmax_all = errmax
  call dgamx2d(ictxt, 'All', ' ', 1, 1, worst_all, 1, ia, ja, -1, -1, -1)
  call dgamx2d(ictxt, 'All', ' ', 1, 1, errmax_all, 1, ia, ja, -1, -1, -1)
  if (iam == 0) then
    write (*, '(a,i0,a,i0,a,i0,a,i0,a,a,a,es9.2)') 'pdgemm_plain: N = ', n, ', NB = ', nb, &
      ', grid ', nprow, ' x ', npcol, ', ', trim(kind_arg), ' data, E = ', e
    write (*, '(a,f9.4,a)') 'pdgemm_plain: PDGEMM took ', t1 - t0, ' s'
    if (check_arg == 'check') then
      write (*, '(a,es10.3,a,f7.4,a)') 'pdgemm_plain: largest error ', errmax_all, &
        ' = ', worst_all, ' of its element''s bound'
      write (*, '(a,i0,a,i0,a)') 'pdgemm_plain: ', nbad_all, ' of ', int(n, 8) * n, ' elements outside the bound'
    else
      write (*, '(a)') 'pdgemm_plain: C not checked (nocheck)'
    end if
  end if
  deallocate (a, b, c)
  call blacs_gridexit(ictxt)
  call blacs_exit(0) ! finalizes MPI
  if (nbad_all > 0) stop 1

contains

  ! The entries, in double precision: the check needs the exact product of the doubles PDGEMM
  ! multiplies, not of the formulas.
  real(dp) function fa(i, j)
    integer, intent(in) :: i, j
    if (kind_arg == 'random') then
      fa = hash01(i, j, 1)
    else
      fa = exp(-real(i - j, dp)**2 / real(n, dp)) + 0.5_dp * sin(0.01_dp * i) * cos(0.02_dp * j)
    end if
  end function fa

  real(dp) function fb(i, j)
    integer, intent(in) :: i, j
    if (kind_arg == 'random') then
      fb = hash01(i, j, 2)
    else
      fb = 1 / (1 + 0.001_dp * real(i + j, dp)) + 0.25_dp * cos(0.015_dp * i * j / n)
    end if
  end function fb

  ! A reproducible number in [-1, 1) from (i, j, s), the same on every process.
  real(dp) function hash01(i, j, s)
    integer, intent(in) :: i, j, s
    integer(8) :: h
    h = int(i, 8) * 73856093_8 + int(j, 8) * 19349663_8 + int(s, 8) * 83492791_8
    h = modulo(h * 2654435761_8 + 12345_8, 2147483647_8)
    hash01 = 2 * real(h, dp) / 2147483647.0_dp - 1
  end function hash01

  real(dp) function wtime()
    integer(8) :: cnt, rate
    call system_clock(cnt, rate)
    wtime = real(cnt, dp) / real(rate, dp)
  end function wtime

  subroutine usage(msg)
    character(len=*), intent(in) :: msg
    write (0, '(a)') 'pdgemm_plain: ' // msg
    write (0, '(a)') 'usage: mpiexec -n P ./pdgemm_plain [N [NB [E [smooth|random [check|nocheck]]]]]'
    stop 2
  end subroutine usage
end program pdgemm_plain
