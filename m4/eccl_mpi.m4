# ECCL_PROG_MPICC: pick the MPI C compiler (MPICH first: it is eccl's reference MPI, and on Debian
# a plain `mpicc` may be Open MPI's after libscalapack pulled in mpi-default-bin), then detect the
# flavour by preprocessing mpi.h.  Sets CC (unless the user set it), ECCL_MPI_FLAVOR.
AC_DEFUN([ECCL_PROG_MPICC], [
  AC_ARG_VAR([MPICC], [MPI C compiler wrapper (default: mpicc.mpich, then mpicc)])
  if test -z "$CC"; then
    if test -z "$MPICC"; then
      AC_CHECK_PROGS([MPICC], [mpicc.mpich mpicc mpicc.openmpi])
    fi
    test -n "$MPICC" && CC="$MPICC"
  fi
])

AC_DEFUN([ECCL_MPI_CHECK], [
  AC_LANG_PUSH([C])
  AC_CHECK_HEADER([mpi.h], [],
    [AC_MSG_ERROR([mpi.h not found: eccl needs an MPI C compiler.  Install MPICH
      (Debian: apt-get install mpich libmpich-dev) and run ./configure CC=mpicc.mpich])])
  AC_SEARCH_LIBS([MPI_Init], [mpi mpich], [],
    [AC_MSG_ERROR([cannot link MPI programs with CC=$CC: use an MPI compiler wrapper (CC=mpicc.mpich)])])
  AC_MSG_CHECKING([MPI flavour])
  ECCL_MPI_FLAVOR=unknown
  AC_PREPROC_IFELSE([AC_LANG_SOURCE([[#include <mpi.h>
#ifndef MPICH_VERSION
#error not mpich
#endif]])], [ECCL_MPI_FLAVOR=mpich])
  AS_IF([test "$ECCL_MPI_FLAVOR" = unknown],
    [AC_PREPROC_IFELSE([AC_LANG_SOURCE([[#include <mpi.h>
#ifndef OPEN_MPI
#error not openmpi
#endif]])], [ECCL_MPI_FLAVOR=openmpi])])
  AC_MSG_RESULT([$ECCL_MPI_FLAVOR])
  # Where mpi.h lives, for compilers that are not the MPI wrapper (nvcc): ask the preprocessor.
  AC_MSG_CHECKING([the directory of mpi.h])
  eccl_mpi_h=`echo '#include <mpi.h>' | $CC $CPPFLAGS -E -x c - 2>/dev/null | sed -n 's|^# *[[0-9]]* "\(.*\)/mpi\.h".*|\1|p' | head -n 1`
  MPI_CPPFLAGS=
  test -n "$eccl_mpi_h" && MPI_CPPFLAGS="-I$eccl_mpi_h"
  AC_MSG_RESULT([${eccl_mpi_h:-not found}])
  AC_SUBST([MPI_CPPFLAGS])
  # CUDA-aware MPIs say so at run time through MPIX_Query_cuda_support (MPICH >= 4.0 declares it in
  # mpi.h, Open MPI in mpi-ext.h): whether the library has the function.
  AC_CHECK_FUNCS([MPIX_Query_cuda_support])
  AC_LANG_POP([C])
  AC_SUBST([ECCL_MPI_FLAVOR])
  AC_DEFINE_UNQUOTED([ECCL_MPI_FLAVOR], ["$ECCL_MPI_FLAVOR"], [MPI implementation eccl was built with])
  # The launcher that matches the compiler (tests and examples run through it).
  AC_ARG_VAR([MPIEXEC], [MPI launcher matching CC (default: found from the flavour)])
  if test -z "$MPIEXEC"; then
    case $ECCL_MPI_FLAVOR in
      mpich) AC_PATH_PROGS([MPIEXEC], [mpiexec.mpich mpiexec.hydra mpiexec]) ;;
      openmpi) AC_PATH_PROGS([MPIEXEC], [mpiexec.openmpi mpiexec]) ;;
      *) AC_PATH_PROGS([MPIEXEC], [mpiexec mpirun]) ;;
    esac
  fi
  test -z "$MPIEXEC" && AC_MSG_WARN([no MPI launcher found: MPI tests will be skipped])
])
