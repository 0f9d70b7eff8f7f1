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
