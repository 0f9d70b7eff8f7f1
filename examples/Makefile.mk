# examples/: small MPI programs that show eccl in use (built by `make`, not installed).
# demo: compressed vs plain broadcast of a 2-D field (./quickstart.sh demo runs it on 4 ranks).
noinst_PROGRAMS += examples/demo
examples_demo_SOURCES = examples/demo.c
examples_demo_LDADD = libeccl.la -lm

# SUMMA and Cannon on BLACS grids, checked against PDGEMM (doc/scalapack.md); ./quickstart.sh demo
# runs summa.  Fortran programs: they need ScaLAPACK and the Fortran module.
if HAVE_SCALAPACK
if HAVE_FORTRAN
noinst_PROGRAMS += examples/summa examples/cannon
examples_summa_SOURCES = examples/matmul_common.f90 examples/summa.f90 examples/summa_gpu.c
examples_summa_LDADD = libeccl.la $(SCALAPACK_LIBS)
# --device: cuBLAS DGEMM on device panels (examples/summa_gpu.c; without cuBLAS it says so)
examples_summa_CPPFLAGS = $(AM_CPPFLAGS) $(CUDA_CPPFLAGS)
if HAVE_CUBLAS
examples_summa_LDADD += $(CUDA_LDFLAGS) $(CUBLAS_LIBS) $(CUDA_LIBS)
endif
examples/matmul_common.$(OBJEXT): fortran/eccl.lo
examples/summa.$(OBJEXT): examples/matmul_common.$(OBJEXT) fortran/eccl.lo
examples_cannon_SOURCES = examples/matmul_common.f90 examples/cannon.f90
examples_cannon_LDADD = libeccl.la $(SCALAPACK_LIBS)
examples/cannon.$(OBJEXT): examples/matmul_common.$(OBJEXT) fortran/eccl.lo

# pdgemm_plain: an ordinary ScaLAPACK program with no eccl in it, for libeccl_blacs
# (doc/blacs-interposer.md): run it under LD_PRELOAD.  pdgemm_linked: the same source linked with
# -leccl_blacs ahead of ScaLAPACK, the other way in.
noinst_PROGRAMS += examples/pdgemm_plain examples/pdgemm_linked
examples_pdgemm_plain_SOURCES = examples/pdgemm_plain.f90
examples_pdgemm_plain_LDADD = $(SCALAPACK_LIBS)
examples_pdgemm_linked_SOURCES = examples/pdgemm_plain.f90
examples_pdgemm_linked_FCFLAGS = $(AM_FCFLAGS)
examples_pdgemm_linked_LDADD = libeccl_blacs.la $(SCALAPACK_LIBS)
endif
endif

# stack: ensemble averaging of a netCDF field with a compressed allreduce (needs netCDF).
if HAVE_NETCDF
noinst_PROGRAMS += examples/stack
examples_stack_SOURCES = examples/stack.c
examples_stack_CPPFLAGS = $(AM_CPPFLAGS) -DECCL_NCARG_DIR='"$(ECCL_NCARG_DIR)"'
examples_stack_LDADD = libeccl.la $(NETCDF_LIBS) -lm
endif
