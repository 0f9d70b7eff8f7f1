# tests/: the specification.  `make check` runs everything; each program exits 0 (pass),
# 77 (skip, with a message) or 1 (fail).
noinst_HEADERS += tests/testutil.h tests/testutil_mpi.h tests/ref_decoder.h tests/golden_inputs.h tests/fuzz/fuzz_target.h
TEST_LDADD = libeccl.la -lm

# With more runnable threads than cores (make -j check, or a loaded machine), OpenMP's default
# spinning barriers make the many small calls of the tests ten times slower; wait passively unless
# the caller chose otherwise.
AM_TESTS_ENVIRONMENT = : $${OMP_WAIT_POLICY:=PASSIVE}; export OMP_WAIT_POLICY;

# The independent implementation of doc/format.md (tests/ref_decoder.c), used by several tests.
check_LTLIBRARIES += tests/libecclref.la
tests_libecclref_la_SOURCES = tests/ref_decoder.c
REF_LDADD = tests/libecclref.la $(TEST_LDADD)

CODEC_TESTS = tests/test_codec tests/test_fastpath tests/test_refdecode tests/test_golden tests/test_corrupt \
	tests/test_hom tests/test_api tests/test_fuzz_smoke tests/test_pool tests/test_format2 tests/test_format3
check_PROGRAMS += $(CODEC_TESTS)
TESTS += $(CODEC_TESTS)
tests_test_codec_SOURCES = tests/test_codec.c
tests_test_codec_LDADD = $(TEST_LDADD)

tests_test_format2_SOURCES = tests/test_format2.c
tests_test_format2_LDADD = $(REF_LDADD)
tests_test_format3_SOURCES = tests/test_format3.c
tests_test_format3_LDADD = $(REF_LDADD)

tests_test_pool_SOURCES = tests/test_pool.c
tests_test_pool_LDADD = $(TEST_LDADD)

tests_test_fastpath_SOURCES = tests/test_fastpath.c
tests_test_fastpath_LDADD = $(REF_LDADD)

# eccl-probe end to end (tests/test_probe.sh): gen_raw writes the fields, cmp_raw checks the
# reconstructions independently of the probe.  The script finds the programs through
# top_builddir; extend AM_TESTS_ENVIRONMENT with += rather than redefining it.
AM_TESTS_ENVIRONMENT += top_builddir=$(top_builddir) top_srcdir=$(top_srcdir) \
	ECCL_NCARG_DIR='$(ECCL_NCARG_DIR)'; export top_builddir top_srcdir ECCL_NCARG_DIR;
TEST_EXTENSIONS = .test .sh
SH_LOG_COMPILER = $(SHELL)
check_PROGRAMS += tests/gen_raw tests/cmp_raw
tests_gen_raw_SOURCES = tests/gen_raw.c
tests_gen_raw_LDADD = -lm
tests_cmp_raw_SOURCES = tests/cmp_raw.c
tests_cmp_raw_LDADD = -lm
TESTS += tests/test_probe.sh
EXTRA_DIST += tests/test_probe.sh

# MPI tests: tests/<name>.mpi holds "<ranks> <program> [args]"; mpi_run.sh launches it.
MPI_LOG_COMPILER = $(SHELL) $(srcdir)/tests/mpi_run.sh
TEST_EXTENSIONS += .mpi
AM_TESTS_ENVIRONMENT += MPIEXEC='$(MPIEXEC)'; export MPIEXEC;
COLL_TESTS = tests/coll_np1.mpi tests/coll_np2.mpi tests/coll_np3.mpi tests/coll_np4.mpi \
	tests/coll_np5.mpi tests/coll_np7.mpi tests/coll_np8.mpi \
	tests/corrupt_np2.mpi tests/corrupt_np3.mpi tests/corrupt_np4.mpi \
	tests/coll_hier_np4.mpi tests/coll_hier_np6.mpi tests/corrupt_hier_np4.mpi \
	tests/coll_chunks_np4.mpi tests/corrupt_chunks_np3.mpi \
	tests/coll_fmt2_np3.mpi tests/coll_fmt2_np5.mpi tests/corrupt_fmt2_np3.mpi \
	tests/coll_fmt3_np3.mpi tests/corrupt_fmt3_np3.mpi
