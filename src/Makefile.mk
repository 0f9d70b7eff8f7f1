# src/: the C core (codec, core, later prims/coll/transport/scalapack) and the tools.
noinst_HEADERS = src/core/internal.h src/core/env.h src/codec/format.h src/codec/codec.h src/codec/fast.h

libeccl_la_SOURCES += \
	src/core/error.c \
	src/core/env.c \
	src/codec/block.c \
	src/codec/stream.c \
	src/codec/api.c \
	src/codec/block_fast.c \
	src/codec/hom.c

