! matmul_common.f90 - what examples/summa.f90 and examples/cannon.f90 share: the test matrices and
! the element-by-element check of a product against PDGEMM and the a-priori bound.
!
! The bound.  Every element of A and B that the product used is within eb_a (eb_b) of the
! original, so for each element of C
!   |C_eccl - C_exact|(i,j) <= D(i,j) = eb_a*sum_k |B(k,j)| + eb_b*sum_k |A(i,k)| + K*eb_a*eb_b.
! Both products are computed in floating point: each differs from the exact product of its own
! operands by at most gamma_K * sum_k |a(i,k)||b(k,j)| (gamma_K = K*u/(1 - K*u), u = 2^-53; this
! holds for any summation order, blocked or not, with or without FMA).  For PDGEMM the sum is
! P(i,j) = (|A||B|)(i,j); for the perturbed operands it is at most P + D.  So
!   |C_eccl - C_pdgemm| <= D + gamma_K*(2P + D).
! P, the row sums of |A| and the column sums of |B| are themselves computed in floating point
! (PDGEMM on |A| and |B|, BLACS sums), each within a relative gamma_K; the check uses
!   allow(i,j) = (D + g*(2P + D)) * (1 + g),   g = 2K*u/(1 - 2K*u) >= gamma_K,
! so the allowance can only be larger than the rigorous one.
module matmul_common
  use, intrinsic :: iso_c_binding
  use mpi
  implicit none
  private

  public :: matrix_name, fill_local, check_product, allmax, allsum

  integer, external :: numroc, indxl2g

