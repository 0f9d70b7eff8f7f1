# tests/: the specification.  `make check` runs everything; each program exits 0 (pass),
# 77 (skip, with a message) or 1 (fail).
noinst_HEADERS += tests/testutil.h tests/ref_decoder.h tests/golden_inputs.h
TEST_LDADD = libeccl.la -lm

# With more runnable threads than cores (make -j check, or a loaded machine), OpenMP's default
# spinning barriers make the many small calls of the tests ten times slower; wait passively unless
# the caller chose otherwise.
AM_TESTS_ENVIRONMENT = : $${OMP_WAIT_POLICY:=PASSIVE}; export OMP_WAIT_POLICY;

# The independent implementation of doc/format.md (tests/ref_decoder.c), used by several tests.
check_LTLIBRARIES += tests/libecclref.la
tests_libecclref_la_SOURCES = tests/ref_decoder.c
REF_LDADD = tests/libecclref.la $(TEST_LDADD)

CODEC_TESTS = tests/test_codec tests/test_refdecode tests/test_golden tests/test_corrupt tests/test_hom tests/test_api
check_PROGRAMS += $(CODEC_TESTS)
TESTS += $(CODEC_TESTS)
tests_test_codec_SOURCES = tests/test_codec.c
tests_test_codec_LDADD = $(TEST_LDADD)
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