# (coll_hier_*, corrupt_hier_*: ECCL_NODE_SIZE splits the ranks into nodes, so the hierarchical
# allreduce runs on one machine; *_chunks_*: ECCL_CHUNKS makes the pipelined algorithms cut
# several chunks, which the CPU cost model never does for the pipelined ring; *_fmt2_*, *_fmt3_*:
# ECCL_FORMAT=2 or 3, every collective on version-2 or version-3 streams)
TESTS += $(COLL_TESTS)
EXTRA_DIST += tests/mpi_run.sh $(COLL_TESTS)
check_PROGRAMS += tests/test_coll
tests_test_coll_SOURCES = tests/test_coll.c
check_PROGRAMS += tests/test_coll_corrupt
tests_test_coll_corrupt_SOURCES = tests/test_coll_corrupt.c
tests_test_coll_corrupt_LDADD = $(TEST_LDADD)
tests_test_coll_LDADD = $(TEST_LDADD)

# The collectives' contract under hostile or careless use (issue 22): mismatched arguments, a REL
# range with a rank of no finite value, the fallback policy, intercommunicators, count limits; the
# _device_ ones on CUDA device buffers (skip, 77, without a GPU on every rank)
CONTRACT_TESTS = tests/contract_np1.mpi tests/contract_np2.mpi tests/contract_np3.mpi tests/contract_np4.mpi \
	tests/contract_np5.mpi tests/contract_device_np2.mpi tests/contract_device_np3.mpi \
	tests/contract_devoom_fault_np2.mpi tests/contract_devoom_np2.mpi
TESTS += $(CONTRACT_TESTS)
EXTRA_DIST += $(CONTRACT_TESTS)
check_PROGRAMS += tests/test_contract
tests_test_contract_SOURCES = tests/test_contract.c
tests_test_contract_LDADD = $(TEST_LDADD)

# The nonblocking collectives (issue 19): bit for bit the blocking results at 1-5 ranks, many
# requests in flight, interleaved with blocking calls, progress without the caller, errors and
# corrupt streams in flight, with a progress thread and without (--single, ECCL_PROGRESS=caller);
# the _device_ ones on CUDA device buffers (skip, 77, without a GPU on every rank)
NONBLOCKING_TESTS = tests/nonblocking_np1.mpi tests/nonblocking_np2.mpi tests/nonblocking_np3.mpi \
	tests/nonblocking_np4.mpi tests/nonblocking_np5.mpi tests/nonblocking_single_np3.mpi \
	tests/nonblocking_caller_np2.mpi tests/nonblocking_corrupt_np3.mpi tests/nonblocking_device_np2.mpi
TESTS += $(NONBLOCKING_TESTS)
EXTRA_DIST += $(NONBLOCKING_TESTS)
check_PROGRAMS += tests/test_nonblocking
tests_test_nonblocking_SOURCES = tests/test_nonblocking.c
tests_test_nonblocking_LDADD = $(TEST_LDADD)

# One selection: every auto call's algorithm is the one eccl-info --model's predictor names for the
# same figures (src/coll/select.c), over a grid of collectives, dtypes, sizes, bounds and links
SELECT_TESTS = tests/select_np2.mpi tests/select_np3.mpi tests/select_np4.mpi tests/select_reuse_np3.mpi
TESTS += $(SELECT_TESTS)
EXTRA_DIST += $(SELECT_TESTS)
check_PROGRAMS += tests/test_select
tests_test_select_SOURCES = tests/test_select.c
tests_test_select_LDADD = $(TEST_LDADD)

# The collectives on CUDA device buffers, bit for bit against the host path (skips, 77, without
# the CUDA backend or a GPU on every rank; run it on the GPU host: bench/gpu_host.sh test).
DEVICE_COLL_TESTS = tests/coll_device_np2.mpi tests/coll_device_np3.mpi tests/coll_device_staged_np2.mpi \
	tests/corrupt_device_np2.mpi tests/corrupt_device_np3.mpi tests/coll_device_hier_np4.mpi \
	tests/coll_device_hier_np6.mpi tests/coll_device_hier_staged_np4.mpi tests/corrupt_device_hier_np4.mpi \
	tests/coll_device_fmt2_np2.mpi tests/coll_device_fmt3_np2.mpi
