! test_blacs_cases.F90 - module blacs_cases for test_blacs.F90: the grid, the counters, the data
! generator and, per data type, the comparisons of a drop-in with the BLACS call it replaces.
module blacs_cases
  use, intrinsic :: iso_c_binding
  use eccl
  implicit none

  integer, parameter :: ek = merge(selected_real_kind(18), c_double, selected_real_kind(18) > 0)
  integer :: ictxt, nprow, npcol, myrow, mycol, iam, pass
  integer :: nchecks = 0, nfail = 0
  real(c_double), parameter :: ebs = 1.0e-3_c_double, ebd = 1.0e-7_c_double
  type(eccl_bound) :: bound_ebs, bound_ebd

contains


  function itoa(i) result(s)
    integer, intent(in) :: i
    character(len=12) :: s
    write (s, '(i0)') i
  end function itoa

  subroutine check(ok, what, detail)
    logical, intent(in) :: ok
    character(len=*), intent(in) :: what
    integer, intent(in) :: detail
    nchecks = nchecks + 1
    if (.not. ok) then
      nfail = nfail + 1
      if (nfail <= 20) print '(a, i0, a, i0, a, i0, 3a, i0, a, i0)', '[rank ', iam, ' (', myrow, &
        ',', mycol, ')] FAIL: ', what, ' (', detail, ') pass ', pass
    end if
  end subroutine check

  ! Deterministic values in (-1, 1) for element (i, j) of process (r, c); gen2: an imaginary part.
  pure function gen(i, j, r, c, salt) result(v)
    integer, intent(in) :: i, j, r, c, salt
    real(c_double) :: v, t
    t = sin(12.9898_c_double * i + 78.233_c_double * j + 37.719_c_double * r + &
      11.13_c_double * c + 3.7_c_double * salt) * 43758.5453_c_double
    v = 2 * (t - floor(t)) - 1
  end function gen

  pure function gen2(i, j, r, c, salt) result(v)
    integer, intent(in) :: i, j, r, c, salt
    real(c_double) :: v
    v = gen(j + 101, i + 7, c, r, salt + 3)
  end function gen2

  ! ---- sgebs2d / sgebr2d against BLACS ----
  subroutine bcast_s(scope, lda_extra, salt)
    character, intent(in) :: scope
    integer, intent(in) :: lda_extra, salt
    integer, parameter :: m = 37, n = 5
    real(c_float), allocatable :: orig(:, :), ref(:, :), got(:, :)
    integer :: lda, rs, cs, info, i, j, r, c
    logical :: sender
    real(ek) :: tol
    lda = m + lda_extra
    allocate(orig(lda, n), ref(lda, n), got(lda, n))
    rs = mod(salt, nprow)
    cs = mod(salt + 1, npcol)
    select case (scope)
    case ('R')
      sender = mycol == cs
      rs = myrow
    case ('C')
      sender = myrow == rs
      cs = mycol
    case default
      sender = myrow == rs .and. mycol == cs
    end select
    r = myrow
    c = mycol
    do j = 1, n
      do i = 1, lda
        orig(i, j) = real(gen(i, j, r, c, salt), c_float)
        if (i > m .or. .not. sender) orig(i, j) = real(7777.0_c_double, c_float)
      end do
    end do
    ref = orig
    got = orig
    if (sender) then
      call sgebs2d(ictxt, scope, ' ', m, n, ref, lda)
      call eccl_sgebs2d(ictxt, scope, ' ', m, n, got, lda, bound_ebs, info)
    else
      call sgebr2d(ictxt, scope, ' ', m, n, ref, lda, rs, cs)
      call eccl_sgebr2d(ictxt, scope, ' ', m, n, got, lda, rs, cs, bound_ebs, info)
    end if
    call check(info == 0, 'sgebs2d/sgebr2d info', info)
    tol = real(ebs, ek)
    do j = 1, n
      do i = 1, m
        call check(abs(real(got(i, j), ek) - real(ref(i, j), ek)) <= tol, &
          'sgebr2d within the bound of BLACS', i)
      end do
      do i = m + 1, lda
        call check(got(i, j) == orig(i, j), 'sgebr2d leaves rows past m alone', i)
      end do
    end do
    if (sender) call check(all(got == orig), 'sgebs2d leaves the sender unchanged', 0)
  end subroutine bcast_s

  ! ---- sgsum2d against BLACS: everywhere (rdest = -1) or onto one process ----
  subroutine sum_s(scope, lda_extra, salt, everywhere)
    character, intent(in) :: scope
    integer, intent(in) :: lda_extra, salt
    logical, intent(in) :: everywhere
    integer, parameter :: m = 29, n = 4
    real(c_float), allocatable :: orig(:, :), ref(:, :), got(:, :)
    integer :: lda, rd, cd, info, i, j, r, c, nmemb
    logical :: dest
    real(ek) :: tol, sabs
    lda = m + lda_extra
    allocate(orig(lda, n), ref(lda, n), got(lda, n))
    rd = mod(salt, nprow)
    cd = mod(salt + 2, npcol)
    dest = (scope == 'R' .and. mycol == cd) .or. (scope == 'C' .and. myrow == rd) .or. &
      (scope == 'A' .and. myrow == rd .and. mycol == cd)
    if (everywhere) then
      rd = -1
      dest = .true.
    end if
    r = myrow
    c = mycol
    do j = 1, n
      do i = 1, lda
        orig(i, j) = real(gen(i, j, r, c, salt), c_float)
        if (i > m) orig(i, j) = real(7777.0_c_double, c_float)
      end do
    end do
    ref = orig
    got = orig
    call sgsum2d(ictxt, scope, ' ', m, n, ref, lda, rd, cd)
    call eccl_sgsum2d(ictxt, scope, ' ', m, n, got, lda, rd, cd, bound_ebs, info)
    call check(info == 0, 'sgsum2d info', info)
    nmemb = merge(npcol, merge(nprow, nprow * npcol, scope == 'C'), scope == 'R')
    do j = 1, n
      do i = 1, m
        ! both results within p*u*sum|x| of the exact sum (rounding), eccl's also within E
        sabs = 0
        do r = 0, nprow - 1
          do c = 0, npcol - 1
            if (scope == 'R' .and. r /= myrow) cycle
            if (scope == 'C' .and. c /= mycol) cycle
            sabs = sabs + 2 * abs(gen(i, j, r, c, salt))
          end do
        end do
        tol = real(ebs, ek) + 2 * (nmemb + 1) * real(0.5_c_double * epsilon(1.0_c_float), ek) * sabs
        if (dest) then
          call check(abs(real(got(i, j), ek) - real(ref(i, j), ek)) <= tol, &
            'sgsum2d within the bound of BLACS', i)
        else
          call check(got(i, j) == orig(i, j), 'sgsum2d leaves non-destinations alone', i)
        end if
      end do
      do i = m + 1, lda
        call check(got(i, j) == orig(i, j), 'sgsum2d leaves rows past m alone', i)
      end do
    end do
  end subroutine sum_s

  ! ---- dgebs2d / dgebr2d against BLACS ----
  subroutine bcast_d(scope, lda_extra, salt)
    character, intent(in) :: scope
    integer, intent(in) :: lda_extra, salt
    integer, parameter :: m = 37, n = 5
    real(c_double), allocatable :: orig(:, :), ref(:, :), got(:, :)
    integer :: lda, rs, cs, info, i, j, r, c
    logical :: sender
    real(ek) :: tol
    lda = m + lda_extra
    allocate(orig(lda, n), ref(lda, n), got(lda, n))
    rs = mod(salt, nprow)
    cs = mod(salt + 1, npcol)
    select case (scope)
    case ('R')
      sender = mycol == cs
      rs = myrow
    case ('C')
      sender = myrow == rs
      cs = mycol
    case default
      sender = myrow == rs .and. mycol == cs
    end select
    r = myrow
    c = mycol
    do j = 1, n
      do i = 1, lda
        orig(i, j) = real(gen(i, j, r, c, salt), c_double)
        if (i > m .or. .not. sender) orig(i, j) = real(7777.0_c_double, c_double)
      end do
    end do
    ref = orig
    got = orig
    if (sender) then
      call dgebs2d(ictxt, scope, ' ', m, n, ref, lda)
      call eccl_dgebs2d(ictxt, scope, ' ', m, n, got, lda, bound_ebd, info)
    else
      call dgebr2d(ictxt, scope, ' ', m, n, ref, lda, rs, cs)
      call eccl_dgebr2d(ictxt, scope, ' ', m, n, got, lda, rs, cs, bound_ebd, info)
    end if
    call check(info == 0, 'dgebs2d/dgebr2d info', info)
    tol = real(ebd, ek)
    do j = 1, n
      do i = 1, m
        call check(abs(real(got(i, j), ek) - real(ref(i, j), ek)) <= tol, &
          'dgebr2d within the bound of BLACS', i)
      end do
      do i = m + 1, lda
        call check(got(i, j) == orig(i, j), 'dgebr2d leaves rows past m alone', i)
      end do
    end do
    if (sender) call check(all(got == orig), 'dgebs2d leaves the sender unchanged', 0)
  end subroutine bcast_d

  ! ---- dgsum2d against BLACS: everywhere (rdest = -1) or onto one process ----
  subroutine sum_d(scope, lda_extra, salt, everywhere)
    character, intent(in) :: scope
    integer, intent(in) :: lda_extra, salt
    logical, intent(in) :: everywhere
    integer, parameter :: m = 29, n = 4
    real(c_double), allocatable :: orig(:, :), ref(:, :), got(:, :)
    integer :: lda, rd, cd, info, i, j, r, c, nmemb
    logical :: dest
    real(ek) :: tol, sabs
    lda = m + lda_extra
    allocate(orig(lda, n), ref(lda, n), got(lda, n))
    rd = mod(salt, nprow)
    cd = mod(salt + 2, npcol)
    dest = (scope == 'R' .and. mycol == cd) .or. (scope == 'C' .and. myrow == rd) .or. &
      (scope == 'A' .and. myrow == rd .and. mycol == cd)
    if (everywhere) then
      rd = -1
      dest = .true.
    end if
    r = myrow
    c = mycol
    do j = 1, n
      do i = 1, lda
        orig(i, j) = real(gen(i, j, r, c, salt), c_double)
        if (i > m) orig(i, j) = real(7777.0_c_double, c_double)
      end do
    end do
    ref = orig
    got = orig
    call dgsum2d(ictxt, scope, ' ', m, n, ref, lda, rd, cd)
    call eccl_dgsum2d(ictxt, scope, ' ', m, n, got, lda, rd, cd, bound_ebd, info)
    call check(info == 0, 'dgsum2d info', info)
    nmemb = merge(npcol, merge(nprow, nprow * npcol, scope == 'C'), scope == 'R')
    do j = 1, n
      do i = 1, m
        ! both results within p*u*sum|x| of the exact sum (rounding), eccl's also within E
        sabs = 0
        do r = 0, nprow - 1
          do c = 0, npcol - 1
            if (scope == 'R' .and. r /= myrow) cycle
            if (scope == 'C' .and. c /= mycol) cycle
            sabs = sabs + 2 * abs(gen(i, j, r, c, salt))
          end do
        end do
        tol = real(ebd, ek) + 2 * (nmemb + 1) * real(0.5_c_double * epsilon(1.0_c_double), &
          ek) * sabs
        if (dest) then
          call check(abs(real(got(i, j), ek) - real(ref(i, j), ek)) <= tol, &
            'dgsum2d within the bound of BLACS', i)
        else
          call check(got(i, j) == orig(i, j), 'dgsum2d leaves non-destinations alone', i)
        end if
      end do
      do i = m + 1, lda
        call check(got(i, j) == orig(i, j), 'dgsum2d leaves rows past m alone', i)
      end do
    end do
  end subroutine sum_d

  ! ---- cgebs2d / cgebr2d against BLACS ----
  subroutine bcast_c(scope, lda_extra, salt)
    character, intent(in) :: scope
    integer, intent(in) :: lda_extra, salt
    integer, parameter :: m = 37, n = 5
    complex(c_float_complex), allocatable :: orig(:, :), ref(:, :), got(:, :)
    integer :: lda, rs, cs, info, i, j, r, c
    logical :: sender
    real(ek) :: tol
    lda = m + lda_extra
    allocate(orig(lda, n), ref(lda, n), got(lda, n))
    rs = mod(salt, nprow)
    cs = mod(salt + 1, npcol)
    select case (scope)
    case ('R')
      sender = mycol == cs
      rs = myrow
    case ('C')
      sender = myrow == rs
      cs = mycol
    case default
      sender = myrow == rs .and. mycol == cs
    end select
    r = myrow
    c = mycol
    do j = 1, n
      do i = 1, lda
        orig(i, j) = cmplx(gen(i, j, r, c, salt), gen2(i, j, r, c, salt), c_float)
        if (i > m .or. .not. sender) orig(i, j) = cmplx(7777.0_c_double, gen2(i, j, r, c, salt), &
          c_float)
      end do
    end do
    ref = orig
    got = orig
    if (sender) then
      call cgebs2d(ictxt, scope, ' ', m, n, ref, lda)
      call eccl_cgebs2d(ictxt, scope, ' ', m, n, got, lda, bound_ebs, info)
    else
      call cgebr2d(ictxt, scope, ' ', m, n, ref, lda, rs, cs)
      call eccl_cgebr2d(ictxt, scope, ' ', m, n, got, lda, rs, cs, bound_ebs, info)
    end if
    call check(info == 0, 'cgebs2d/cgebr2d info', info)
    tol = real(ebs, ek)
    do j = 1, n
      do i = 1, m
        call check(abs(real(real(got(i, j)), ek) - real(real(ref(i, j)), ek)) <= tol .and. &
            abs(real(aimag(got(i, j)), ek) - real(aimag(ref(i, j)), ek)) <= tol, &
              'cgebr2d within the bound of BLACS', i)
      end do
      do i = m + 1, lda
        call check(got(i, j) == orig(i, j), 'cgebr2d leaves rows past m alone', i)
      end do
    end do
    if (sender) call check(all(got == orig), 'cgebs2d leaves the sender unchanged', 0)
  end subroutine bcast_c

  ! ---- cgsum2d against BLACS: everywhere (rdest = -1) or onto one process ----
  subroutine sum_c(scope, lda_extra, salt, everywhere)
    character, intent(in) :: scope
    integer, intent(in) :: lda_extra, salt
    logical, intent(in) :: everywhere
    integer, parameter :: m = 29, n = 4
    complex(c_float_complex), allocatable :: orig(:, :), ref(:, :), got(:, :)
    integer :: lda, rd, cd, info, i, j, r, c, nmemb
    logical :: dest
    real(ek) :: tol, sabs
    lda = m + lda_extra
    allocate(orig(lda, n), ref(lda, n), got(lda, n))
    rd = mod(salt, nprow)
    cd = mod(salt + 2, npcol)
    dest = (scope == 'R' .and. mycol == cd) .or. (scope == 'C' .and. myrow == rd) .or. &
      (scope == 'A' .and. myrow == rd .and. mycol == cd)
    if (everywhere) then
      rd = -1
      dest = .true.
    end if
    r = myrow
    c = mycol
    do j = 1, n
      do i = 1, lda
        orig(i, j) = cmplx(gen(i, j, r, c, salt), gen2(i, j, r, c, salt), c_float)
        if (i > m) orig(i, j) = cmplx(7777.0_c_double, gen2(i, j, r, c, salt), c_float)
      end do
    end do
    ref = orig
    got = orig
    call cgsum2d(ictxt, scope, ' ', m, n, ref, lda, rd, cd)
    call eccl_cgsum2d(ictxt, scope, ' ', m, n, got, lda, rd, cd, bound_ebs, info)
    call check(info == 0, 'cgsum2d info', info)
    nmemb = merge(npcol, merge(nprow, nprow * npcol, scope == 'C'), scope == 'R')
    do j = 1, n
      do i = 1, m
        ! both results within p*u*sum|x| of the exact sum (rounding), eccl's also within E
        sabs = 0
        do r = 0, nprow - 1
          do c = 0, npcol - 1
            if (scope == 'R' .and. r /= myrow) cycle
            if (scope == 'C' .and. c /= mycol) cycle
            sabs = sabs + 2 * abs(gen(i, j, r, c, salt))
          end do
        end do
        tol = real(ebs, ek) + 2 * (nmemb + 1) * real(0.5_c_double * epsilon(1.0_c_float), ek) * sabs
        if (dest) then
          call check(abs(real(real(got(i, j)), ek) - real(real(ref(i, j)), ek)) <= tol .and. &
            abs(real(aimag(got(i, j)), ek) - real(aimag(ref(i, j)), ek)) <= tol, &
              'cgsum2d within the bound of BLACS', i)
        else
          call check(got(i, j) == orig(i, j), 'cgsum2d leaves non-destinations alone', i)
        end if
      end do
      do i = m + 1, lda
        call check(got(i, j) == orig(i, j), 'cgsum2d leaves rows past m alone', i)
      end do
    end do
  end subroutine sum_c

  ! ---- zgebs2d / zgebr2d against BLACS ----
  subroutine bcast_z(scope, lda_extra, salt)
    character, intent(in) :: scope
    integer, intent(in) :: lda_extra, salt
    integer, parameter :: m = 37, n = 5
    complex(c_double_complex), allocatable :: orig(:, :), ref(:, :), got(:, :)
    integer :: lda, rs, cs, info, i, j, r, c
    logical :: sender
    real(ek) :: tol
    lda = m + lda_extra
    allocate(orig(lda, n), ref(lda, n), got(lda, n))
    rs = mod(salt, nprow)
    cs = mod(salt + 1, npcol)
    select case (scope)
    case ('R')
      sender = mycol == cs
      rs = myrow
    case ('C')
      sender = myrow == rs
      cs = mycol
    case default
      sender = myrow == rs .and. mycol == cs
    end select
    r = myrow
    c = mycol
    do j = 1, n
      do i = 1, lda
        orig(i, j) = cmplx(gen(i, j, r, c, salt), gen2(i, j, r, c, salt), c_double)
        if (i > m .or. .not. sender) orig(i, j) = cmplx(7777.0_c_double, gen2(i, j, r, c, salt), &
          c_double)
      end do
    end do
    ref = orig
    got = orig
    if (sender) then
      call zgebs2d(ictxt, scope, ' ', m, n, ref, lda)
      call eccl_zgebs2d(ictxt, scope, ' ', m, n, got, lda, bound_ebd, info)
    else
      call zgebr2d(ictxt, scope, ' ', m, n, ref, lda, rs, cs)
      call eccl_zgebr2d(ictxt, scope, ' ', m, n, got, lda, rs, cs, bound_ebd, info)
    end if
    call check(info == 0, 'zgebs2d/zgebr2d info', info)
    tol = real(ebd, ek)
    do j = 1, n
      do i = 1, m
        call check(abs(real(real(got(i, j)), ek) - real(real(ref(i, j)), ek)) <= tol .and. &
            abs(real(aimag(got(i, j)), ek) - real(aimag(ref(i, j)), ek)) <= tol, &
              'zgebr2d within the bound of BLACS', i)
      end do
      do i = m + 1, lda
        call check(got(i, j) == orig(i, j), 'zgebr2d leaves rows past m alone', i)
      end do
    end do
    if (sender) call check(all(got == orig), 'zgebs2d leaves the sender unchanged', 0)
  end subroutine bcast_z

  ! ---- zgsum2d against BLACS: everywhere (rdest = -1) or onto one process ----
  subroutine sum_z(scope, lda_extra, salt, everywhere)
    character, intent(in) :: scope
    integer, intent(in) :: lda_extra, salt
    logical, intent(in) :: everywhere
    integer, parameter :: m = 29, n = 4
    complex(c_double_complex), allocatable :: orig(:, :), ref(:, :), got(:, :)
    integer :: lda, rd, cd, info, i, j, r, c, nmemb
    logical :: dest
    real(ek) :: tol, sabs
    lda = m + lda_extra
    allocate(orig(lda, n), ref(lda, n), got(lda, n))
    rd = mod(salt, nprow)
    cd = mod(salt + 2, npcol)
    dest = (scope == 'R' .and. mycol == cd) .or. (scope == 'C' .and. myrow == rd) .or. &
      (scope == 'A' .and. myrow == rd .and. mycol == cd)
    if (everywhere) then
      rd = -1
      dest = .true.
    end if
    r = myrow
    c = mycol
    do j = 1, n
      do i = 1, lda
        orig(i, j) = cmplx(gen(i, j, r, c, salt), gen2(i, j, r, c, salt), c_double)
        if (i > m) orig(i, j) = cmplx(7777.0_c_double, gen2(i, j, r, c, salt), c_double)
      end do
    end do
    ref = orig
    got = orig
    call zgsum2d(ictxt, scope, ' ', m, n, ref, lda, rd, cd)
    call eccl_zgsum2d(ictxt, scope, ' ', m, n, got, lda, rd, cd, bound_ebd, info)
    call check(info == 0, 'zgsum2d info', info)
    nmemb = merge(npcol, merge(nprow, nprow * npcol, scope == 'C'), scope == 'R')
    do j = 1, n
      do i = 1, m
        ! both results within p*u*sum|x| of the exact sum (rounding), eccl's also within E
        sabs = 0
        do r = 0, nprow - 1
          do c = 0, npcol - 1
            if (scope == 'R' .and. r /= myrow) cycle
            if (scope == 'C' .and. c /= mycol) cycle
            sabs = sabs + 2 * abs(gen(i, j, r, c, salt))
          end do
        end do
        tol = real(ebd, ek) + 2 * (nmemb + 1) * real(0.5_c_double * epsilon(1.0_c_double), &
          ek) * sabs
        if (dest) then
          call check(abs(real(real(got(i, j)), ek) - real(real(ref(i, j)), ek)) <= tol .and. &
            abs(real(aimag(got(i, j)), ek) - real(aimag(ref(i, j)), ek)) <= tol, &
              'zgsum2d within the bound of BLACS', i)
        else
          call check(got(i, j) == orig(i, j), 'zgsum2d leaves non-destinations alone', i)
        end if
      end do
      do i = m + 1, lda
        call check(got(i, j) == orig(i, j), 'zgsum2d leaves rows past m alone', i)
      end do
    end do
  end subroutine sum_z

  ! ---- sgamx2d against BLACS (ldia = -1) and against its documented guarantee ----
  subroutine amx_s(scope, salt, everywhere)
    character, intent(in) :: scope
    integer, intent(in) :: salt
    logical, intent(in) :: everywhere
    integer, parameter :: m = 23, n = 3, lda = 25
    real(c_float) :: orig(lda, n), ref(lda, n), got(lda, n)
    integer :: rd, cd, info, i, j, r, c, ira(1), ica(1)
    logical :: dest, near_tie, found
    real(ek) :: e, ext, v, x
    rd = mod(salt + 1, nprow)
    cd = mod(salt, npcol)
    dest = (scope == 'R' .and. mycol == cd) .or. (scope == 'C' .and. myrow == rd) .or. &
      (scope == 'A' .and. myrow == rd .and. mycol == cd)
    if (everywhere) then
      cd = -1
      dest = .true.
    end if
    do j = 1, n
      do i = 1, lda
        orig(i, j) = real(gen(i, j, myrow, mycol, salt), kind(orig))
        if (i == 3) orig(i, j) = 0
      end do
    end do
    ref = orig
    got = orig
    ira = 0
    ica = 0
    call sgamx2d(ictxt, scope, ' ', m, n, ref, lda, ira, ica, -1, rd, cd)
    call eccl_sgamx2d(ictxt, scope, ' ', m, n, got, lda, ira(1), ica(1), -1, rd, cd, &
      bound_ebs, info)
    call check(info == 0, 'sgamx2d info', info)
    e = real(ebs, ek)
    do j = 1, n
      do i = 1, m
        if (.not. dest) then
          call check(got(i, j) == orig(i, j), 'sgamx2d leaves non-destinations alone', i)
          cycle
        end if
        ! the extreme magnitude over the scope, and whether opposite signs tie within 2E
        ext = merge(-1.0_ek, huge(1.0_ek), 'amx' == 'amx')
        do r = 0, nprow - 1
          do c = 0, npcol - 1
            if (scope == 'R' .and. r /= myrow) cycle
            if (scope == 'C' .and. c /= mycol) cycle
            x = abs(real(real(gen(i, j, r, c, salt), kind(orig)), ek))
            if (i == 3) x = 0
            if (x > ext) ext = x
          end do
        end do
        v = real(got(i, j), ek)
        call check(abs(abs(v) - ext) <= e, 'sgamx2d: |result| within E of the extreme', i)
        found = .false.
        near_tie = .false.
        do r = 0, nprow - 1
          do c = 0, npcol - 1
            if (scope == 'R' .and. r /= myrow) cycle
            if (scope == 'C' .and. c /= mycol) cycle
            x = real(real(gen(i, j, r, c, salt), kind(orig)), ek)
            if (i == 3) x = 0
            if (abs(abs(x) - ext) <= 2 * e) then
              if (abs(v - x) <= e) found = .true.
              if (sign(1.0_ek, x) /= sign(1.0_ek, real(ref(i, j), ek))) near_tie = .true.
            end if
          end do
        end do
        call check(found, 'sgamx2d: result within E of a near-extreme contribution', i)
        if (.not. near_tie) call check(abs(v - real(ref(i, j), ek)) <= e, &
          'sgamx2d within the bound of BLACS', i)
      end do
    end do
  end subroutine amx_s

  ! ---- sgamn2d against BLACS (ldia = -1) and against its documented guarantee ----
  subroutine amn_s(scope, salt, everywhere)
    character, intent(in) :: scope
    integer, intent(in) :: salt
    logical, intent(in) :: everywhere
    integer, parameter :: m = 23, n = 3, lda = 25
    real(c_float) :: orig(lda, n), ref(lda, n), got(lda, n)
    integer :: rd, cd, info, i, j, r, c, ira(1), ica(1)
    logical :: dest, near_tie, found
    real(ek) :: e, ext, v, x
    rd = mod(salt + 1, nprow)
    cd = mod(salt, npcol)
    dest = (scope == 'R' .and. mycol == cd) .or. (scope == 'C' .and. myrow == rd) .or. &
      (scope == 'A' .and. myrow == rd .and. mycol == cd)
    if (everywhere) then
      cd = -1
      dest = .true.
    end if
    do j = 1, n
      do i = 1, lda
        orig(i, j) = real(gen(i, j, myrow, mycol, salt), kind(orig))
        if (i == 3) orig(i, j) = 0
      end do
    end do
    ref = orig
    got = orig
    ira = 0
    ica = 0
    call sgamn2d(ictxt, scope, ' ', m, n, ref, lda, ira, ica, -1, rd, cd)
    call eccl_sgamn2d(ictxt, scope, ' ', m, n, got, lda, ira(1), ica(1), -1, rd, cd, &
      bound_ebs, info)
    call check(info == 0, 'sgamn2d info', info)
    e = real(ebs, ek)
    do j = 1, n
      do i = 1, m
        if (.not. dest) then
          call check(got(i, j) == orig(i, j), 'sgamn2d leaves non-destinations alone', i)
          cycle
        end if
        ! the extreme magnitude over the scope, and whether opposite signs tie within 2E
        ext = merge(-1.0_ek, huge(1.0_ek), 'amn' == 'amx')
        do r = 0, nprow - 1
          do c = 0, npcol - 1
            if (scope == 'R' .and. r /= myrow) cycle
            if (scope == 'C' .and. c /= mycol) cycle
            x = abs(real(real(gen(i, j, r, c, salt), kind(orig)), ek))
            if (i == 3) x = 0
            if (x < ext) ext = x
          end do
        end do
        v = real(got(i, j), ek)
        call check(abs(abs(v) - ext) <= e, 'sgamn2d: |result| within E of the extreme', i)
        found = .false.
        near_tie = .false.
        do r = 0, nprow - 1
          do c = 0, npcol - 1
            if (scope == 'R' .and. r /= myrow) cycle
            if (scope == 'C' .and. c /= mycol) cycle
            x = real(real(gen(i, j, r, c, salt), kind(orig)), ek)
            if (i == 3) x = 0
            if (abs(abs(x) - ext) <= 2 * e) then
              if (abs(v - x) <= e) found = .true.
              if (sign(1.0_ek, x) /= sign(1.0_ek, real(ref(i, j), ek))) near_tie = .true.
            end if
          end do
        end do
        call check(found, 'sgamn2d: result within E of a near-extreme contribution', i)
        if (.not. near_tie) call check(abs(v - real(ref(i, j), ek)) <= e, &
          'sgamn2d within the bound of BLACS', i)
      end do
    end do
  end subroutine amn_s

  ! ---- dgamx2d against BLACS (ldia = -1) and against its documented guarantee ----
  subroutine amx_d(scope, salt, everywhere)
    character, intent(in) :: scope
    integer, intent(in) :: salt
    logical, intent(in) :: everywhere
    integer, parameter :: m = 23, n = 3, lda = 25
    real(c_double) :: orig(lda, n), ref(lda, n), got(lda, n)
    integer :: rd, cd, info, i, j, r, c, ira(1), ica(1)
    logical :: dest, near_tie, found
    real(ek) :: e, ext, v, x
    rd = mod(salt + 1, nprow)
    cd = mod(salt, npcol)
    dest = (scope == 'R' .and. mycol == cd) .or. (scope == 'C' .and. myrow == rd) .or. &
      (scope == 'A' .and. myrow == rd .and. mycol == cd)
    if (everywhere) then
      cd = -1
      dest = .true.
    end if
    do j = 1, n
      do i = 1, lda
        orig(i, j) = real(gen(i, j, myrow, mycol, salt), kind(orig))
        if (i == 3) orig(i, j) = 0
      end do
    end do
    ref = orig
    got = orig
    ira = 0
    ica = 0
    call dgamx2d(ictxt, scope, ' ', m, n, ref, lda, ira, ica, -1, rd, cd)
    call eccl_dgamx2d(ictxt, scope, ' ', m, n, got, lda, ira(1), ica(1), -1, rd, cd, &
      bound_ebd, info)
    call check(info == 0, 'dgamx2d info', info)
    e = real(ebd, ek)
    do j = 1, n
      do i = 1, m
        if (.not. dest) then
          call check(got(i, j) == orig(i, j), 'dgamx2d leaves non-destinations alone', i)
          cycle
        end if
        ! the extreme magnitude over the scope, and whether opposite signs tie within 2E
        ext = merge(-1.0_ek, huge(1.0_ek), 'amx' == 'amx')
        do r = 0, nprow - 1
          do c = 0, npcol - 1
            if (scope == 'R' .and. r /= myrow) cycle
            if (scope == 'C' .and. c /= mycol) cycle
            x = abs(real(real(gen(i, j, r, c, salt), kind(orig)), ek))
            if (i == 3) x = 0
            if (x > ext) ext = x
          end do
        end do
        v = real(got(i, j), ek)
        call check(abs(abs(v) - ext) <= e, 'dgamx2d: |result| within E of the extreme', i)
        found = .false.
        near_tie = .false.
        do r = 0, nprow - 1
          do c = 0, npcol - 1
            if (scope == 'R' .and. r /= myrow) cycle
            if (scope == 'C' .and. c /= mycol) cycle
            x = real(real(gen(i, j, r, c, salt), kind(orig)), ek)
            if (i == 3) x = 0
            if (abs(abs(x) - ext) <= 2 * e) then
              if (abs(v - x) <= e) found = .true.
              if (sign(1.0_ek, x) /= sign(1.0_ek, real(ref(i, j), ek))) near_tie = .true.
            end if
          end do
        end do
        call check(found, 'dgamx2d: result within E of a near-extreme contribution', i)
        if (.not. near_tie) call check(abs(v - real(ref(i, j), ek)) <= e, &
          'dgamx2d within the bound of BLACS', i)
      end do
    end do
  end subroutine amx_d

  ! ---- dgamn2d against BLACS (ldia = -1) and against its documented guarantee ----
  subroutine amn_d(scope, salt, everywhere)
    character, intent(in) :: scope
    integer, intent(in) :: salt
    logical, intent(in) :: everywhere
    integer, parameter :: m = 23, n = 3, lda = 25
    real(c_double) :: orig(lda, n), ref(lda, n), got(lda, n)
    integer :: rd, cd, info, i, j, r, c, ira(1), ica(1)
    logical :: dest, near_tie, found
    real(ek) :: e, ext, v, x
    rd = mod(salt + 1, nprow)
    cd = mod(salt, npcol)
    dest = (scope == 'R' .and. mycol == cd) .or. (scope == 'C' .and. myrow == rd) .or. &
      (scope == 'A' .and. myrow == rd .and. mycol == cd)
    if (everywhere) then
      cd = -1
      dest = .true.
    end if
    do j = 1, n
      do i = 1, lda
        orig(i, j) = real(gen(i, j, myrow, mycol, salt), kind(orig))
        if (i == 3) orig(i, j) = 0
      end do
    end do
    ref = orig
    got = orig
    ira = 0
    ica = 0
    call dgamn2d(ictxt, scope, ' ', m, n, ref, lda, ira, ica, -1, rd, cd)
    call eccl_dgamn2d(ictxt, scope, ' ', m, n, got, lda, ira(1), ica(1), -1, rd, cd, &
      bound_ebd, info)
    call check(info == 0, 'dgamn2d info', info)
    e = real(ebd, ek)
    do j = 1, n
      do i = 1, m
        if (.not. dest) then
          call check(got(i, j) == orig(i, j), 'dgamn2d leaves non-destinations alone', i)
          cycle
        end if
        ! the extreme magnitude over the scope, and whether opposite signs tie within 2E
        ext = merge(-1.0_ek, huge(1.0_ek), 'amn' == 'amx')
        do r = 0, nprow - 1
          do c = 0, npcol - 1
            if (scope == 'R' .and. r /= myrow) cycle
            if (scope == 'C' .and. c /= mycol) cycle
            x = abs(real(real(gen(i, j, r, c, salt), kind(orig)), ek))
            if (i == 3) x = 0
            if (x < ext) ext = x
          end do
        end do
        v = real(got(i, j), ek)
        call check(abs(abs(v) - ext) <= e, 'dgamn2d: |result| within E of the extreme', i)
        found = .false.
        near_tie = .false.
        do r = 0, nprow - 1
          do c = 0, npcol - 1
            if (scope == 'R' .and. r /= myrow) cycle
            if (scope == 'C' .and. c /= mycol) cycle
            x = real(real(gen(i, j, r, c, salt), kind(orig)), ek)
            if (i == 3) x = 0
            if (abs(abs(x) - ext) <= 2 * e) then
              if (abs(v - x) <= e) found = .true.
              if (sign(1.0_ek, x) /= sign(1.0_ek, real(ref(i, j), ek))) near_tie = .true.
            end if
          end do
        end do
        call check(found, 'dgamn2d: result within E of a near-extreme contribution', i)
        if (.not. near_tie) call check(abs(v - real(ref(i, j), ek)) <= e, &
          'dgamn2d within the bound of BLACS', i)
      end do
    end do
  end subroutine amn_d

end module blacs_cases
