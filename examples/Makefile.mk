# examples/: small MPI programs that show eccl in use (built by `make`, not installed).
# demo: compressed vs plain broadcast of a 2-D field (./quickstart.sh demo runs it on 4 ranks).
noinst_PROGRAMS += examples/demo
examples_demo_SOURCES = examples/demo.c
examples_demo_LDADD = libeccl.la -lm
