# src/interpose/: libeccl_blacs, the BLACS interposer (doc/blacs-interposer.md).
#
# A second installed library, built when configure found ScaLAPACK.  It defines the BLACS
# broadcast and sum entry points and reaches the real ones with dlsym(RTLD_NEXT), so it must come
# ahead of ScaLAPACK: LD_PRELOAD=$(libdir)/libeccl_blacs.so, or -leccl_blacs before -lscalapack.
# It links libeccl (the drop-ins) and ScaLAPACK (BLACS' grid queries).
if HAVE_SCALAPACK
lib_LTLIBRARIES += libeccl_blacs.la
noinst_HEADERS += src/interpose/interpose.h
libeccl_blacs_la_SOURCES = src/interpose/policy.c src/interpose/entry.c src/interpose/report.c
libeccl_blacs_la_LIBADD = libeccl.la $(SCALAPACK_LIBS)
libeccl_blacs_la_LDFLAGS = -version-info 0:0:0 -no-undefined
endif
