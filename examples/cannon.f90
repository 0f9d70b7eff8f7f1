! cannon.f90 - C = A*B with Cannon's algorithm on an s x s BLACS grid, the block shifts compressed
! by eccl_sendrecv_replace, checked against PDGEMM on the same descriptors (doc/scalapack.md).
!
! The N x N matrices are distributed in s x s blocks of nb = ceil(N/s) (a block-cyclic descriptor
! with MB = NB = nb, so PDGEMM sees the same data); each process keeps its block of A and B in an
! nb x nb buffer padded with zeros, so that every shift moves the same count.  After the initial
! skew (A(i,j) <- A(i,j+i), B(i,j) <- B(i+j,j)), s steps each add A_blk*B_blk to C and shift A
! one process left and B one process up, on the grid's row and column eccl communicators.
!
! Errors accumulate along the way: a block is compressed again at every shift, and the block used
! at step k has been shifted at most k+1 <= s times.  Each shift therefore gets the bound eb/s,
! so every element the product uses is within eb of the original, and the product is checked
! against the same a-priori bound as SUMMA (matmul_common.f90).
!
!   mpiexec.mpich -n 4 ./examples/cannon [--n N] [--eb E] [--matrix kernel|random|both]
!       [--order R|C] [--auto] [--reps R] [--lookahead]
! --lookahead: each step's shifts are posted (eccl_isendrecv_replace) on copies of the blocks and
! travel while the current blocks multiply (the same streams, so the same result).
! With a process count that is not a square, the largest square grid is used and the other
! processes wait.  Exit status: 0 within the bound, 1 a violation, 2 bad usage, 3 an error.
program cannon
  use, intrinsic :: iso_c_binding
  use mpi
  use eccl
  use matmul_common
  implicit none

  integer :: n = 1024, reps = 2
  real(c_double) :: eb = 1.0e-6_c_double
  character :: order = 'R'
  character(len=64) :: which = 'both'
  logical :: auto = .false., lookahead = .false.
  integer :: ictxt, gcomm, s, myrow, mycol, nprow, npcol, iam, nprocs, ierr, status, nb, provided
  real(c_double) :: worst
  type(eccl_config) :: cfg
  type(eccl_comm) :: rowc, colc
  integer, external :: numroc

  ! MPI_THREAD_MULTIPLE: the nonblocking shifts of --lookahead get progress threads
  call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, iam, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  status = parse_args()
  if (status /= 0) then
    call MPI_Finalize(ierr)
    if (status == 1) stop
    stop 2
  end if
  s = int(sqrt(real(nprocs)) + 0.001)
  nb = (n + s - 1) / s
  call blacs_get(-1, 0, ictxt)
  call blacs_gridinit(ictxt, order, s, s)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)

  worst = 0
  if (myrow >= 0) then
    call blacs_get(ictxt, 10, gcomm)
    cfg%compress = merge(ECCL_COMPRESS_AUTO, ECCL_COMPRESS_ALWAYS, auto)
    call eccl_blacs_configure(ictxt, cfg, ierr)
    call eccl_blacs_comm(ictxt, 'R', rowc, ierr)
    if (ierr == 0) call eccl_blacs_comm(ictxt, 'C', colc, ierr)
    if (ierr /= 0) call fail('eccl_blacs_comm', ierr)
    if (iam == 0) then
      print '(a, i0, a, i0, a, i0, a, i0, 3a, i0)', 'eccl Cannon: C = A*B, ', n, ' x ', n, &
        ' float64 on a ', s, ' x ', s, ' grid (order ', order, '), blocks of ', nb
      if (s * s < nprocs) print '(a, i0, a)', '(', nprocs - s * s, ' processes outside the grid wait)'
      print '(2a)', 'eccl ', eccl_version_string()
      print '(a, es8.1, a, i0, a, es8.1, 2a)', 'bound on every element of A and B used: ABS ', eb, &
        ' (', s, ' shifts at most, ', eb / s, ' each), compression: ', &
        trim(merge('cost model (auto)', 'always           ', auto))
    end if
    if (which == 'kernel' .or. which == 'both') call run(1)
    if (which == 'random' .or. which == 'both') call run(2)
    call blacs_gridexit(ictxt)
  end if
  worst = allmax(worst, MPI_COMM_WORLD)
  call blacs_exit(1)
  call MPI_Finalize(ierr)
  if (worst /= 0) stop 1

