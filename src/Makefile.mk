# src/: the C core (codec, core, later prims/coll/transport/scalapack) and the tools.
noinst_HEADERS = src/core/internal.h src/core/env.h src/codec/format.h src/codec/codec.h src/codec/fast.h src/codec/fast_avx2.h

libeccl_la_SOURCES += \
	src/core/error.c \
	src/core/env.c \
	src/codec/block.c \
	src/codec/stream.c \
	src/codec/api.c \
	src/codec/block_fast.c \
	src/codec/block_fast64.c \
	src/codec/sparse_fast.c \
	src/codec/range_fast.c \
	src/codec/fast_stubs.c \
	src/codec/hom.c \
	src/codec/tile.c


# core, transport, primitives, collectives
noinst_HEADERS += src/core/comm.h src/core/model.h src/core/pool.h src/core/log.h src/transport/transport.h \
	src/prims/prims.h src/prims/internal.h src/prims/call.h src/coll/coll.h src/coll/model.h src/coll/common/common.h src/coll/select.h src/coll/agree.h src/coll/engine.h src/coll/stage.h src/coll/algorithms.def src/core/dtype.h
libeccl_la_SOURCES += \
	src/core/comm.c \
	src/core/pool.c \
	src/core/devptr.c \
	src/core/log.c \
	src/transport/mpi.c \
	src/transport/node.c \
	src/transport/registry.c \
	src/core/model.c \
	src/prims/prims.c \
	src/prims/net.c \
	src/coll/algorithms.c \
	src/coll/dispatch.c \
	src/coll/select.c \
	src/coll/agree.c \
	src/coll/engine.c \
	src/coll/enqueue.c \
	src/coll/stage.c \
	src/coll/communicator.c \
	src/coll/common/ring.c \
	src/coll/common/ring_pipelined.c \
	src/coll/common/tree.c \
	src/coll/common/scatter.c \
	src/coll/bcast/bcast_mpi.c \
	src/coll/bcast/bcast_binomial.c \
	src/coll/bcast/bcast_scatter_allgather.c \
	src/coll/bcast/bcast_pipeline.c \
	src/coll/bcast/bcast_nccl.c \
	src/coll/allreduce/allreduce_mpi.c \
	src/coll/allreduce/allreduce_ring.c \
	src/coll/allreduce/allreduce_ring_pipelined.c \
	src/coll/allreduce/allreduce_hierarchical.c \
	src/coll/allreduce/allreduce_recursive_doubling.c \
	src/coll/allreduce/allreduce_rabenseifner.c \
	src/coll/allreduce/allreduce_reduce_bcast.c \
	src/coll/allreduce/allreduce_nccl.c \
	src/coll/reduce/reduce_mpi.c \
	src/coll/reduce/reduce_binomial.c \
	src/coll/reduce_scatter_block/reduce_scatter_block_mpi.c \
	src/coll/reduce_scatter_block/reduce_scatter_block_ring.c \
	src/coll/reduce_scatter_block/reduce_scatter_block_ring_pipelined.c \
	src/coll/reduce_scatter_block/reduce_scatter_block_recursive_halving.c \
	src/coll/allgather/allgather_mpi.c \
	src/coll/allgather/allgather_ring.c \
	src/coll/allgather/allgather_recursive_doubling.c \
	src/coll/allgather/allgather_bruck.c \
	src/coll/scatter/scatter_mpi.c \
	src/coll/scatter/scatter_binomial.c \
	src/coll/gather/gather_mpi.c \
	src/coll/gather/gather_binomial.c \
	src/coll/sendrecv_replace/sendrecv_replace_mpi.c \
	src/coll/sendrecv_replace/sendrecv_replace_compressed.c

# The documentation table of the ECCL_* variables (eccl-info, tests/test_info.sh, doc/env.md).
libeccl_la_SOURCES += src/core/env_doc.c

# The NCCL transport: its own convenience library, the only C file that sees nccl.h and the CUDA
# runtime's header (without NCCL: the device-resident agreement and the GPU codec's measurement
# only, and stubs that are never reached).
noinst_LTLIBRARIES += libeccl_nccl.la
libeccl_nccl_la_SOURCES = src/transport/nccl.c
libeccl_nccl_la_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS) $(NCCL_CPPFLAGS)
libeccl_la_LIBADD += libeccl_nccl.la $(NCCL_LDFLAGS) $(NCCL_LIBS)