contains

  function matrix_name(kind) result(s)
    integer, intent(in) :: kind
    character(len=:), allocatable :: s
    if (kind == 1) then
      s = 'smooth kernels A(i,k) = exp(-|x_i - y_k|/0.1), B(k,j) = exp(-|y_k - z_j|/0.2), ' // &
        'points uniform on [0,1]'
    else
      s = 'uniform random in [-1, 1)'
    end if
  end function matrix_name

  pure real(c_double) function pt(i, len)
    integer, intent(in) :: i, len
    pt = real(i - 1, c_double) / real(max(len - 1, 1), c_double)
  end function pt

  ! Element (i, j) of the global A (which = 1) or B (which = 2) of rows x cols.
  pure real(c_double) function entry(kind, which, i, j, rows, cols)
    integer, intent(in) :: kind, which, i, j, rows, cols
    real(c_double) :: t
    if (kind == 1) then
      entry = exp(-abs(pt(i, rows) - pt(j, cols)) / (0.1_c_double * which))
    else
      t = sin(12.9898_c_double * i + 78.233_c_double * j + 3.1_c_double * which) * 43758.5453_c_double
      entry = 2 * (t - floor(t)) - 1
    end if
  end function entry

  ! The local part of the global matrix desc describes (RSRC = CSRC = 0 not assumed).
  subroutine fill_local(kind, which, x, desc)
    integer, intent(in) :: kind, which, desc(9)
    real(c_double), intent(out) :: x(desc(9), *)
    integer :: nprow, npcol, myrow, mycol, il, jl, mloc, nloc
    call blacs_gridinfo(desc(2), nprow, npcol, myrow, mycol)
    mloc = numroc(desc(3), desc(5), myrow, desc(7), nprow)
    nloc = numroc(desc(4), desc(6), mycol, desc(8), npcol)
    do jl = 1, nloc
      do il = 1, mloc
        x(il, jl) = entry(kind, which, indxl2g(il, desc(5), myrow, desc(7), nprow), &
          indxl2g(jl, desc(6), mycol, desc(8), npcol), desc(3), desc(4))
      end do
    end do
  end subroutine fill_local

  real(c_double) function allmax(x, comm)
    real(c_double), intent(in) :: x
    integer, intent(in) :: comm
    real(c_double) :: v(1)
    integer :: ierr
    v(1) = x
    call MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE_PRECISION, MPI_MAX, comm, ierr)
    allmax = v(1)
  end function allmax

  real(c_double) function allsum(x, comm)
    real(c_double), intent(in) :: x
    integer, intent(in) :: comm
    real(c_double) :: v(1)
    integer :: ierr
    v(1) = x
    call MPI_Allreduce(MPI_IN_PLACE, v, 1, MPI_DOUBLE_PRECISION, MPI_SUM, comm, ierr)
    allsum = v(1)
  end function allsum

  ! Compare the local C (ldc, the local part of C as descc distributes it) with cref, computed by
  ! PDGEMM from the same A and B, against the bound above.  Over the grid's communicator comm:
  ! st = [max |C - Cref|, largest allowance, max |C - Cref| / allowance, max |Cref|], nviol = the
  ! number of elements over their allowance.  a and b are overwritten with |A| and |B|.
  subroutine check_product(a, desca, b, descb, c, ldc, cref, descc, eb_a, eb_b, comm, st, nviol)
    integer, intent(in) :: desca(9), descb(9), descc(9), ldc, comm
    real(c_double), intent(inout) :: a(desca(9), *), b(descb(9), *)
    real(c_double), intent(in) :: c(ldc, *), cref(descc(9), *)
    real(c_double), intent(in) :: eb_a, eb_b
    real(c_double), intent(out) :: st(4), nviol
    real(c_double), allocatable :: p(:, :), sa(:), sb(:)
    integer :: nprow, npcol, myrow, mycol, ma, na, mb, nb, mc, nc, il, jl, kk, ierr
    real(c_double) :: g, d, allow, diff
    call blacs_gridinfo(descc(2), nprow, npcol, myrow, mycol)
    ma = numroc(desca(3), desca(5), myrow, desca(7), nprow)
    na = numroc(desca(4), desca(6), mycol, desca(8), npcol)
    mb = numroc(descb(3), descb(5), myrow, descb(7), nprow)
    nb = numroc(descb(4), descb(6), mycol, descb(8), npcol)
    mc = numroc(descc(3), descc(5), myrow, descc(7), nprow)
    nc = numroc(descc(4), descc(6), mycol, descc(8), npcol)
    kk = desca(4)
    allocate(p(descc(9), max(1, nc)), sa(max(1, ma)), sb(max(1, nb)))
    a(1:ma, 1:na) = abs(a(1:ma, 1:na))
    b(1:mb, 1:nb) = abs(b(1:mb, 1:nb))
    call pdgemm('N', 'N', descc(3), descc(4), kk, 1.0_c_double, a, 1, 1, desca, b, 1, 1, descb, &
      0.0_c_double, p, 1, 1, descc)
    ! sums of |A| along rows (A's rows are distributed like C's) and of |B| along columns
    sa = 0
    do jl = 1, na
      sa(1:ma) = sa(1:ma) + a(1:ma, jl)
    end do
    sb = 0
    do jl = 1, nb
      sb(jl) = sum(b(1:mb, jl))
    end do
    call dgsum2d(descc(2), 'R', ' ', max(1, ma), 1, sa, max(1, ma), -1, -1)
    call dgsum2d(descc(2), 'C', ' ', 1, max(1, nb), sb, 1, -1, -1)
    g = kk * epsilon(1.0_c_double) ! 2K*u
    g = g / (1 - g)
    st = 0
    nviol = 0
    do jl = 1, nc
      do il = 1, mc
        d = eb_a * sb(jl) + eb_b * sa(il) + kk * eb_a * eb_b
        allow = (d + g * (2 * p(il, jl) + d)) * (1 + g)
        diff = abs(c(il, jl) - cref(il, jl))
        if (.not. diff <= allow) nviol = nviol + 1
        st(1) = max(st(1), diff)
        st(2) = max(st(2), allow)
        st(3) = max(st(3), diff / allow)
        st(4) = max(st(4), abs(cref(il, jl)))
      end do
    end do
    call MPI_Allreduce(MPI_IN_PLACE, st, 4, MPI_DOUBLE_PRECISION, MPI_MAX, comm, ierr)
    nviol = allsum(nviol, comm)
  end subroutine check_product

end module matmul_common
