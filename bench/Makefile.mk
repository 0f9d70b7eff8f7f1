# bench/: benchmarks (built by `make`, run by hand; they report, they do not judge).
noinst_PROGRAMS += bench/bench_codec
bench_bench_codec_SOURCES = bench/bench_codec.c bench/peers.h
bench_bench_codec_LDADD = libeccl.la $(NETCDF_LIBS) -lm

if HAVE_CUDA
noinst_PROGRAMS += bench/bench_cuda_codec
bench_bench_cuda_codec_SOURCES = bench/bench_cuda_codec.c bench/peers.h
bench_bench_cuda_codec_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
bench_bench_cuda_codec_LDADD = libeccl.la $(CUDA_LDFLAGS) $(CUDA_LIBS) -lm
# bench_dev_ops: what each device-resident operation (cuda/device.h) costs its caller, host waits
# included, next to one host round trip (the cost model's op_lat)
noinst_PROGRAMS += bench/bench_dev_ops
bench_bench_dev_ops_SOURCES = bench/bench_dev_ops.c
bench_bench_dev_ops_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
bench_bench_dev_ops_LDADD = libeccl.la $(CUDA_LDFLAGS) $(CUDA_LIBS) -lm
endif

# bench_coll: every collective, eccl against the same MPI collective (one file per collective
# filling a bench_coll_t of the shared harness; see bench/harness.h).
noinst_PROGRAMS += bench/bench_coll
bench_bench_coll_SOURCES = bench/harness.c bench/harness.h bench/harness_data.c \
	bench/bench_bcast.c bench/bench_allreduce.c bench/bench_reduce.c \
	bench/bench_reduce_scatter_block.c bench/bench_allgather.c bench/bench_scatter.c \
	bench/bench_gather.c bench/bench_sendrecv_replace.c
bench_bench_coll_LDADD = libeccl.la $(NETCDF_LIBS) -lm

# bench_device: collectives on GPU buffers, eccl device-resident vs host-staged MPI vs NCCL.
if HAVE_CUDA
noinst_PROGRAMS += bench/bench_device
bench_bench_device_SOURCES = bench/bench_device.c bench/harness_data.c bench/harness.h
bench_bench_device_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS) $(NCCL_CPPFLAGS)
bench_bench_device_LDADD = libeccl.la $(NETCDF_LIBS) $(CUDA_LDFLAGS) $(CUDA_LIBS) -ldl -lm
endif

# bench_async: the calling thread's cost of a stream-enqueued allreduce against the blocking one.
if HAVE_CUDA
noinst_PROGRAMS += bench/bench_async
bench_bench_async_SOURCES = bench/bench_async.c
bench_bench_async_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
bench_bench_async_LDADD = libeccl.la $(CUDA_LDFLAGS) $(CUDA_LIBS) -lm
endif

# bench_overlap_gpu: an allreduce on device buffers behind a cuBLAS DGEMM stream (nonblocking,
# stream-enqueued, NCCL, MPI on host buffers)
if HAVE_CUBLAS
noinst_PROGRAMS += bench/bench_overlap_gpu
bench_bench_overlap_gpu_SOURCES = bench/bench_overlap_gpu.c bench/timing.h
bench_bench_overlap_gpu_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
bench_bench_overlap_gpu_LDADD = libeccl.la $(CUDA_LDFLAGS) $(CUBLAS_LIBS) $(CUDA_LIBS) -lm
endif

# bench_overlap: a nonblocking allreduce behind host computation, eccl_iallreduce vs MPI_Iallreduce
# (host buffers, or --device).
noinst_PROGRAMS += bench/bench_overlap
bench_bench_overlap_SOURCES = bench/bench_overlap.c bench/timing.h
bench_bench_overlap_LDADD = libeccl.la -lm
