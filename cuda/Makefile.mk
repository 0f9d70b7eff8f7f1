# cuda/: kernels, reached only through cuda/*.h.  libtool has no CUDA tag: .cu.lo goes through
# build-aux/cudalt.sh.  -fmad=false: no contraction to FMA, so results match the CPU codec bit
# for bit (doc/format.md).
NVCC_COMPILE = $(top_srcdir)/build-aux/cudalt.sh $@ $(NVCC) $(NVCC_GENCODE) -O3 -fmad=false \
	-std=c++17 -Xcompiler -Wall $(AM_CPPFLAGS) $(MPI_CPPFLAGS) $(CUDA_CPPFLAGS) $(NCCL_CPPFLAGS) \
	$(NVCCFLAGS)

.cu.lo:
	$(AM_V_GEN)$(NVCC_COMPILE) -c $<

# (automake tracks no dependencies through the suffix rule: every kernel file is rebuilt when a
# header it may include changes)
ECCL_CUDA_DEPS = cuda/codec_dev.cuh cuda/kernels.h cuda/enc32.cuh cuda/enc64.cuh cuda/dec.cuh cuda/device.h \
	src/codec/format.h src/core/dtype.h include/eccl.h include/eccl_cuda.h
cuda/device.lo cuda/resident.lo cuda/codec.lo cuda/compress.lo cuda/compress32.lo cuda/compress64.lo \
	cuda/decompress.lo cuda/hom32.lo: $(ECCL_CUDA_DEPS)

if HAVE_CUDA
libeccl_la_SOURCES += cuda/device.cu cuda/resident.cu cuda/codec.cu cuda/compress.cu cuda/compress32.cu cuda/compress64.cu cuda/decompress.cu cuda/hom32.cu
libeccl_la_LIBADD += $(CUDA_LDFLAGS) $(CUDA_LIBS) -lstdc++
else
libeccl_la_SOURCES += cuda/nocuda.c
endif
include_HEADERS += include/eccl_cuda.h
noinst_HEADERS += cuda/device.h cuda/codec_dev.cuh cuda/kernels.h cuda/enc32.cuh cuda/enc64.cuh cuda/dec.cuh
EXTRA_DIST += cuda/device.cu cuda/resident.cu cuda/codec.cu cuda/compress.cu cuda/compress32.cu cuda/compress64.cu cuda/decompress.cu cuda/hom32.cu cuda/nocuda.c
