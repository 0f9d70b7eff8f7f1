# bench/: benchmarks (built by `make`, run by hand; they report, they do not judge).
noinst_PROGRAMS += bench/bench_codec
bench_bench_codec_SOURCES = bench/bench_codec.c
bench_bench_codec_LDADD = libeccl.la $(NETCDF_LIBS) -lm

if HAVE_CUDA
noinst_PROGRAMS += bench/bench_cuda_codec
bench_bench_cuda_codec_SOURCES = bench/bench_cuda_codec.c
bench_bench_cuda_codec_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
bench_bench_cuda_codec_LDADD = libeccl.la $(CUDA_LDFLAGS) $(CUDA_LIBS) -lm
endif
