! summa.f90 - C = A*B on a 2-D block-cyclic grid with SUMMA and compressed panel broadcasts,
! checked against PDGEMM on the same descriptors (doc/scalapack.md).
!
! SUMMA walks k through the inner dimension in panels that lie in one block column of A and one
! block row of B.  For each panel, eccl_panel_bcast_col sends A(:, k:k+kb-1) along the process
! rows from the process column that owns it, eccl_panel_bcast_row sends B(k:k+kb-1, :) along the
! process columns, and every process adds Wa*Wb to its local C with DGEMM.  Every broadcast
! element is within eb of the original, and the product is checked element by element against
! PDGEMM and the a-priori bound that follows (matmul_common.f90 derives it, with the rounding of
! both products):  |C - C_pdgemm|(i,j) <= eb*sum_k |B(k,j)| + eb*sum_k |A(i,k)| + K*eb^2 + rounding.
!
! Matrices: a smooth kernel (A(i,k) = exp(-|x_i - y_k|/0.1), B(k,j) = exp(-|y_k - z_j|/0.2) on
! uniform points of [0,1]) and uniform random ones in [-1,1).  The program runs SUMMA twice: with
! plain panels (eccl with compression off: the algorithm's own cost) and compressed ones.
!
! --device: A, B, C and the workspaces live in GPU memory (one GPU per rank, by local rank),
! eccl_panel_bcast_col/row get them as type(c_ptr) (eccl packs and compresses on the GPU) and
! cuBLAS multiplies (examples/summa_gpu.c).  Two pairs of workspaces: panel k+1 is broadcast
! while the DGEMM of panel k runs.  PDGEMM, the reference, stays on the CPU.
!
!   mpiexec.mpich -n 4 ./examples/summa [--n N] [--m M] [--k K] [--mb MB] [--nb NB]
!       [--grid PxQ] [--order R|C] [--eb E] [--matrix kernel|random|both] [--auto] [--reps R]
!       [--device] [--plain mpi|nccl]
! Exit status: 0 every element within the bound, 1 a violation, 2 bad usage, 3 an error, 77
! --device with nothing to run it on (no CUDA backend, no GPU, or no cuBLAS: the automake skip code,
! so tests/summa_device_*.mpi skip on machines without a GPU).
program summa
  use, intrinsic :: iso_c_binding
  use mpi
  use eccl
  use matmul_common
  implicit none

  integer :: m = 1024, n = 1024, k = 1024, mb = 64, nb = 64, nprow = 0, npcol = 0, reps = 2
  real(c_double) :: eb = 1.0e-6_c_double
  character :: order = 'R'
  character(len=64) :: which = 'both'
  logical :: auto = .false., device = .false., lookahead = .false.
  logical :: no_panels = .false. ! summa_device without its broadcasts: the DGEMMs alone
  character(len=8) :: plain_alg = 'mpi'
  type(c_ptr) :: gpu = c_null_ptr ! examples/summa_gpu.c's cuBLAS handle and stream
  integer :: ictxt, gcomm, myrow, mycol, iam, nprocs, ierr, status, provided
  real(c_double) :: worst ! 1 after a bound violation (a double: every MPI reduction here is)
  type(eccl_config) :: cfg
  integer, external :: numroc

  interface ! examples/summa_gpu.c
    function summa_gpu_create(ctx) bind(C, name="summa_gpu_create") result(rc)
      import :: c_ptr, c_int
      type(c_ptr), intent(out) :: ctx
      integer(c_int) :: rc
    end function summa_gpu_create
    subroutine summa_gpu_destroy(ctx) bind(C, name="summa_gpu_destroy")
      import :: c_ptr
      type(c_ptr), value :: ctx
    end subroutine summa_gpu_destroy
    function summa_gpu_dgemm(ctx, slot, m, n, k, a, lda, b, ldb, c, ldc) &
        bind(C, name="summa_gpu_dgemm") result(rc)
      import :: c_ptr, c_int
      type(c_ptr), value :: ctx, a, b, c
      integer(c_int), value :: slot, m, n, k, lda, ldb, ldc
      integer(c_int) :: rc
    end function summa_gpu_dgemm
    function summa_gpu_wait(ctx, slot) bind(C, name="summa_gpu_wait") result(rc)
      import :: c_ptr, c_int
      type(c_ptr), value :: ctx
      integer(c_int), value :: slot
      integer(c_int) :: rc
    end function summa_gpu_wait
    function summa_gpu_zero(ctx, p, bytes) bind(C, name="summa_gpu_zero") result(rc)
      import :: c_ptr, c_int, c_size_t
      type(c_ptr), value :: ctx, p
      integer(c_size_t), value :: bytes
      integer(c_int) :: rc
    end function summa_gpu_zero
    function summa_gpu_sync(ctx) bind(C, name="summa_gpu_sync") result(rc)
      import :: c_ptr, c_int
      type(c_ptr), value :: ctx
      integer(c_int) :: rc
    end function summa_gpu_sync
  end interface

  ! MPI_THREAD_MULTIPLE: eccl's nonblocking panel broadcasts (--lookahead) get progress threads
  call MPI_Init_thread(MPI_THREAD_MULTIPLE, provided, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, iam, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nprocs, ierr)
  status = parse_args()
  if (status /= 0) then
    call MPI_Finalize(ierr)
    if (status == 1) stop
    stop 2
  end if
  if (device) then
    status = gpu_setup()
    if (status /= 0) then
      call MPI_Finalize(ierr)
      if (status == 77) stop 77
      stop 3
    end if
  end if
  if (nprow == 0) then
    nprow = int(sqrt(real(nprocs)))
    do while (mod(nprocs, nprow) /= 0)
      nprow = nprow - 1
    end do
    npcol = nprocs / nprow
  end if
  if (nprow * npcol > nprocs) then
    if (iam == 0) print '(a, i0, a, i0, a, i0, a)', 'summa: a ', nprow, ' x ', npcol, &
      ' grid needs more than the ', nprocs, ' processes'
    call MPI_Finalize(ierr)
    stop 2
  end if
  call blacs_get(-1, 0, ictxt)
  call blacs_gridinit(ictxt, order, nprow, npcol)
  call blacs_gridinfo(ictxt, nprow, npcol, myrow, mycol)

  worst = 0
  if (myrow >= 0) then
    call blacs_get(ictxt, 10, gcomm) ! the grid's communicator, for timing and totals
    ! compress every panel (or let the cost model decide): the configuration of the eccl
    ! communicators the grid's panel broadcasts run on
    cfg%compress = merge(ECCL_COMPRESS_AUTO, ECCL_COMPRESS_ALWAYS, auto)
    call eccl_blacs_configure(ictxt, cfg, ierr)
    if (iam == 0) then
      print '(a, i0, a, i0, a, i0, a, i0, a, i0, 3a, i0, a, i0)', 'eccl SUMMA: C = A*B, ', m, &
        ' x ', n, ' x ', k, ' float64 on a ', nprow, ' x ', npcol, ' grid (order ', order, &
        '), MB ', mb, ', NB ', nb
      print '(2a)', 'eccl ', eccl_version_string()
      print '(a, es8.1, 2a)', 'bound on every broadcast element of A and B: ABS ', eb, &
        ', compression: ', trim(merge('cost model (auto)', 'always           ', auto))
      if (device) print '(3a)', 'device: A, B, C and panels in GPU memory, cuBLAS DGEMM; plain panels: ', &
        trim(plain_alg), ' broadcast'
      if (lookahead .and. provided == MPI_THREAD_MULTIPLE) print '(a)', &
        'look-ahead: panel k+1 is broadcast (nonblocking) while panel k multiplies'
      if (lookahead .and. provided /= MPI_THREAD_MULTIPLE) print '(a)', &
        'look-ahead: panel k+1 is posted before panel k multiplies (no progress thread: MPI below MULTIPLE)'
    end if
    if (which == 'kernel' .or. which == 'both') call run(1, worst)
    if (which == 'random' .or. which == 'both') call run(2, worst)
    call blacs_gridexit(ictxt)
  end if
  worst = allmax(worst, MPI_COMM_WORLD)
  if (device) call summa_gpu_destroy(gpu)
  call blacs_exit(1)
  call MPI_Finalize(ierr)
  if (worst /= 0) stop 1

contains

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
        if (iam == 0) call usage()
        st = 1
        return
      case ('--auto')
        auto = .true.
        i = i + 1
        cycle
      case ('--device')
        device = .true.
        i = i + 1
        cycle
      case ('--lookahead')
        lookahead = .true.
        i = i + 1
        cycle
      case ('--plain')
        plain_alg = v(1:len(plain_alg))
        if (v /= 'mpi' .and. v /= 'nccl') st = 2
      case ('--order')
        order = v(1:1)
        if (order /= 'R' .and. order /= 'C') st = 2
      case ('--matrix')
        which = v
        if (which /= 'kernel' .and. which /= 'random' .and. which /= 'both') st = 2
      case ('--eb')
        read (v, *, iostat=x) eb
        if (x /= 0 .or. .not. eb > 0) st = 2
      case ('--grid')
        x = index(v, 'x')
        if (x < 2) then
          st = 2
        else
          read (v(1:x - 1), *, iostat=st) nprow
          if (st == 0) read (v(x + 1:), *, iostat=st) npcol
          if (st /= 0 .or. nprow < 1 .or. npcol < 1) st = 2
        end if
      case ('--n', '--m', '--k', '--mb', '--nb', '--reps')
        read (v, *, iostat=st) x
        if (st /= 0 .or. x < 1) then
          st = 2
        else
          select case (a)
          case ('--n')
            m = x
            n = x
            k = x
          case ('--m')
            m = x
          case ('--k')
            k = x
          case ('--mb')
            mb = x
          case ('--nb')
            nb = x
          case default
            reps = x
          end select
        end if
      case default
        st = 2
      end select
      if (st /= 0) then
        if (iam == 0) print '(5a)', 'summa: bad option or value: ', trim(a), ' ', trim(v), &
          ' (try --help)'
        st = 2
        return
      end if
      i = i + 2
    end do
  end function parse_args

  subroutine usage()
    print '(a)', 'usage: mpiexec.mpich -n RANKS ./examples/summa [options]'
    print '(a)', ''
    print '(a)', 'C = A*B with SUMMA and eccl-compressed panel broadcasts, checked element by'
    print '(a)', 'element against PDGEMM and the a-priori bound of the compression error.'
    print '(a)', ''
    print '(a)', '  --n N             M = N = K = N (default 1024)'
    print '(a)', '  --m M, --k K      rows of A and C, inner dimension (N sets all three)'
    print '(a)', '  --mb MB, --nb NB  block sizes of A, B and C (default 64, 64)'
    print '(a)', '  --grid PxQ        process grid (default: the squarest that uses every rank)'
    print '(a)', '  --order R|C       BLACS grid order (default R)'
    print '(a)', '  --eb E            absolute bound on each broadcast element (default 1e-6)'
    print '(a)', '  --matrix KIND     kernel, random or both (default both)'
    print '(a)', '  --auto            let the cost model decide when to compress (default: always)'
    print '(a)', '  --reps R          timed repetitions, best reported (default 2)'
    print '(a)', '  --device          A, B, C and panels in GPU memory (one GPU per rank), cuBLAS'
    print '(a)', '                    DGEMM; needs a build with CUDA and cuBLAS'
    print '(a)', '  --lookahead       post panel k+1 (eccl_panel_ibcast_col/row) before multiplying'
    print '(a)', '                    panel k, on both the plain and the eccl runs'
    print '(a)', '  --plain ALG       the uncompressed panel broadcast to compare with: mpi'
    print '(a)', '                    (default) or nccl (device runs with NCCL on every rank)'
  end subroutine usage

  ! C = A*B by SUMMA with eccl panels; t = the slowest rank's time.
  subroutine summa_eccl(a, desca, b, descb, c, lldc, wa, ldwa, wb, ldwb, bound, t)
    integer, intent(in) :: desca(9), descb(9), lldc, ldwa, ldwb
    real(c_double), intent(in) :: a(desca(9), *), b(descb(9), *)
    real(c_double), intent(out) :: c(lldc, *)
    real(c_double), intent(inout) :: wa(ldwa, *), wb(ldwb, *)
    type(eccl_bound), intent(in) :: bound
    real(c_double), intent(out) :: t
    integer :: kk, kb, info, mloc, nloc
    real(c_double) :: t0
    mloc = numroc(m, mb, myrow, 0, nprow)
    nloc = numroc(n, nb, mycol, 0, npcol)
    call MPI_Barrier(gcomm, ierr)
    t0 = MPI_Wtime()
    c(1:mloc, 1:nloc) = 0
    kk = 1
    do while (kk <= k)
      ! a panel inside one block column of A (NB) and one block row of B (MB)
      kb = min(eccl_panel_width(kk, nb, k - kk + 1), eccl_panel_width(kk, mb, k - kk + 1))
      call eccl_panel_bcast_col(m, kb, a, 1, kk, desca, wa, ldwa, bound, info)
      if (info == 0) call eccl_panel_bcast_row(kb, n, b, kk, 1, descb, wb, ldwb, bound, info)
      if (info /= 0) then
        print '(a, i0, a, i0)', 'summa: rank ', iam, ': panel broadcast failed, info ', info
        if (info > 0) print '(2a)', 'summa: ', eccl_strerror(info)
        call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
      end if
      if (mloc > 0 .and. nloc > 0) call dgemm('N', 'N', mloc, nloc, kb, 1.0_c_double, wa, ldwa, &
        wb, ldwb, 1.0_c_double, c, lldc)
      kk = kk + kb
    end do
    t = allmax(MPI_Wtime() - t0, gcomm)
  end subroutine summa_eccl

  ! --device: one GPU per rank (local rank modulo the GPUs of the node) and the cuBLAS handle.
  ! 0 when every rank has them; else (after a message) 77 when some rank has nothing to run on
  ! (no CUDA backend, no GPU, no cuBLAS), 3 when a GPU is there but failed, on every rank.
  ! The local rank counts the ranks before this one with the same host name, not this rank's place
  ! in MPI_COMM_TYPE_SHARED: an MPI told to treat every rank as remote (MPICH's
  ! MPIR_CVAR_NOLOCAL=1, the socket stand-in for a network) makes that communicator one rank
  ! each, and every rank of the host then took GPU 0.
  integer function gpu_setup() result(st)
    integer :: lrank, ndev, info, rc, namelen
    real(c_double) :: mine
    character(len=MPI_MAX_PROCESSOR_NAME) :: host
    character(len=MPI_MAX_PROCESSOR_NAME), allocatable :: hosts(:)
    host = ' '
    call MPI_Get_processor_name(host, namelen, ierr)
    allocate(hosts(nprocs))
    call MPI_Allgather(host, MPI_MAX_PROCESSOR_NAME, MPI_CHARACTER, hosts, MPI_MAX_PROCESSOR_NAME, &
      MPI_CHARACTER, MPI_COMM_WORLD, ierr)
    lrank = count(hosts(1:iam) == host)
    deallocate(hosts)
    ndev = 0
    st = 0
    call eccl_cuda_device_count(ndev, info)
    if (info == ECCL_ERR_UNSUPPORTED .or. info == ECCL_ERR_NO_DEVICE .or. (info == 0 .and. ndev < 1)) then
      print '(a, i0, a)', 'summa: rank ', iam, ': --device: no GPU here (or eccl was built without CUDA)'
      st = 77
    else if (info /= 0) then
      print '(a, i0, 2a)', 'summa: rank ', iam, ': --device: no usable GPU: ', eccl_strerror(info)
      st = 3
    else
      call eccl_cuda_set_device(mod(lrank, ndev), info)
      if (info /= 0) then
        print '(a, i0, 2a)', 'summa: rank ', iam, ': --device: cannot use the GPU: ', eccl_strerror(info)
        st = 3
      else
        rc = summa_gpu_create(gpu) ! (it says what failed)
        if (rc == 2) st = 77       ! built without cuBLAS
        if (rc == 1) st = 3
      end if
    end if
    ! one verdict everywhere: an error wins over a skip
    mine = merge(2, merge(1, 0, st == 77), st == 3)
    select case (nint(allmax(mine, MPI_COMM_WORLD)))
    case (2)
      st = 3
    case (1)
      st = 77
    case default
      st = 0
    end select
  end function gpu_setup

  ! Device memory for n elements of float64 (stops the run on failure).
  type(c_ptr) function dalloc(n) result(p)
    integer(c_int64_t), intent(in) :: n
    integer :: info
    call eccl_cuda_malloc(p, 8 * max(n, 1_c_int64_t), info)
    if (info /= 0) then
      print '(a, i0, a, i0, 2a)', 'summa: rank ', iam, ': cannot allocate ', 8 * n, &
        ' bytes of device memory: ', eccl_strerror(info)
      call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    end if
  end function dalloc

  subroutine dcopy_checked(dst, src, n)
    type(c_ptr), intent(in) :: dst, src
    integer(c_int64_t), intent(in) :: n
    integer :: info
    call eccl_cuda_memcpy(dst, src, 8 * n, info)
    if (info /= 0) then
      print '(a, i0, 2a)', 'summa: rank ', iam, ': copy to or from the GPU failed: ', eccl_strerror(info)
      call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    end if
  end subroutine dcopy_checked

  subroutine gpu_checked(rc)
    integer(c_int), intent(in) :: rc
    if (rc /= 0) call MPI_Abort(MPI_COMM_WORLD, 3, ierr) ! summa_gpu.c said what failed
  end subroutine gpu_checked

  ! C = A*B by SUMMA on device arrays (type(c_ptr), leading dimensions as on the host): panel k
  ! goes into workspace pair mod(k, 2) once the DGEMM that last read that pair is done, so the
  ! broadcasts of panel k+1 overlap the DGEMM of panel k; t = the slowest rank's time, C complete.
  subroutine summa_device(a, desca, b, descb, c, lldc, wa, ldwa, wb, ldwb, bound, t)
    type(c_ptr), intent(in) :: a, b, c, wa(2), wb(2)
    integer, intent(in) :: desca(9), descb(9), lldc, ldwa, ldwb
    type(eccl_bound), intent(in) :: bound
    real(c_double), intent(out) :: t
    integer :: kk, kb, info, mloc, nloc, slot, np
    real(c_double) :: t0
    mloc = numroc(m, mb, myrow, 0, nprow)
    nloc = numroc(n, nb, mycol, 0, npcol)
    call MPI_Barrier(gcomm, ierr)
    t0 = MPI_Wtime()
    call gpu_checked(summa_gpu_zero(gpu, c, int(8, c_size_t) * int(lldc, c_size_t) * &
      int(max(nloc, 1), c_size_t)))
    kk = 1
    np = 0
    do while (kk <= k)
      kb = min(eccl_panel_width(kk, nb, k - kk + 1), eccl_panel_width(kk, mb, k - kk + 1))
      slot = mod(np, 2)
      call gpu_checked(summa_gpu_wait(gpu, slot))
      info = 0
      if (.not. no_panels) call eccl_panel_bcast_col(m, kb, a, 1, kk, desca, wa(slot + 1), ldwa, bound, &
        ECCL_FLOAT64, info)
      if (info == 0 .and. .not. no_panels) call eccl_panel_bcast_row(kb, n, b, kk, 1, descb, wb(slot + 1), &
        ldwb, bound, ECCL_FLOAT64, info)
      if (info /= 0) then
        print '(a, i0, a, i0)', 'summa: rank ', iam, ': panel broadcast failed, info ', info
        if (info > 0) print '(2a)', 'summa: ', eccl_strerror(info)
        call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
      end if
      call gpu_checked(summa_gpu_dgemm(gpu, slot, mloc, nloc, kb, wa(slot + 1), ldwa, &
        wb(slot + 1), ldwb, c, lldc))
      kk = kk + kb
      np = np + 1
    end do
    call gpu_checked(summa_gpu_sync(gpu))
    t = allmax(MPI_Wtime() - t0, gcomm)
  end subroutine summa_device

  ! C = A*B by SUMMA with look-ahead: panel k+1's broadcasts are posted (eccl_panel_ibcast_col/row,
  ! into the other workspace pair) before panel k is multiplied, so they travel while it
  ! multiplies (on the progress threads of the row and column communicators). Host arrays (da, db
  ! absent: a, b, c, wa, wb are host addresses, DGEMM on the host) or device arrays (da, db: A and B
  ! on the GPU; a, b unused; cuBLAS DGEMM on its stream). t = the slowest rank's time, C complete.
  subroutine summa_ahead(a, desca, b, descb, c, lldc, wa, ldwa, wb, ldwb, bound, t, da, db)
    type(c_ptr), intent(in) :: a, b, c, wa(2), wb(2)
    integer, intent(in) :: desca(9), descb(9), lldc, ldwa, ldwb
    type(eccl_bound), intent(in) :: bound
    real(c_double), intent(out) :: t
    type(c_ptr), intent(in), optional :: da, db
    type(eccl_request) :: ra(2), rb(2)
    integer :: kk, kb, mloc, nloc, slot, np, kbs(2), knext
    real(c_double) :: t0
    type(c_ptr) :: pa, pb
    real(c_double), pointer :: hc(:, :), hwa(:, :), hwb(:, :)
    logical :: dev
    dev = present(da)
    pa = a
    pb = b
    if (dev) then
      pa = da
      pb = db
    end if
    mloc = numroc(m, mb, myrow, 0, nprow)
    nloc = numroc(n, nb, mycol, 0, npcol)
    call MPI_Barrier(gcomm, ierr)
    t0 = MPI_Wtime()
    if (dev) then
      call gpu_checked(summa_gpu_zero(gpu, c, int(8, c_size_t) * int(lldc, c_size_t) * &
        int(max(nloc, 1), c_size_t)))
    else
      call c_f_pointer(c, hc, [lldc, max(nloc, 1)])
      hc(1:mloc, 1:nloc) = 0
    end if
    kk = 1
    knext = 1 ! the first column of the next panel to post
    np = 0
    call post_panel(0, knext, kbs, pa, desca, pb, descb, wa, ldwa, wb, ldwb, bound, ra, rb) ! panel 0 into pair 0
    do while (kk <= k)
      slot = mod(np, 2)
      kb = kbs(slot + 1)
      call panel_wait(ra(slot + 1), rb(slot + 1))
      ! (panel k+1 is posted before DGEMM k is queued: its codec kernels then mostly run before
      ! the DGEMM takes the SMs. Queued the other way round, each panel broadcast waited behind
      ! the DGEMM on both GPUs and SUMMA was not faster: doc/performance.md section 29)
      if (knext <= k) then ! the next panel into the other pair, once its last DGEMM is done
        if (dev) call gpu_checked(summa_gpu_wait(gpu, 1 - slot))
        call post_panel(1 - slot, knext, kbs, pa, desca, pb, descb, wa, ldwa, wb, ldwb, bound, ra, rb)
      end if
      if (dev) then
        call gpu_checked(summa_gpu_dgemm(gpu, slot, mloc, nloc, kb, wa(slot + 1), ldwa, &
          wb(slot + 1), ldwb, c, lldc))
      else if (mloc > 0 .and. nloc > 0) then
        call c_f_pointer(wa(slot + 1), hwa, [ldwa, kb])
        call c_f_pointer(wb(slot + 1), hwb, [ldwb, nloc])
        call dgemm('N', 'N', mloc, nloc, kb, 1.0_c_double, hwa, ldwa, hwb, ldwb, 1.0_c_double, hc, lldc)
      end if
      kk = kk + kb
      np = np + 1
    end do
    if (dev) call gpu_checked(summa_gpu_sync(gpu))
    t = allmax(MPI_Wtime() - t0, gcomm)
  end subroutine summa_ahead

  ! Post the panel at global column knext (nonblocking) into workspace pair s; knext moves on.
  subroutine post_panel(s, knext, kbs, a, desca, b, descb, wa, ldwa, wb, ldwb, bound, ra, rb)
    integer, intent(in) :: s, desca(9), descb(9), ldwa, ldwb
    integer, intent(inout) :: knext, kbs(2)
    type(c_ptr), intent(in) :: a, b, wa(2), wb(2)
    type(eccl_bound), intent(in) :: bound
    type(eccl_request), intent(inout) :: ra(2), rb(2)
    integer :: w, info
    w = min(eccl_panel_width(knext, nb, k - knext + 1), eccl_panel_width(knext, mb, k - knext + 1))
    kbs(s + 1) = w
    call eccl_panel_ibcast_col(m, w, a, 1, knext, desca, wa(s + 1), ldwa, bound, ECCL_FLOAT64, ra(s + 1), info)
    if (info == 0) call eccl_panel_ibcast_row(w, n, b, knext, 1, descb, wb(s + 1), ldwb, bound, ECCL_FLOAT64, &
      rb(s + 1), info)
    call panel_failed(info)
    knext = knext + w
  end subroutine post_panel

  subroutine panel_wait(ra, rb)
    type(eccl_request), intent(inout) :: ra, rb
    integer :: info, info2
    call eccl_wait(ra, info)
    call eccl_wait(rb, info2)
    if (info == 0) info = info2
    call panel_failed(info)
  end subroutine panel_wait

  subroutine panel_failed(info)
    integer, intent(in) :: info
    if (info /= 0) then
      print '(a, i0, a, i0)', 'summa: rank ', iam, ': panel broadcast failed, info ', info
      if (info > 0) print '(2a)', 'summa: ', eccl_strerror(info)
      call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
    end if
  end subroutine panel_failed

  ! Bytes of the last SUMMA over all ranks: (raw, sent).
  ! The panel bytes of the grid's broadcasts since the last call, summed over the ranks; most: the
  ! most one rank sent; split: where the panel calls' time went, seconds summed over this rank's
  ! calls, each the largest over the ranks (eccl_blacs_totals: inside the calls, deciding, codec,
  ! network; a nonblocking call's time runs from its start in the progress engine to its end).
  subroutine bytes(raw, sent, most, split)
    real(c_double), intent(out) :: raw, sent
    real(c_double), intent(out), optional :: most, split(4)
    type(eccl_blacs_totals) :: tot
    real(c_double) :: v(2)
    integer :: info
    call eccl_blacs_get_totals(ictxt, tot, .true., info)
    v = [real(tot%bytes_raw, c_double), real(tot%bytes_sent, c_double)]
    if (present(most)) most = allmax(v(2), gcomm)
    if (present(split)) then
      split = [tot%t_total, tot%t_select, tot%t_codec, tot%t_network]
      call MPI_Allreduce(MPI_IN_PLACE, split, 4, MPI_DOUBLE_PRECISION, MPI_MAX, gcomm, ierr)
    end if
    call MPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE_PRECISION, MPI_SUM, gcomm, ierr)
    raw = v(1)
    sent = v(2)
  end subroutine bytes

  ! The link's rate in bytes/s, the same on every rank: grid rank 0 sends 8 messages of 16 MiB of
  ! host memory back to back to grid rank 1 (plain MPI, as eccl's compressed streams travel), best
  ! of 2 after one warm-up, one way (rank 1 answers the last message with one byte). 0 on one rank.
  ! 128 MiB in all so that a token bucket's burst (tc's 16 MB in bench/gpu_host.sh summabench) is
  ! a small part of it: one 16 MiB message fitted in the burst and read the unshaped rate (5-6 GB/s
  ! under a 25 Gbit/s shaping; doc/performance.md section 28). The ranks are those of gcomm,
  ! not of MPI_COMM_WORLD: BLACS numbers its grid's communicator row by row, so under --order C
  ! world rank 1 is another grid rank than 1 (on a 2 x 2 grid, 2), and testing `iam` here once left
  ! world rank 0 sending to a grid rank that never received.
  real(c_double) function link_rate()
    integer, parameter :: nbytes = 16 * 1024 * 1024, nmsg = 8
    character(len=1), allocatable :: buf(:)
    character(len=1) :: ack(1)
    integer :: r, m, grank, st(MPI_STATUS_SIZE)
    real(c_double) :: t, best
    link_rate = 0
    if (nprow * npcol < 2) return
    call MPI_Comm_rank(gcomm, grank, ierr)
    allocate(buf(nbytes))
    buf = 'x'
    best = huge(t)
    do r = 0, 2
      call MPI_Barrier(gcomm, ierr)
      t = MPI_Wtime()
      if (grank == 0) then
        do m = 1, nmsg
          call MPI_Send(buf, nbytes, MPI_CHARACTER, 1, 7, gcomm, ierr)
        end do
        call MPI_Recv(ack, 1, MPI_CHARACTER, 1, 8, gcomm, st, ierr)
      else if (grank == 1) then
        do m = 1, nmsg
          call MPI_Recv(buf, nbytes, MPI_CHARACTER, 0, 7, gcomm, st, ierr)
        end do
        call MPI_Send(ack, 1, MPI_CHARACTER, 0, 8, gcomm, ierr)
      end if
      if (r > 0) best = min(best, MPI_Wtime() - t)
    end do
    best = allmax(best, gcomm)
    link_rate = real(nmsg, c_double) * real(nbytes, c_double) / best
  end function link_rate

  ! Plain panels: force the uncompressed MPI broadcast on the grid's row and column communicators
  ! (plain = .false. gives the choice back to the configured policy).
  subroutine plain_panels(plain)
    logical, intent(in) :: plain
    type(eccl_comm) :: line
    integer :: info, s
    character, parameter :: scopes(2) = ['R', 'C']
    do s = 1, 2
      call eccl_blacs_comm(ictxt, scopes(s), line, info)
      if (info == 0) then
        if (plain) then
          call eccl_comm_set_algorithm(line, 'bcast', trim(plain_alg), info)
        else
          call eccl_comm_set_algorithm(line, 'bcast', 'auto', info)
        end if
      end if
      if (info /= 0) then
        print '(a, i0, 2a)', 'summa: cannot set the broadcast algorithm: ', info, ' ', eccl_strerror(info)
        call MPI_Abort(MPI_COMM_WORLD, 3, ierr)
      end if
    end do
  end subroutine plain_panels

  subroutine run(kind, worst)
    integer, intent(in) :: kind
    real(c_double), intent(inout) :: worst
    integer :: desca(9), descb(9), descc(9), info, mloca, nloca, mlocb, nlocb, mlocc, nlocc
    integer :: r
    real(c_double) :: nviol
    real(c_double), allocatable, target :: a(:, :), b(:, :), c(:, :), cref(:, :), wa(:, :), wb(:, :)
    real(c_double), allocatable, target, asynchronous :: wa2(:, :, :), wb2(:, :, :)
    type(c_ptr) :: da, db, dc, dwa(2), dwb(2)
    integer(c_int64_t) :: na, nb_, nc
    real(c_double) :: t, t_pdgemm, t_plain, t_eccl, raw_plain, sent_plain, raw, sent, most, t_dgemm, rate
    real(c_double) :: st(4), err_plain, split(4), split_best(4)
    type(eccl_bound) :: bound
    mloca = numroc(m, mb, myrow, 0, nprow)
    nloca = numroc(k, nb, mycol, 0, npcol)
    mlocb = numroc(k, mb, myrow, 0, nprow)
    nlocb = numroc(n, nb, mycol, 0, npcol)
    mlocc = mloca
    nlocc = nlocb
    call descinit(desca, m, k, mb, nb, 0, 0, ictxt, max(1, mloca), info)
    call descinit(descb, k, n, mb, nb, 0, 0, ictxt, max(1, mlocb), info)
    call descinit(descc, m, n, mb, nb, 0, 0, ictxt, max(1, mlocc), info)
    allocate(a(max(1, mloca), max(1, nloca)), b(max(1, mlocb), max(1, nlocb)))
    allocate(c(max(1, mlocc), max(1, nlocc)), cref(max(1, mlocc), max(1, nlocc)))
    allocate(wa(max(1, mlocc), nb), wb(mb, max(1, nlocc)))
    if (lookahead .and. .not. device) allocate(wa2(max(1, mlocc), nb, 2), wb2(mb, max(1, nlocc), 2))
    call fill_local(kind, 1, a, desca)
    call fill_local(kind, 2, b, descb)
    bound = eccl_bound_abs(eb)
    if (device) then ! the operands on the GPU, as a GPU code has them (not timed)
      na = size(a, kind=c_int64_t)
      nb_ = size(b, kind=c_int64_t)
      nc = size(c, kind=c_int64_t)
      da = dalloc(na)
      db = dalloc(nb_)
      dc = dalloc(nc)
      dwa = [dalloc(size(wa, kind=c_int64_t)), dalloc(size(wa, kind=c_int64_t))]
      dwb = [dalloc(size(wb, kind=c_int64_t)), dalloc(size(wb, kind=c_int64_t))]
      call dcopy_checked(da, c_loc(a), na)
      call dcopy_checked(db, c_loc(b), nb_)
    end if

    ! PDGEMM, the reference
    t_pdgemm = huge(t)
    do r = 1, reps
      call MPI_Barrier(gcomm, ierr)
      t = MPI_Wtime()
      call pdgemm('N', 'N', m, n, k, 1.0_c_double, a, 1, 1, desca, b, 1, 1, descb, 0.0_c_double, &
        cref, 1, 1, descc)
      t_pdgemm = min(t_pdgemm, allmax(MPI_Wtime() - t, gcomm))
    end do
    ! --device: the DGEMMs alone (the panels not broadcast: C is wrong, and recomputed below); and
    ! in every mode the link's rate, for the lower bound of a SUMMA step
    t_dgemm = 0
    if (device) then
      no_panels = .true.
      t_dgemm = huge(t)
      do r = 1, reps
        call summa_device(da, desca, db, descb, dc, max(1, mlocc), dwa, max(1, mlocc), dwb, mb, bound, t)
        t_dgemm = min(t_dgemm, t)
      end do
      no_panels = .false.
    end if
    rate = link_rate()
    ! SUMMA with plain panels (compression off), then compressed
    call plain_panels(.true.)
    t_plain = huge(t)
    do r = 1, reps
      if (device .and. lookahead) then
        call summa_ahead(c_loc(a), desca, c_loc(b), descb, dc, max(1, mlocc), dwa, max(1, mlocc), dwb, mb, &
          bound, t, da, db)
      else if (device) then
        call summa_device(da, desca, db, descb, dc, max(1, mlocc), dwa, max(1, mlocc), dwb, mb, bound, t)
      else if (lookahead) then
        call summa_ahead(c_loc(a), desca, c_loc(b), descb, c_loc(c), max(1, mlocc), &
          [c_loc(wa2(1, 1, 1)), c_loc(wa2(1, 1, 2))], max(1, mlocc), &
          [c_loc(wb2(1, 1, 1)), c_loc(wb2(1, 1, 2))], mb, bound, t)
      else
        call summa_eccl(a, desca, b, descb, c, max(1, mlocc), wa, max(1, mlocc), wb, mb, bound, t)
      end if
      t_plain = min(t_plain, t)
      call bytes(raw_plain, sent_plain)
    end do
    if (device) call dcopy_checked(c_loc(c), dc, nc)
    err_plain = 0
    if (mlocc > 0 .and. nlocc > 0) err_plain = maxval(abs(c(1:mlocc, 1:nlocc) - cref(1:mlocc, 1:nlocc)))
    call plain_panels(.false.)
    t_eccl = huge(t)
    do r = 1, reps
      if (device .and. lookahead) then
        call summa_ahead(c_loc(a), desca, c_loc(b), descb, dc, max(1, mlocc), dwa, max(1, mlocc), dwb, mb, &
          bound, t, da, db)
      else if (device) then
        call summa_device(da, desca, db, descb, dc, max(1, mlocc), dwa, max(1, mlocc), dwb, mb, bound, t)
      else if (lookahead) then
        call summa_ahead(c_loc(a), desca, c_loc(b), descb, c_loc(c), max(1, mlocc), &
          [c_loc(wa2(1, 1, 1)), c_loc(wa2(1, 1, 2))], max(1, mlocc), &
          [c_loc(wb2(1, 1, 1)), c_loc(wb2(1, 1, 2))], mb, bound, t)
      else
        call summa_eccl(a, desca, b, descb, c, max(1, mlocc), wa, max(1, mlocc), wb, mb, bound, t)
      end if
      call bytes(raw, sent, most, split)
      if (t < t_eccl) split_best = split
      t_eccl = min(t_eccl, t)
    end do
    if (device) then
      call dcopy_checked(c_loc(c), dc, nc)
      call eccl_cuda_free(da, info)
      call eccl_cuda_free(db, info)
      call eccl_cuda_free(dc, info)
      do r = 1, 2
        call eccl_cuda_free(dwa(r), info)
        call eccl_cuda_free(dwb(r), info)
      end do
    end if

    ! the check against PDGEMM and the a-priori bound (overwrites a and b with |A| and |B|)
    call check_product(a, desca, b, descb, c, max(1, mlocc), cref, descc, eb, eb, gcomm, st, nviol)
    err_plain = allmax(err_plain, gcomm)
    if (nviol > 0) worst = 1
    if (iam == 0) then
      print '(a)', ''
      print '(2a)', 'matrices: ', matrix_name(kind)
      print '(a)', '                          PDGEMM     SUMMA, plain panels   SUMMA, eccl panels'
      print '(a, i0, a, 3(f9.3, a))', 'time (s), best of ', reps, '    ', t_pdgemm, '  ', t_plain, &
        '             ', t_eccl
      print '(a, f13.1, a, f13.1, a, f5.1, a)', 'panel bytes sent (MB)          -', &
        sent_plain / 1.0e6, '        ', sent / 1.0e6, '  (', 100 * (1 - sent / max(raw, 1.0_c_double)), &
        '% saved)'
      print '(a, es13.3, a, es13.3)', 'max |C - C_pdgemm|             -', err_plain, '        ', st(1)
      print '(a, es13.3, a, es9.2, a)', 'a-priori bound, largest                      ', st(2), &
        '  (max |C| ', st(4), ')'
      print '(a, f8.4, 2a, i0, a)', 'worst |C - C_pdgemm| / bound                       ', st(3), &
        merge('   OK       ', '   VIOLATED ', nviol == 0), '(', nint(nviol), ' elements over)'
      ! (of the best repetition; each column the most of any rank, so they need not add up)
      print '(a, 4(f9.4, a))', 'eccl panel calls (s): inside ', split_best(1), ', deciding ', split_best(2), &
        ', codec ', split_best(3), ', network ', split_best(4), '  (sums over one rank''s calls, most of any rank)'
      if (device .and. rate > 0) then
        ! eccl's SUMMA against its floor: the DGEMMs alone, or the most compressed bytes one rank
        ! sends at the link's measured rate, whichever is longer
        print '(a, f9.4, a, f9.4, a, f7.2, a, f7.1, a)', 'floor (s): DGEMM alone ', t_dgemm, &
          ', compressed bytes / link ', most / rate, '  (busiest rank ', most / 1.0e6, ' MB at ', &
          rate / 1.0e9, ' GB/s)'
        print '(a, f7.2, a, f7.2, a)', 'eccl panels / floor ', t_eccl / max(t_dgemm, most / rate), &
          '  (plain panels / eccl panels ', t_plain / t_eccl, ')'
      else if (rate > 0) then
        ! host arrays: the network's share of the floor (the local DGEMMs are not timed alone)
        print '(a, f9.4, a, f7.2, a, f7.1, a)', 'compressed bytes / link (s) ', most / rate, &
          '  (busiest rank ', most / 1.0e6, ' MB at ', rate / 1.0e9, ' GB/s, grid rank 0 to 1)'
      end if
    end if
  end subroutine run

end program summa
