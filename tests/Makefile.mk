# tests/: the specification.  `make check` runs everything; each program exits 0 (pass),
# 77 (skip, with a message) or 1 (fail).
noinst_HEADERS += tests/testutil.h
TEST_LDADD = libeccl.la -lm

CODEC_TESTS = tests/test_codec
check_PROGRAMS += $(CODEC_TESTS)
TESTS += $(CODEC_TESTS)
tests_test_codec_SOURCES = tests/test_codec.c
tests_test_codec_LDADD = $(TEST_LDADD)

# The Fortran module: a Fortran program plus C helpers that report the C layout of the bind(C) types.
if HAVE_FORTRAN
check_PROGRAMS += tests/test_fortran
TESTS += tests/test_fortran
tests_test_fortran_SOURCES = tests/test_fortran.F90 tests/test_fortran_layout.c
tests_test_fortran_LDADD = libeccl.la
tests/test_fortran.$(OBJEXT): fortran/eccl.lo
endif