# (coll_device_fmt2_*: ECCL_FORMAT=2, the GPU codec writing version 2; coll_device_fmt3_*: ECCL_FORMAT=3,
# the GPU codec writing version 3; coll_device_hier_*: the hierarchical allreduce's node steps through CUDA IPC windows, three ranks
# a node at np6; _staged: ECCL_NODE_IPC=0 stages them through the host as before)
TESTS += $(DEVICE_COLL_TESTS)
EXTRA_DIST += $(DEVICE_COLL_TESTS)
check_PROGRAMS += tests/test_coll_device
tests_test_coll_device_SOURCES = tests/test_coll_device.c
tests_test_coll_device_LDADD = $(TEST_LDADD)
# Strided device matrices when no device buffer can be had to pack them (skips without a GPU)
MATRIX_TESTS = tests/matrix_device_np2.mpi tests/matrix_device_np3.mpi
TESTS += $(MATRIX_TESTS)
EXTRA_DIST += $(MATRIX_TESTS)
check_PROGRAMS += tests/test_matrix_device
tests_test_matrix_device_SOURCES = tests/test_matrix_device.c
tests_test_matrix_device_LDADD = $(TEST_LDADD)
# eccl_cuda_comm_set_stream: calls wait for the work on the communicator's stream (a GPU on
# every rank; skips otherwise; with the CUDA runtime, per-target flags set in every build)
STREAM_TESTS = tests/stream_device_np2.mpi tests/stream_device_staged_np2.mpi
TESTS += $(STREAM_TESTS)
EXTRA_DIST += $(STREAM_TESTS)
check_PROGRAMS += tests/test_stream_device
tests_test_stream_device_SOURCES = tests/test_stream_device.c
tests_test_stream_device_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
tests_test_stream_device_LDADD = $(TEST_LDADD)
if HAVE_CUDA
tests_test_stream_device_LDADD += $(CUDA_LDFLAGS) $(CUDA_LIBS)
endif
# The stream-enqueued collectives (eccl_cuda_<op>_async, issue 19): bit for bit the blocking
# results, in stream order, with the caller not waiting; errors and corrupt streams reported by
# eccl_cuda_comm_async_error on every rank (a GPU on every rank; skips otherwise)
CUDA_ASYNC_TESTS = tests/cuda_async_np2.mpi tests/cuda_async_np3.mpi tests/cuda_async_caller_np2.mpi \
	tests/cuda_async_corrupt_np2.mpi
TESTS += $(CUDA_ASYNC_TESTS)
EXTRA_DIST += $(CUDA_ASYNC_TESTS)
check_PROGRAMS += tests/test_cuda_async
tests_test_cuda_async_SOURCES = tests/test_cuda_async.c
tests_test_cuda_async_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
tests_test_cuda_async_LDADD = $(TEST_LDADD)
if HAVE_CUDA
tests_test_cuda_async_LDADD += $(CUDA_LDFLAGS) $(CUDA_LIBS)
endif
# eccl_cuda_comm_mpi_aware: the CUDA-aware MPI decision (ECCL_CUDA_AWARE, MPIX_Query_cuda_support);
# needs no GPU
CUDA_AWARE_TESTS = tests/cuda_aware_np2.mpi tests/cuda_aware_on_np2.mpi tests/cuda_aware_off_np2.mpi
TESTS += $(CUDA_AWARE_TESTS)
EXTRA_DIST += $(CUDA_AWARE_TESTS)
check_PROGRAMS += tests/test_cuda_aware
tests_test_cuda_aware_SOURCES = tests/test_cuda_aware.c
tests_test_cuda_aware_LDADD = $(TEST_LDADD)

