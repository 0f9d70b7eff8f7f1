# bench/: benchmarks (built by `make`, run by hand; they report, they do not judge).
noinst_PROGRAMS += bench/bench_codec
bench_bench_codec_SOURCES = bench/bench_codec.c
bench_bench_codec_LDADD = libeccl.la $(NETCDF_LIBS) -lm
