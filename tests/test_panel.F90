! test_panel.F90 - eccl_panel_bcast_col / eccl_panel_bcast_row on an NPROW x NPCOL grid in ORDER:
! every panel of matrices with MB /= NB, RSRC/CSRC /= 0, ragged last blocks, LLD larger than the
! local rows, sub-matrices starting inside a block (partial first panels), contiguous and strided
! workspaces, rank-1 and rank-2 local arrays, type(c_ptr) arguments and the four data types; each received element is
! compared with the global matrix it came from, within the bound.  Then invalid arguments and
! descriptors (ScaLAPACK INFO codes, the same on every process of a row or column, also when only
! one process holds the bad value) and arguments that differ between processes (ECCL_ERR_MISMATCH).
!
!   mpiexec -n 4 tests/test_panel 2 2 R        exit status 0 pass, 1 fail
program test_panel
  use, intrinsic :: iso_c_binding
  use mpi
  use eccl
  implicit none

  integer :: ictxt, nprow, npcol, myrow, mycol, iam, nprocs, ierr, k
  integer :: nchecks = 0, nfail = 0, nfail_all
  character :: order
  character(len=16) :: arg
  real(c_double), parameter :: eb = 1.0e-6_c_double
  type(eccl_bound) :: bound
  type(eccl_config) :: cfg
  integer, external :: numroc, indxl2g
  ! test matrices: M, N, MB, NB, RSRC, CSRC, extra LLD
  integer, parameter :: ncase = 5
  integer, parameter :: cases(7, ncase) = reshape([ &
    23, 19, 4, 3, 0, 0, 0, &
    37, 41, 5, 7, 1, 1, 3, &
    30, 17, 8, 2, 1, 0, 1, &
    9, 50, 2, 5, 0, 1, 0, &
    64, 64, 16, 16, 1, 1, 2], [7, ncase])

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
    if (iam == 0) print '(a)', 'test_panel: not enough processes for the grid'
    call MPI_Finalize(ierr)
    stop 1
  end if
  call blacs_get(-1, 0, ictxt)
  call blacs_gridinit(ictxt, order, nprow, npcol)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)
  bound = eccl_bound_abs(eb)
  cfg%compress = ECCL_COMPRESS_ALWAYS
  call eccl_blacs_configure(ictxt, cfg, ierr)

  do k = 1, ncase
    call all_panels(cases(:, k), 1, 1, cases(1, k), cases(2, k), 0)
    call all_panels(cases(:, k), 3, 2, cases(1, k) - 4, cases(2, k) - 3, 2)
    call all_panels(cases(:, k), cases(5, k) + 2, cases(6, k) + 5, 5, 4, 1)
  end do
  call rank1_arrays()
  call pointers()
  call other_types()
  call invalid()
  call mismatch()

  call MPI_Allreduce(nfail, nfail_all, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, ierr)
  if (iam == 0) print '(a, i0, a, i0, a, i0, a, i0, 3a)', 'test_panel: ', nchecks, &
    ' checks on rank 0, ', nfail_all, ' failures over all ranks (grid ', nprow, ' x ', npcol, &
    ', order ', order, ')'
  call blacs_gridexit(ictxt)
  call blacs_exit(1)
  call MPI_Finalize(ierr)
  if (nfail_all > 0) stop 1

