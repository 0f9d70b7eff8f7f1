# ECCL_CUDA: --with-cuda[=DIR] (default: auto when nvcc is found), --with-cuda-arch, and
# --with-nccl[=DIR] (default: auto when CUDA is used and nccl.h + libnccl are found).
# NVCC and NVCCFLAGS are user variables.  Without CUDA the library is CPU-only and GPU requests
# return ECCL_ERR_UNSUPPORTED; with CUDA but no GPU at run time they return ECCL_ERR_NO_DEVICE.
AC_DEFUN([ECCL_CUDA], [
  AC_ARG_WITH([cuda],
    [AS_HELP_STRING([--with-cuda@<:@=DIR@:>@], [build the CUDA backend (default: auto when nvcc is found; DIR: the CUDA toolkit root)])],
    [], [with_cuda=auto])
  AC_ARG_WITH([cuda-arch],
    [AS_HELP_STRING([--with-cuda-arch=LIST], [GPU architectures to compile for (default: "80 90"; the last also as PTX)])],
    [], [with_cuda_arch="80 90"])
  AC_ARG_VAR([NVCC], [CUDA compiler])
  AC_ARG_VAR([NVCCFLAGS], [extra flags for nvcc])
  have_cuda=no
  CUDA_HOME=
  AS_IF([test "x$with_cuda" != xno], [
    AS_CASE([$with_cuda],
      [yes|auto], [eccl_cuda_path="$PATH:/usr/local/cuda/bin"],
      [eccl_cuda_path="$with_cuda/bin"])
    AS_IF([test -z "$NVCC"], [AC_PATH_PROG([NVCC], [nvcc], [], [$eccl_cuda_path])])
    AS_IF([test -n "$NVCC"], [
      CUDA_HOME=`dirname "$NVCC"`
      CUDA_HOME=`cd "$CUDA_HOME/.." && pwd`
      eccl_save_CPPFLAGS=$CPPFLAGS; eccl_save_LIBS=$LIBS; eccl_save_LDFLAGS=$LDFLAGS
      CUDA_CPPFLAGS="-I$CUDA_HOME/include"
      for d in lib64 lib targets/x86_64-linux/lib; do
        test -d "$CUDA_HOME/$d" && CUDA_LDFLAGS="$CUDA_LDFLAGS -L$CUDA_HOME/$d"
      done
      CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"; LDFLAGS="$LDFLAGS $CUDA_LDFLAGS"
      AC_CHECK_HEADER([cuda_runtime_api.h], [
        AC_CHECK_LIB([cudart], [cudaMalloc], [have_cuda=yes])])
      CPPFLAGS=$eccl_save_CPPFLAGS; LIBS=$eccl_save_LIBS; LDFLAGS=$eccl_save_LDFLAGS
      AS_IF([test $have_cuda = yes], [
        AC_MSG_CHECKING([whether $NVCC compiles a kernel])
        cat > conftest.cu <<_ECCL_EOF
__global__ void k(float *x) { *x += (float)threadIdx.x; }
int main(void) { k<<<1, 1>>>(0); return 0; }
_ECCL_EOF
        AS_IF([$NVCC -c conftest.cu -o conftest.$OBJEXT >&AS_MESSAGE_LOG_FD 2>&1],
          [AC_MSG_RESULT([yes])], [AC_MSG_RESULT([no]); have_cuda=no])
        rm -f conftest.cu conftest.$OBJEXT
      ])
    ])
    AS_IF([test "x$with_cuda" != xauto && test $have_cuda = no],
      [AC_MSG_ERROR([--with-cuda given but nvcc/cudart not usable (looked in $eccl_cuda_path)])])
  ])
  NVCC_GENCODE=
  eccl_last_arch=
  for a in $with_cuda_arch; do
    NVCC_GENCODE="$NVCC_GENCODE -gencode arch=compute_$a,code=sm_$a"
    eccl_last_arch=$a
  done
  test -n "$eccl_last_arch" && NVCC_GENCODE="$NVCC_GENCODE -gencode arch=compute_$eccl_last_arch,code=compute_$eccl_last_arch"
  AS_IF([test $have_cuda = yes], [
    CUDA_LIBS="-lcudart"
    AC_DEFINE([HAVE_CUDA], [1], [CUDA backend built])
  ])
  AC_SUBST([CUDA_HOME]) AC_SUBST([CUDA_CPPFLAGS]) AC_SUBST([CUDA_LDFLAGS]) AC_SUBST([CUDA_LIBS])
  AC_SUBST([NVCC_GENCODE])
  AM_CONDITIONAL([HAVE_CUDA], [test $have_cuda = yes])

  AC_ARG_WITH([nccl],
    [AS_HELP_STRING([--with-nccl@<:@=DIR@:>@], [use NCCL point-to-point as a GPU transport (default: auto with CUDA)])],
    [], [with_nccl=auto])
  have_nccl=no
  AS_IF([test $have_cuda = yes && test "x$with_nccl" != xno], [
    eccl_save_CPPFLAGS=$CPPFLAGS; eccl_save_LIBS=$LIBS; eccl_save_LDFLAGS=$LDFLAGS
    AS_CASE([$with_nccl], [yes|auto], [], [NCCL_CPPFLAGS="-I$with_nccl/include"; NCCL_LDFLAGS="-L$with_nccl/lib"])
    CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS $NCCL_CPPFLAGS"; LDFLAGS="$LDFLAGS $CUDA_LDFLAGS $NCCL_LDFLAGS"
    AC_CHECK_HEADER([nccl.h], [AC_CHECK_LIB([nccl], [ncclCommInitRank], [have_nccl=yes], [], [-lcudart])])
    CPPFLAGS=$eccl_save_CPPFLAGS; LIBS=$eccl_save_LIBS; LDFLAGS=$eccl_save_LDFLAGS
    AS_IF([test "x$with_nccl" != xauto && test $have_nccl = no], [AC_MSG_ERROR([--with-nccl given but NCCL not found])])
  ])
  AS_IF([test "x$with_nccl" = xyes && test $have_cuda = no], [AC_MSG_ERROR([--with-nccl needs the CUDA backend (--with-cuda)])])
  AS_IF([test $have_nccl = yes], [NCCL_LIBS="-lnccl"; AC_DEFINE([HAVE_NCCL], [1], [NCCL transport built])])
  AC_SUBST([NCCL_CPPFLAGS]) AC_SUBST([NCCL_LDFLAGS]) AC_SUBST([NCCL_LIBS])
  AM_CONDITIONAL([HAVE_NCCL], [test $have_nccl = yes])

  # cuBLAS: only examples/summa --device uses it (DGEMM on device panels); the library never does.
  have_cublas=no
  AS_IF([test $have_cuda = yes], [
    eccl_save_CPPFLAGS=$CPPFLAGS; eccl_save_LIBS=$LIBS; eccl_save_LDFLAGS=$LDFLAGS
    CPPFLAGS="$CPPFLAGS $CUDA_CPPFLAGS"; LDFLAGS="$LDFLAGS $CUDA_LDFLAGS"
    AC_CHECK_HEADER([cublas_v2.h], [AC_CHECK_LIB([cublas], [cublasDgemm_v2], [have_cublas=yes], [], [-lcudart])])
    CPPFLAGS=$eccl_save_CPPFLAGS; LIBS=$eccl_save_LIBS; LDFLAGS=$eccl_save_LDFLAGS
  ])
  AS_IF([test $have_cublas = yes], [CUBLAS_LIBS="-lcublas"; AC_DEFINE([HAVE_CUBLAS], [1], [cuBLAS for examples/summa --device])])
  AC_SUBST([CUBLAS_LIBS])
  AM_CONDITIONAL([HAVE_CUBLAS], [test $have_cublas = yes])
])
