# ECCL_SCALAPACK: --with-scalapack (default: check), honouring a user SCALAPACK_LIBS, else a
# search ordered by MPI flavour.  A ScaLAPACK built for the other MPI flavour links but aborts at
# run time (BLACS-INTEROP.md trap 3), so the library's own MPI dependency is read with objdump
# and a mismatch is refused.
AC_DEFUN([ECCL_SCALAPACK], [
  AC_ARG_WITH([scalapack],
    [AS_HELP_STRING([--with-scalapack], [build the BLACS/ScaLAPACK layer and examples (default: check); set SCALAPACK_LIBS to override the search])],
    [], [with_scalapack=check])
  AC_ARG_VAR([SCALAPACK_LIBS], [linker flags for ScaLAPACK+BLACS (+BLAS/LAPACK), e.g. -lscalapack-mpich -lopenblas])
  have_scalapack=no
  AS_IF([test "x$with_scalapack" != xno], [
    eccl_save_LIBS=$LIBS
    AS_IF([test -n "$SCALAPACK_LIBS"], [
      LIBS="$SCALAPACK_LIBS $LIBS"
      AC_MSG_CHECKING([whether SCALAPACK_LIBS links])
      AC_LINK_IFELSE([AC_LANG_CALL([], [Cblacs_gridinit])], [have_scalapack=yes])
      AC_MSG_RESULT([$have_scalapack])
    ], [
      case $ECCL_MPI_FLAVOR in
        mpich) eccl_sl_names="scalapack-mpich scalapack" ;;
        openmpi) eccl_sl_names="scalapack-openmpi scalapack" ;;
        *) eccl_sl_names="scalapack" ;;
      esac
      for eccl_blas in "-lopenblas" "-llapack -lblas" ""; do
        for eccl_sl in $eccl_sl_names; do
          LIBS="-l$eccl_sl $eccl_blas $eccl_save_LIBS"
          AC_MSG_CHECKING([for Cblacs_gridinit in -l$eccl_sl $eccl_blas])
          AC_LINK_IFELSE([AC_LANG_CALL([], [Cblacs_gridinit])],
            [have_scalapack=yes; SCALAPACK_LIBS="-l$eccl_sl $eccl_blas"])
          AC_MSG_RESULT([$have_scalapack])
          test $have_scalapack = yes && break 2
        done
      done
    ])
    AS_IF([test $have_scalapack = yes], [
      LIBS="$SCALAPACK_LIBS $eccl_save_LIBS"
      AC_CHECK_FUNCS([pdgemm_ numroc_ Cblacs2sys_handle], [], [have_scalapack=no])
    ])
    LIBS=$eccl_save_LIBS
    AS_IF([test $have_scalapack = yes], [
      # Which MPI does the ScaLAPACK library itself need?
      AC_MSG_CHECKING([the MPI flavour ScaLAPACK was built for])
      eccl_sl_flavor=unknown
      for eccl_tok in $SCALAPACK_LIBS; do
        case $eccl_tok in
          -L*) eccl_sl_dirs="$eccl_sl_dirs ${eccl_tok#-L}" ;;
          -l*scalapack*)
            eccl_lib=${eccl_tok#-l}
            eccl_file=""
            for d in $eccl_sl_dirs; do test -f "$d/lib$eccl_lib.so" && eccl_file="$d/lib$eccl_lib.so" && break; done
            test -z "$eccl_file" && eccl_file=`$CC -print-file-name=lib$eccl_lib.so 2>/dev/null`
            if test -f "$eccl_file" && command -v objdump >/dev/null 2>&1; then
              eccl_needed=`objdump -p "$eccl_file" 2>/dev/null | grep NEEDED`
              case $eccl_needed in
                *libmpich*) eccl_sl_flavor=mpich ;;
                *libmpi.so*) eccl_sl_flavor=openmpi ;;
              esac
            fi ;;
        esac
      done
      AC_MSG_RESULT([$eccl_sl_flavor])
      AS_IF([test "$eccl_sl_flavor" != unknown && test "$ECCL_MPI_FLAVOR" != unknown && test "$eccl_sl_flavor" != "$ECCL_MPI_FLAVOR"],
        [AC_MSG_ERROR([ScaLAPACK ($SCALAPACK_LIBS) was built for $eccl_sl_flavor but CC=$CC is $ECCL_MPI_FLAVOR.
  Programs would link and then abort at run time.  Use the matching pair, e.g. on Debian:
    ./configure CC=mpicc.mpich FC=mpifort.mpich   (with libscalapack-mpich-dev)
  or set SCALAPACK_LIBS to a ScaLAPACK built for $ECCL_MPI_FLAVOR.])])
    ])
    AS_IF([test "x$with_scalapack" = xyes && test $have_scalapack = no],
      [AC_MSG_ERROR([--with-scalapack given but no usable ScaLAPACK found (set SCALAPACK_LIBS)])])
  ])
  AS_IF([test $have_scalapack = yes], [AC_DEFINE([HAVE_SCALAPACK], [1], [ScaLAPACK/BLACS available])])
  AM_CONDITIONAL([HAVE_SCALAPACK], [test $have_scalapack = yes])
  AC_SUBST([SCALAPACK_LIBS])
])