contains

  subroutine check(ok, what, detail)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer, intent(in) :: detail
    nchecks = nchecks + 1
    if (.not. ok) then
      nfail = nfail + 1
      if (nfail <= 20) print '(a, i0, a, i0, a, i0, 3a, i0, a)', '[rank ', iam, ' (', myrow, ',', &
        mycol, ')] FAIL: ', what, ' (', detail, ')'
    end if
  end subroutine check

  ! The global matrix: smooth plus a little noise.
  pure function f(i, j) result(v)
    integer, intent(in) :: i, j
    real(c_double) :: v, t
    t = sin(12.9898_c_double * i + 78.233_c_double * j) * 43758.5453_c_double
    v = sin(0.1_c_double * i) * cos(0.07_c_double * j) + 0.01_c_double * (t - floor(t))
  end function f

  ! A descriptor and the local part of the global matrix f for case c (LLD with its extra rows).
  subroutine make(c, desc, a)
    integer, intent(in) :: c(7)
    integer, intent(out) :: desc(9)
    real(c_double), allocatable, intent(out) :: a(:, :)
    integer :: mloc, nloc, lld, info, il, jl
    mloc = numroc(c(1), c(3), myrow, c(5), nprow)
    nloc = numroc(c(2), c(4), mycol, c(6), npcol)
    lld = max(1, mloc) + c(7)
    call descinit(desc, c(1), c(2), c(3), c(4), c(5), c(6), ictxt, lld, info)
    call check(info == 0, 'descinit', info)
    allocate(a(lld, max(1, nloc)))
    a = -999
    do jl = 1, nloc
      do il = 1, mloc
        a(il, jl) = f(indxl2g(il, c(3), myrow, c(5), nprow), indxl2g(jl, c(4), mycol, c(6), npcol))
      end do
    end do
  end subroutine make

  ! Every column panel of sub(A) = A(ia:ia+m-1, ja:ja+n-1) and every row panel of the same
  ! sub-matrix, with a workspace padded by `pad` rows.
  subroutine all_panels(c, ia, ja, m, n, pad)
    integer, intent(in) :: c(7), ia, ja, m, n, pad
    integer :: desc(9), mloc, nloc, lr0, lc0, j, kb, info, il, jl, ldw
    real(c_double), allocatable :: a(:, :), w(:, :)
    call make(c, desc, a)
    ! column panels: work is mloc x kb
    mloc = eccl_desc_local_rows(m, ia, desc)
    lr0 = numroc(ia - 1, c(3), myrow, c(5), nprow)
    call check(mloc == numroc(ia + m - 1, c(3), myrow, c(5), nprow) - lr0, 'eccl_desc_local_rows', mloc)
    ldw = max(1, mloc) + pad
    allocate(w(ldw, c(4)))
    j = ja
    do while (j <= ja + n - 1)
      kb = eccl_panel_width(j, c(4), ja + n - j)
      w = 5555
      call eccl_panel_bcast_col(m, kb, a, ia, j, desc, w, ldw, bound, info)
      call check(info == 0, 'eccl_panel_bcast_col info', info)
      do jl = 1, kb
        do il = 1, mloc
          call check(abs(w(il, jl) - f(indxl2g(lr0 + il, c(3), myrow, c(5), nprow), j + jl - 1)) <= eb, &
            'column panel within the bound', j)
        end do
        do il = mloc + 1, ldw
          call check(w(il, jl) == 5555, 'column panel leaves the padding alone', il)
        end do
      end do
      j = j + kb
    end do
    deallocate(w)
    ! row panels: work is kb x nloc
    nloc = eccl_desc_local_cols(n, ja, desc)
    lc0 = numroc(ja - 1, c(4), mycol, c(6), npcol)
    call check(nloc == numroc(ja + n - 1, c(4), mycol, c(6), npcol) - lc0, 'eccl_desc_local_cols', nloc)
    ldw = c(3) + pad
    allocate(w(ldw, max(1, nloc)))
    j = ia
    do while (j <= ia + m - 1)
      kb = eccl_panel_width(j, c(3), ia + m - j)
      w = 5555
      call eccl_panel_bcast_row(kb, n, a, j, ja, desc, w, ldw, bound, info)
      call check(info == 0, 'eccl_panel_bcast_row info', info)
      do jl = 1, nloc
        do il = 1, kb
          call check(abs(w(il, jl) - f(j + il - 1, indxl2g(lc0 + jl, c(4), mycol, c(6), npcol))) <= eb, &
            'row panel within the bound', j)
        end do
        do il = kb + 1, ldw
          call check(w(il, jl) == 5555, 'row panel leaves the padding alone', il)
        end do
      end do
      j = j + kb
    end do
  end subroutine all_panels

  ! Local arrays and workspaces stored as rank-1 arrays (leading dimensions LLD and ldw).
  subroutine rank1_arrays()
    integer :: desc(9), c(7), info, mloc, lr0, il, jl, ldw
    real(c_double), allocatable :: a(:, :), a1(:), w1(:)
    c = [21, 14, 3, 4, 1, 0, 2]
    call make(c, desc, a)
    allocate(a1(size(a)))
    a1(:) = reshape(a, [size(a)])
    mloc = eccl_desc_local_rows(21 - 1, 2, desc)
    lr0 = numroc(1, 3, myrow, 1, nprow)
    ldw = mloc + 1
    allocate(w1(ldw * 2))
    w1 = 5555
    ! columns 6:7 lie in the second block column (NB = 4)
    call eccl_panel_bcast_col(21 - 1, 2, a1, 2, 6, desc, w1, ldw, bound, info)
    call check(info == 0, 'rank-1 column panel info', info)
    do jl = 1, 2
      do il = 1, mloc
        call check(abs(w1(il + (jl - 1) * ldw) - f(indxl2g(lr0 + il, 3, myrow, 1, nprow), 5 + jl)) <= eb, &
          'rank-1 column panel within the bound', il)
      end do
    end do
  end subroutine rank1_arrays

  ! The type(c_ptr) specifics (what device arrays use; host memory here): the same elements as
  ! the array call, bit for bit, and the dtype's INFO position (-10) as in C.
  subroutine pointers()
    integer :: desc(9), c(7), info, mloc, nloc, ldw
    real(c_double), allocatable, target :: a(:, :), w(:, :), w2(:, :)
    c = [26, 18, 4, 3, 1, 1, 1]
    call make(c, desc, a)
    mloc = max(1, eccl_desc_local_rows(26 - 2, 3, desc))
    allocate(w(mloc, 2), w2(mloc, 2))
    w = 0
    w2 = 1
    call eccl_panel_bcast_col(26 - 2, 2, a, 3, 5, desc, w, mloc, bound, info)
    call eccl_panel_bcast_col(26 - 2, 2, c_loc(a), 3, 5, desc, c_loc(w2), mloc, bound, ECCL_FLOAT64, info)
    call check(info == 0 .and. all(w == w2), 'c_ptr column panel = array panel', info)
    nloc = max(1, eccl_desc_local_cols(18 - 1, 2, desc))
    ldw = 3
    deallocate(w, w2)
    allocate(w(ldw, nloc), w2(ldw, nloc))
    w = 0
    w2 = 1
    call eccl_panel_bcast_row(2, 18 - 1, a, 6, 2, desc, w, ldw, bound, info)
    call eccl_panel_bcast_row(2, 18 - 1, c_loc(a), 6, 2, desc, c_loc(w2), ldw, bound, ECCL_FLOAT64, info)
    call check(info == 0 .and. all(w(1:2, :) == w2(1:2, :)), 'c_ptr row panel = array panel', info)
    call eccl_panel_bcast_row(2, 18 - 1, c_loc(a), 6, 2, desc, c_loc(w2), ldw, bound, 77, info)
    call check(info == -10, 'c_ptr panel: a bad dtype gives -10', info)
  end subroutine pointers

  ! One panel of each other data type (real(c_float), complex kinds), partial first block.
  subroutine other_types()
    integer :: desc(9), c(7), info, mloc, lr0, il, jl
    real(c_double), allocatable :: a(:, :)
    real(c_float), allocatable :: s(:, :), ws(:, :)
    complex(c_float_complex), allocatable :: cc(:, :), wc(:, :)
    complex(c_double_complex), allocatable :: z(:, :), wz(:, :)
    real(c_double) :: g
    c = [26, 18, 4, 5, 1, 1, 1]
    call make(c, desc, a)
    allocate(s(size(a, 1), size(a, 2)), cc(size(a, 1), size(a, 2)), z(size(a, 1), size(a, 2)))
    s(:, :) = real(a, c_float)
    cc(:, :) = cmplx(a, -2 * a, c_float)
    z(:, :) = cmplx(a, 3 * a, c_double)
    mloc = eccl_desc_local_rows(20, 4, desc)
    lr0 = numroc(3, 4, myrow, 1, nprow)
    allocate(ws(max(1, mloc), 3), wc(max(1, mloc), 3), wz(max(1, mloc), 3))
    ! columns 8:10 are the end of the block column 6:10
    call eccl_panel_bcast_col(20, 3, s, 4, 8, desc, ws, max(1, mloc), eccl_bound_abs(1.0e-3_c_double), info)
    call check(info == 0, 'float panel info', info)
    call eccl_panel_bcast_col(20, 3, cc, 4, 8, desc, wc, max(1, mloc), eccl_bound_abs(1.0e-3_c_double), info)
    call check(info == 0, 'complex64 panel info', info)
    call eccl_panel_bcast_col(20, 3, z, 4, 8, desc, wz, max(1, mloc), bound, info)
    call check(info == 0, 'complex128 panel info', info)
    do jl = 1, 3
      do il = 1, mloc
        g = f(indxl2g(lr0 + il, 4, myrow, 1, nprow), 7 + jl)
        call check(abs(ws(il, jl) - real(g, c_float)) <= 1.0e-3, 'float panel within the bound', il)
        call check(abs(real(wc(il, jl)) - real(g, c_float)) <= 1.0e-3 .and. &
          abs(aimag(wc(il, jl)) + 2 * real(g, c_float)) <= 1.0e-3, 'complex64 panel within the bound', il)
        call check(abs(real(wz(il, jl)) - g) <= eb .and. abs(aimag(wz(il, jl)) - 3 * g) <= eb, &
          'complex128 panel within the bound', il)
      end do
    end do
  end subroutine other_types

  ! Invalid arguments and descriptors give ScaLAPACK-style INFO codes.
  subroutine invalid()
    integer :: desc(9), bad(9), c(7), info, mloc, expect
    real(c_double), allocatable :: a(:, :), w(:, :)
    c = [20, 20, 4, 4, 0, 0, 0]
    call make(c, desc, a)
    mloc = eccl_desc_local_rows(20, 1, desc)
    allocate(w(20, 20))
    bad = desc
    bad(1) = 2
    call expect_col(bad, 20, 4, 1, 1, max(1, mloc), -601, 'DTYPE')
    bad = desc
    bad(2) = -1
    call expect_col(bad, 20, 4, 1, 1, max(1, mloc), -602, 'CTXT')
    bad = desc
    bad(3) = -5
    call expect_col(bad, 20, 4, 1, 1, max(1, mloc), -603, 'M < 0')
    bad = desc
    bad(5) = 0
    call expect_col(bad, 20, 4, 1, 1, max(1, mloc), -605, 'MB < 1')
    bad = desc
    bad(6) = 0
    call expect_col(bad, 20, 4, 1, 1, max(1, mloc), -606, 'NB < 1')
    bad = desc
    bad(7) = nprow
    call expect_col(bad, 20, 4, 1, 1, max(1, mloc), -607, 'RSRC')
    bad = desc
    bad(8) = -1
    call expect_col(bad, 20, 4, 1, 1, max(1, mloc), -608, 'CSRC')
    bad = desc
    bad(9) = 0
    call expect_col(bad, 20, 4, 1, 1, max(1, mloc), -609, 'LLD < 1')
    call expect_col(desc, -1, 4, 1, 1, max(1, mloc), -1, 'm < 0')
    call expect_col(desc, 20, 5, 1, 1, max(1, mloc), -2, 'kb wider than the block column')
    call expect_col(desc, 20, 3, 1, 3, max(1, mloc), -2, 'kb past the block column of ja')
    call expect_col(desc, 20, 2, 0, 1, max(1, mloc), -4, 'ia < 1')
    call expect_col(desc, 20, 2, 1, 21, max(1, mloc), -5, 'ja > N')
    call expect_col(desc, 18, 2, 4, 1, max(1, mloc), -1, 'ia+m-1 > M')
    if (mloc > 1) call expect_col(desc, 20, 2, 1, 1, mloc - 1, -8, 'ldw < local rows')
    ! a bad LLD on process (0,0) only: its whole process row reports it, the others succeed
    bad = desc
    if (myrow == 0 .and. mycol == 0) bad(9) = 1
    expect = merge(-609, 0, myrow == 0 .and. mloc > 1)
    call expect_col(bad, 20, 4, 1, 1, max(1, mloc), expect, 'LLD too small on one process')
    ! the same for a row panel: the process column of (0,0) agrees
    call eccl_panel_bcast_row(4, 20, a, 1, 1, bad, w, 4, bound, info)
    expect = merge(-609, 0, mycol == 0)
    call check(info == expect, 'row panel: LLD too small on one process', info)
    call eccl_panel_bcast_row(4, 20, a, 1, 1, desc, w, 3, bound, info)
    call check(info == -8, 'row panel: ldw < kb', info)
    call eccl_panel_bcast_row(4, 20, a, 1, 1, desc, w, 4, eccl_bound_rel(-1.0_c_double), info)
    call check(info == -9, 'row panel: bad bound', info)
  end subroutine invalid

  subroutine expect_col(desc, m, kb, ia, ja, ldw, expect, what)
    integer, intent(in) :: desc(9), m, kb, ia, ja, ldw, expect
    character(len=*), intent(in) :: what
    real(c_double) :: a(max(1, desc(9)), 8), w(max(1, ldw), 8)
    integer :: info
    a = 0
    call eccl_panel_bcast_col(m, kb, a, ia, ja, desc, w, ldw, bound, info)
    call check(info == expect, 'column panel: ' // what, info)
  end subroutine expect_col

  ! One process passes a different ia: its process row returns ECCL_ERR_MISMATCH, no one hangs.
  subroutine mismatch()
    integer :: desc(9), c(7), info, ia, mloc
    real(c_double), allocatable :: a(:, :), w(:, :)
    c = [20, 20, 4, 4, 0, 0, 0]
    call make(c, desc, a)
    allocate(w(20, 4))
    ia = 1
    if (myrow == nprow - 1 .and. mycol == npcol - 1) ia = 2
    mloc = eccl_desc_local_rows(16, ia, desc)
    call eccl_panel_bcast_col(16, 4, a, ia, 1, desc, w, 20, bound, info)
    call check(info == merge(ECCL_ERR_MISMATCH, 0, myrow == nprow - 1), 'mismatch within a row', info)
    call check(mloc >= 0, 'local rows', mloc)
  end subroutine mismatch

end program test_panel