# The Fortran module: a Fortran program plus C helpers that report the C layout of the bind(C) types.
if HAVE_FORTRAN
check_PROGRAMS += tests/test_fortran
TESTS += tests/test_fortran
tests_test_fortran_SOURCES = tests/test_fortran.F90 tests/test_fortran_layout.c
tests_test_fortran_LDADD = libeccl.la
tests/test_fortran.$(OBJEXT): fortran/eccl.lo
endif

tests_test_refdecode_SOURCES = tests/test_refdecode.c
tests_test_refdecode_LDADD = $(REF_LDADD)
tests_test_golden_SOURCES = tests/test_golden.c
tests_test_golden_LDADD = $(REF_LDADD)
tests_test_corrupt_SOURCES = tests/test_corrupt.c
tests_test_corrupt_LDADD = $(REF_LDADD)
tests_test_hom_SOURCES = tests/test_hom.c
tests_test_hom_LDADD = $(REF_LDADD)
tests_test_api_SOURCES = tests/test_api.c
tests_test_api_LDADD = $(REF_LDADD)
tests_test_fuzz_smoke_SOURCES = tests/fuzz/fuzz_driver.c tests/fuzz/fuzz_decompress.c
tests_test_fuzz_smoke_LDADD = $(REF_LDADD)
tests_test_fuzz_smoke_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/tests

