# tests/: the specification.  `make check` runs everything; each program exits 0 (pass),
# 77 (skip, with a message) or 1 (fail).
noinst_HEADERS += tests/testutil.h
TEST_LDADD = libeccl.la -lm

CODEC_TESTS = tests/test_codec
check_PROGRAMS += $(CODEC_TESTS)
TESTS += $(CODEC_TESTS)
tests_test_codec_SOURCES = tests/test_codec.c
tests_test_codec_LDADD = $(TEST_LDADD)

CODEC_TESTS += tests/test_fastpath
check_PROGRAMS += tests/test_fastpath
TESTS += tests/test_fastpath
tests_test_fastpath_SOURCES = tests/test_fastpath.c
tests_test_fastpath_LDADD = $(TEST_LDADD)

# eccl-probe end to end (tests/test_probe.sh): gen_raw writes the fields, cmp_raw checks the
# reconstructions independently of the probe.  The script finds the programs through
# top_builddir; extend AM_TESTS_ENVIRONMENT with += rather than redefining it.
AM_TESTS_ENVIRONMENT = top_builddir=$(top_builddir) top_srcdir=$(top_srcdir) \
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
	tests/coll_np5.mpi tests/coll_np7.mpi tests/coll_np8.mpi
TESTS += $(COLL_TESTS)
EXTRA_DIST += tests/mpi_run.sh $(COLL_TESTS)
check_PROGRAMS += tests/test_coll
tests_test_coll_SOURCES = tests/test_coll.c
tests_test_coll_LDADD = $(TEST_LDADD)

# The Fortran module: a Fortran program plus C helpers that report the C layout of the bind(C) types.
if HAVE_FORTRAN
check_PROGRAMS += tests/test_fortran
TESTS += tests/test_fortran
tests_test_fortran_SOURCES = tests/test_fortran.F90 tests/test_fortran_layout.c
tests_test_fortran_LDADD = libeccl.la
tests/test_fortran.$(OBJEXT): fortran/eccl.lo
endif
