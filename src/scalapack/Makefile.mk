# src/scalapack/: the BLACS/ScaLAPACK layer (include/eccl_scalapack.h, doc/scalapack.md).
#
# Built into libeccl when configure found ScaLAPACK.  libeccl then links $(SCALAPACK_LIBS) itself
# (the layer calls BLACS), so the shared library carries that dependency and C programs that do
# not use the layer link as before; programs that call BLACS or PBLAS themselves (and static
# links) add $(SCALAPACK_LIBS): `-leccl $(SCALAPACK_LIBS)`.
if HAVE_SCALAPACK
include_HEADERS += include/eccl_scalapack.h
noinst_HEADERS += src/scalapack/sl.h
libeccl_la_SOURCES += \
	src/scalapack/grid.c \
	src/scalapack/pack.c \
	src/scalapack/blacs.c \
	src/scalapack/panel.c
libeccl_la_LIBADD += $(SCALAPACK_LIBS)
endif