# ---- libFuzzer (not part of `make check`): FUZZ_SECONDS=60 make fuzz; see tests/fuzz/README.md.
# The library sources are compiled straight into the fuzzer with its instrumentation (no libtool
# rebuild); the seed corpus is tests/fuzz/corpus, new inputs go to tests/fuzz/work/corpus.
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_CFLAGS ?= -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-fno-omit-frame-pointer -ffp-contract=off -std=c11
FUZZ_ARGS ?=
FUZZ_SRCS = $(top_srcdir)/tests/fuzz/fuzz_decompress.c $(top_srcdir)/tests/ref_decoder.c \
	$(wildcard $(top_srcdir)/src/codec/*.c) $(top_srcdir)/src/core/error.c $(top_srcdir)/src/core/env.c
EXTRA_DIST += tests/fuzz/README.md tests/fuzz/corpus tests/fuzz/regress

tests/fuzz/fuzz_decompress_libfuzzer: $(FUZZ_SRCS) $(top_srcdir)/tests/ref_decoder.h \
		$(top_srcdir)/tests/fuzz/fuzz_target.h $(top_srcdir)/src/codec/format.h \
		$(top_srcdir)/src/codec/codec.h $(top_srcdir)/include/eccl.h
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CC)$(FUZZ_CC) $(FUZZ_CFLAGS) -DECCL_LIBFUZZER -I$(top_builddir) -I$(top_srcdir)/include $(MPI_CPPFLAGS) \
		-I$(top_srcdir)/src -I$(top_srcdir)/tests -I$(top_srcdir) $(FUZZ_SRCS) -lm -o $@

fuzz: tests/fuzz/fuzz_decompress_libfuzzer
	@$(MKDIR_P) tests/fuzz/work/corpus tests/fuzz/work/crashes
	cd tests/fuzz/work && ../fuzz_decompress_libfuzzer -max_total_time=$(FUZZ_SECONDS) \
		-artifact_prefix=crashes/ -print_final_stats=1 $(FUZZ_ARGS) corpus $(abs_top_srcdir)/tests/fuzz/corpus

CLEANFILES += tests/fuzz/fuzz_decompress_libfuzzer
.PHONY: fuzz

# The GPU codec against the CPU codec (skips, exit 77, without the CUDA backend or a GPU).
if HAVE_CUDA
check_PROGRAMS += tests/test_cuda_codec
TESTS += tests/test_cuda_codec
tests_test_cuda_codec_SOURCES = tests/test_cuda_codec.c
tests_test_cuda_codec_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
tests_test_cuda_codec_LDADD = $(TEST_LDADD) $(CUDA_LDFLAGS) $(CUDA_LIBS)
# the GPU decoder on format version 2 (written by the CPU codec)
check_PROGRAMS += tests/test_cuda_format2
TESTS += tests/test_cuda_format2
tests_test_cuda_format2_SOURCES = tests/test_cuda_format2.c
tests_test_cuda_format2_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
tests_test_cuda_format2_LDADD = $(REF_LDADD) $(CUDA_LDFLAGS) $(CUDA_LIBS)
endif

# eccl-info and the one list of ECCL_* variables (src/core/env_doc.c, doc/env.md): see the script.
TESTS += tests/test_info.sh
EXTRA_DIST += tests/test_info.sh
# The layers of src/ and cuda/: no folder includes a header of a layer above it (no import cycles)
TESTS += tests/test_layers.sh
EXTRA_DIST += tests/test_layers.sh

# ---- The ScaLAPACK/BLACS layer (src/scalapack, its Fortran modules, examples/summa and cannon):
# Fortran programs against the real BLACS and PBLAS, on 2x2 grids of both orders and a 2x3 grid;
# the summa and cannon examples (built by `make`) run on small sizes and exit 1 on a bound violation.
SCALAPACK_TESTS = tests/blacs_2x2_r.mpi tests/blacs_2x2_c.mpi tests/blacs_2x3.mpi \
	tests/panel_2x2_r.mpi tests/panel_2x2_c.mpi tests/panel_2x3.mpi \
	tests/summa_2x2_r.mpi tests/summa_2x2_c.mpi tests/summa_2x3.mpi \
	tests/cannon_2x2_r.mpi tests/cannon_2x2_c.mpi \
	tests/summa_device_np2.mpi tests/summa_device_2x2.mpi \
	tests/summa_lookahead_2x3.mpi tests/summa_lookahead_device_np2.mpi tests/cannon_lookahead_2x2.mpi
# (summa --device: device panels and cuBLAS against PDGEMM; skips, 77, without a GPU or cuBLAS)
EXTRA_DIST += $(SCALAPACK_TESTS)
if HAVE_SCALAPACK
if HAVE_FORTRAN
check_PROGRAMS += tests/test_blacs tests/test_panel
tests_test_blacs_SOURCES = tests/test_blacs_cases.F90 tests/test_blacs.F90
tests_test_blacs_LDADD = libeccl.la $(SCALAPACK_LIBS)
tests/test_blacs_cases.$(OBJEXT): fortran/eccl.lo
tests/test_blacs.$(OBJEXT): tests/test_blacs_cases.$(OBJEXT)
tests_test_panel_SOURCES = tests/test_panel.F90
tests_test_panel_LDADD = libeccl.la $(SCALAPACK_LIBS)
tests/test_panel.$(OBJEXT): fortran/eccl.lo
TESTS += $(SCALAPACK_TESTS)
endif
endif

# examples/stack: the compressed ensemble average of a netCDF sample field (skips, 77, without it).
EXTRA_DIST += tests/stack_np4.mpi
if HAVE_NETCDF
TESTS += tests/stack_np4.mpi
endif

# The communicators and collectives of the Fortran module (any rank count; 3 here).
EXTRA_DIST += tests/fortran_coll_np3.mpi
if HAVE_FORTRAN
check_PROGRAMS += tests/test_fortran_coll
tests_test_fortran_coll_SOURCES = tests/test_fortran_coll.F90 tests/test_fortran_coll_layout.c
tests_test_fortran_coll_LDADD = libeccl.la
tests/test_fortran_coll.$(OBJEXT): fortran/eccl.lo
TESTS += tests/fortran_coll_np3.mpi
endif

# bench/bench_coll (noinst, built by `make`) keeps building and running: a small allreduce on 2
# ranks; it exits 1 if a result is outside its bound.
TESTS += tests/bench_smoke.mpi
EXTRA_DIST += tests/bench_smoke.mpi

# The BLACS drop-ins on device arrays, bit for bit against host arrays (C; skips, 77, without a
# GPU on every rank: run on the GPU host by bench/gpu_host.sh test).
EXTRA_DIST += tests/blacs_device_2x2.mpi
if HAVE_SCALAPACK
check_PROGRAMS += tests/test_blacs_device
tests_test_blacs_device_SOURCES = tests/test_blacs_device.c
tests_test_blacs_device_LDADD = libeccl.la $(SCALAPACK_LIBS) -lm
# (with CUDA, the runtime: a reader on a non-blocking stream checks that results are complete on
# return; the per-target flags are set in every build: automake names the objects after them)
tests_test_blacs_device_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
if HAVE_CUDA
tests_test_blacs_device_LDADD += $(CUDA_LDFLAGS) $(CUDA_LIBS)
endif
TESTS += tests/blacs_device_2x2.mpi
endif

# libeccl_blacs (src/interpose/, doc/blacs-interposer.md): its settings, and the interposer under
# Debian's prebuilt ScaLAPACK testers and examples/pdgemm_plain (tests/test_interpose.sh; skips
# without the scalapack-mpi-test package).
if HAVE_SCALAPACK
check_PROGRAMS += tests/test_interpose_policy
TESTS += tests/test_interpose_policy
tests_test_interpose_policy_SOURCES = tests/test_interpose_policy.c src/interpose/policy.c
tests_test_interpose_policy_CPPFLAGS = $(AM_CPPFLAGS)
tests_test_interpose_policy_LDADD = -lm
# a plain C BLACS program (no eccl): every C entry point, checked elementwise; ends without gridexit
check_PROGRAMS += tests/interpose_c
tests_interpose_c_SOURCES = tests/interpose_c.c
tests_interpose_c_LDADD = $(SCALAPACK_LIBS) -lm
if HAVE_FORTRAN
TESTS += tests/test_interpose.sh
endif
endif
EXTRA_DIST += tests/test_interpose.sh tests/blacs_tester/bt.dat tests/blacs_tester/bsbr.dat \
	tests/blacs_tester/comb.dat tests/blacs_tester/PDBLAS3TST.dat tests/blacs_tester/LU.dat \
	tests/blacs_tester/LLT.dat

# The second MPI flavour: quickstart.sh test runs these in ./build-openmpi (Open MPI) after the
# full suite ran with MPICH.  Every family of MPI tests at two or three rank counts, and the tests
# whose outcome depends on the MPI library (the Fortran MPI handles, MPIX_Query_cuda_support,
# eccl-info --model under the launcher); the codec tests and test_probe/test_layers, which do not
# touch MPI, are left out.  About 3 minutes on 2 cores.
FLAVOUR_TESTS = tests/coll_np2.mpi tests/coll_np3.mpi tests/coll_np5.mpi tests/coll_hier_np6.mpi \
	tests/coll_chunks_np4.mpi tests/corrupt_np2.mpi tests/corrupt_np3.mpi tests/corrupt_np4.mpi \
	tests/corrupt_hier_np4.mpi tests/corrupt_chunks_np3.mpi \
	tests/contract_np2.mpi tests/contract_np3.mpi tests/contract_np4.mpi \
	tests/nonblocking_np2.mpi tests/nonblocking_np3.mpi tests/nonblocking_np5.mpi \
	tests/nonblocking_single_np3.mpi tests/nonblocking_caller_np2.mpi tests/nonblocking_corrupt_np3.mpi \
	tests/select_np2.mpi tests/cuda_aware_np2.mpi tests/cuda_aware_on_np2.mpi \
	tests/cuda_aware_off_np2.mpi tests/bench_smoke.mpi tests/test_info.sh
if HAVE_FORTRAN
FLAVOUR_TESTS += tests/test_fortran tests/fortran_coll_np3.mpi
if HAVE_SCALAPACK
FLAVOUR_TESTS += tests/blacs_2x2_r.mpi tests/blacs_2x2_c.mpi tests/blacs_2x3.mpi \
	tests/panel_2x2_r.mpi tests/panel_2x3.mpi tests/summa_2x2_r.mpi tests/summa_2x3.mpi \
	tests/summa_lookahead_2x3.mpi tests/cannon_2x2_r.mpi tests/cannon_2x2_c.mpi \
	tests/cannon_lookahead_2x2.mpi tests/test_interpose.sh
endif
endif
if HAVE_NETCDF
FLAVOUR_TESTS += tests/stack_np4.mpi
endif