contains

  subroutine fail(what, info)
    character(len=*), intent(in) :: what
    integer, intent(in) :: info
    print '(3a, i0)', 'cannon: ', what, ' failed, info ', info
    if (info > 0) print '(2a)', 'cannon: ', eccl_strerror(info)
    call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
  end subroutine fail

  integer function parse_args() result(st)
    integer :: i, nargs, x
    character(len=64) :: a, v
    st = 0
    nargs = command_argument_count()
    i = 1
    do while (i <= nargs)
      call get_command_argument(i, a)
      v = ''
      if (i < nargs) call get_command_argument(i + 1, v)
      select case (a)
      case ('--help', '-h')
        if (iam == 0) then
          print '(a)', 'usage: mpiexec.mpich -n RANKS ./examples/cannon [options]'
          print '(a)', ''
          print '(a)', "C = A*B with Cannon's algorithm (eccl-compressed block shifts) on the largest"
          print '(a)', 'square grid, checked against PDGEMM and the a-priori bound.'
          print '(a)', ''
          print '(a)', '  --n N          matrix order (default 1024)'
          print '(a)', '  --eb E         bound on every element of A and B used (default 1e-6)'
          print '(a)', '  --matrix KIND  kernel, random or both (default both)'
          print '(a)', '  --order R|C    BLACS grid order (default R)'
          print '(a)', '  --auto         let the cost model decide when to compress (default: always)'
          print '(a)', '  --reps R       timed repetitions, best reported (default 2)'
          print '(a)', '  --lookahead    shift copies of the blocks (eccl_isendrecv_replace) while'
          print '(a)', '                 the current ones multiply'
        end if
        st = 1
        return
      case ('--auto')
        auto = .true.
        i = i + 1
        cycle
      case ('--lookahead')
        lookahead = .true.
        i = i + 1
        cycle
      case ('--order')
        order = v(1:1)
        if (order /= 'R' .and. order /= 'C') st = 2
      case ('--matrix')
        which = v
        if (which /= 'kernel' .and. which /= 'random' .and. which /= 'both') st = 2
      case ('--eb')
        read (v, *, iostat=x) eb
        if (x /= 0 .or. .not. eb > 0) st = 2
      case ('--n', '--reps')
        read (v, *, iostat=st) x
        if (st /= 0 .or. x < 1) then
          st = 2
        else if (a == '--n') then
          n = x
        else
          reps = x
        end if
      case default
        st = 2
      end select
      if (st /= 0) then
        if (iam == 0) print '(5a)', 'cannon: bad option or value: ', trim(a), ' ', trim(v), &
          ' (try --help)'
        st = 2
        return
      end if
      i = i + 2
    end do
  end function parse_args

  ! Shift buf (count elements) by `dist` processes to the lower ranks of comm (ranks are process
  ! columns in the row communicator, rows in the column one): send to rank - dist, receive from
  ! rank + dist.  buf is assumed-size, so a block passed as a 2-D array arrives as the rank-1 array
  ! the eccl_sendrecv_replace generic takes.
  subroutine shift(buf, count, comm, me, dist, bound, raw, sent)
    real(c_double), intent(inout) :: buf(*)
    integer, intent(in) :: count
    type(eccl_comm), intent(in) :: comm
    integer, intent(in) :: me, dist
    type(eccl_bound), intent(in) :: bound
    real(c_double), intent(inout) :: raw, sent
    type(eccl_stats) :: stats
    integer :: info
    if (modulo(dist, s) == 0) return
    call eccl_sendrecv_replace(buf, count, modulo(me - dist, s), 7, modulo(me + dist, s), 7, &
      bound, comm, info)
    if (info /= 0) call fail('eccl_sendrecv_replace', info)
    call eccl_comm_last_stats(comm, stats, info)
    raw = raw + real(stats%bytes_raw, c_double)
    if (stats%compressed /= 0) then
      sent = sent + real(stats%bytes_sent, c_double)
    else
      sent = sent + real(stats%bytes_raw, c_double)
    end if
  end subroutine shift

  ! Cannon: cb (nb x nb) = the local block of A*B.  t: the slowest rank's time; raw/sent: bytes of
  ! the shifts over all ranks.
  subroutine cannon_mult(ablk, bblk, cb, bound, t, raw, sent)
    real(c_double), intent(in) :: ablk(:, :), bblk(:, :)
    real(c_double), intent(out) :: cb(:, :)
    type(eccl_bound), intent(in) :: bound
    real(c_double), intent(out) :: t, raw, sent
    real(c_double), allocatable :: aw(:, :), bw(:, :)
    integer :: step
    allocate(aw(nb, nb), bw(nb, nb))
    step = 0
    raw = 0
    sent = 0
    call MPI_Barrier(gcomm, ierr)
    t = MPI_Wtime()
    aw = ablk
    bw = bblk
    cb = 0
    call shift(aw, nb * nb, rowc, mycol, myrow, bound, raw, sent) ! skew: A(i,j) <- A(i,j+i)
    call shift(bw, nb * nb, colc, myrow, mycol, bound, raw, sent) !       B(i,j) <- B(i+j,j)
    if (lookahead) then
      call cannon_ahead(aw, bw, cb, bound, raw, sent)
      step = s
    end if
    do step = step, s - 1
      call dgemm('N', 'N', nb, nb, nb, 1.0_c_double, aw, nb, bw, nb, 1.0_c_double, cb, nb)
      if (step == s - 1) exit
      call shift(aw, nb * nb, rowc, mycol, 1, bound, raw, sent)
      call shift(bw, nb * nb, colc, myrow, 1, bound, raw, sent)
    end do
    t = allmax(MPI_Wtime() - t, gcomm)
    raw = allsum(raw, gcomm)
    sent = allsum(sent, gcomm)
  end subroutine cannon_mult

  ! The s steps of Cannon with look-ahead: each step's shifts are posted on copies of the blocks
  ! (eccl_isendrecv_replace on the row and column communicators) before the current blocks
  ! multiply, and waited for after; then the copies become the current blocks.
  subroutine cannon_ahead(aw, bw, cb, bound, raw, sent)
    real(c_double), intent(inout) :: aw(:, :), bw(:, :), cb(:, :)
    type(eccl_bound), intent(in) :: bound
    real(c_double), intent(inout) :: raw, sent
    real(c_double), allocatable, target, asynchronous :: a2(:, :, :), b2(:, :, :)
    type(eccl_request) :: ra, rb
    integer :: step, cur, nxt
    allocate(a2(nb, nb, 2), b2(nb, nb, 2))
    a2(:, :, 1) = aw
    b2(:, :, 1) = bw
    cur = 1
    do step = 0, s - 1
      nxt = 3 - cur
      if (step < s - 1) then
        a2(:, :, nxt) = a2(:, :, cur)
        b2(:, :, nxt) = b2(:, :, cur)
        call ishift(a2(1, 1, nxt), rowc, mycol, bound, ra) ! A one process left
        call ishift(b2(1, 1, nxt), colc, myrow, bound, rb) ! B one process up
      end if
      call dgemm('N', 'N', nb, nb, nb, 1.0_c_double, a2(1, 1, cur), nb, b2(1, 1, cur), nb, 1.0_c_double, cb, nb)
      if (step == s - 1) exit
      call shift_done(ra, rowc, raw, sent)
      call shift_done(rb, colc, raw, sent)
      cur = nxt
    end do
  end subroutine cannon_ahead

  ! Post the shift of the nb x nb block at buf by one process to the lower ranks of comm (passed as
  ! an element: sequence association, so the request works on the block itself, never a copy).
  subroutine ishift(buf, comm, me, bound, req)
    real(c_double), intent(inout), target, asynchronous :: buf(*)
    type(eccl_comm), intent(in) :: comm
    integer, intent(in) :: me
    type(eccl_bound), intent(in) :: bound
    type(eccl_request), intent(out) :: req
    integer :: info
    call eccl_isendrecv_replace(buf, nb * nb, modulo(me - 1, s), 7, modulo(me + 1, s), 7, bound, comm, req, info)
    if (info /= 0) call fail('eccl_isendrecv_replace', info)
  end subroutine ishift

  ! Wait for a posted shift and add its bytes (its statistics: eccl_comm_last_stats after the wait).
  subroutine shift_done(req, comm, raw, sent)
    type(eccl_request), intent(inout) :: req
    type(eccl_comm), intent(in) :: comm
    real(c_double), intent(inout) :: raw, sent
    type(eccl_stats) :: stats
    integer :: info
    call eccl_wait(req, info)
    if (info /= 0) call fail('eccl_isendrecv_replace (wait)', info)
    call eccl_comm_last_stats(comm, stats, info)
    raw = raw + real(stats%bytes_raw, c_double)
    if (stats%compressed /= 0) then
      sent = sent + real(stats%bytes_sent, c_double)
    else
      sent = sent + real(stats%bytes_raw, c_double)
    end if
  end subroutine shift_done

  subroutine set_shift_algorithm(name)
    character(len=*), intent(in) :: name
    integer :: info
    call eccl_comm_set_algorithm(rowc, 'sendrecv_replace', name, info)
    if (info == 0) call eccl_comm_set_algorithm(colc, 'sendrecv_replace', name, info)
    if (info /= 0) call fail('eccl_comm_set_algorithm', info)
  end subroutine set_shift_algorithm

  subroutine run(kind)
    integer, intent(in) :: kind
    integer :: desc(9), info, mloc, nloc, r, lld
    real(c_double), allocatable :: a(:, :), b(:, :), cref(:, :), ablk(:, :), bblk(:, :), cb(:, :)
    real(c_double) :: t, t_pdgemm, t_plain, t_eccl, raw, sent, raw_plain, sent_plain, st(4)
    real(c_double) :: nviol, err_plain
    type(eccl_bound) :: bound
    mloc = numroc(n, nb, myrow, 0, s)
    nloc = numroc(n, nb, mycol, 0, s)
    lld = max(1, mloc)
    call descinit(desc, n, n, nb, nb, 0, 0, ictxt, lld, info)
    allocate(a(lld, max(1, nloc)), b(lld, max(1, nloc)), cref(lld, max(1, nloc)))
    allocate(ablk(nb, nb), bblk(nb, nb), cb(nb, nb))
    call fill_local(kind, 1, a, desc)
    call fill_local(kind, 2, b, desc)
    ablk = 0
    bblk = 0
    ablk(1:mloc, 1:nloc) = a(1:mloc, 1:nloc)
    bblk(1:mloc, 1:nloc) = b(1:mloc, 1:nloc)
    bound = eccl_bound_abs(eb / s)

    t_pdgemm = huge(t)
    do r = 1, reps
      call MPI_Barrier(gcomm, ierr)
      t = MPI_Wtime()
      call pdgemm('N', 'N', n, n, n, 1.0_c_double, a, 1, 1, desc, b, 1, 1, desc, 0.0_c_double, &
        cref, 1, 1, desc)
      t_pdgemm = min(t_pdgemm, allmax(MPI_Wtime() - t, gcomm))
    end do
    call set_shift_algorithm('mpi')
    t_plain = huge(t)
    do r = 1, reps
      call cannon_mult(ablk, bblk, cb, bound, t, raw_plain, sent_plain)
      t_plain = min(t_plain, t)
    end do
    err_plain = 0
    if (mloc > 0 .and. nloc > 0) err_plain = maxval(abs(cb(1:mloc, 1:nloc) - cref(1:mloc, 1:nloc)))
    err_plain = allmax(err_plain, gcomm)
    call set_shift_algorithm('auto')
    t_eccl = huge(t)
    do r = 1, reps
      call cannon_mult(ablk, bblk, cb, bound, t, raw, sent)
      t_eccl = min(t_eccl, t)
    end do
    call check_product(a, desc, b, desc, cb, nb, cref, desc, eb, eb, gcomm, st, nviol)
    if (nviol > 0) worst = 1
    if (iam == 0) then
      print '(a)', ''
      print '(2a)', 'matrices: ', matrix_name(kind)
      print '(a)', '                          PDGEMM     Cannon, plain shifts  Cannon, eccl shifts'
      print '(a, i0, a, 3(f9.3, a))', 'time (s), best of ', reps, '    ', t_pdgemm, '  ', t_plain, &
        '             ', t_eccl
      print '(a, f13.1, a, f13.1, a, f5.1, a)', 'shift bytes sent (MB)          -', &
        sent_plain / 1.0e6, '        ', sent / 1.0e6, '  (', 100 * (1 - sent / max(raw, 1.0_c_double)), &
        '% saved)'
      print '(a, es13.3, a, es13.3)', 'max |C - C_pdgemm|             -', err_plain, '        ', st(1)
      print '(a, es13.3, a, es9.2, a)', 'a-priori bound, largest                      ', st(2), &
        '  (max |C| ', st(4), ')'
      print '(a, f8.4, 2a, i0, a)', 'worst |C - C_pdgemm| / bound                       ', st(3), &
        merge('   OK       ', '   VIOLATED ', nviol == 0), '(', nint(nviol), ' elements over)'
    end if
  end subroutine run

end program cannon
