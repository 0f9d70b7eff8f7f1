# cmake/: packaging for clusters (doc/install.md): the CMake package files, so that CMake projects
# can `find_package(eccl)`; the consumer examples and their test; the Spack recipe.
#
# `make install` writes $(libdir)/cmake/eccl/ecclConfig.cmake and ecclConfigVersion.cmake from the
# templates here, with the install's $(libdir) and $(includedir) substituted as make sees them
# then (with DESTDIR staging the files still name the final directories, never DESTDIR).
# ecclConfig.cmake defines eccl::eccl and, when libeccl_blacs is installed next to libeccl,
# eccl::eccl_blacs.
cmakeconfigdir = $(libdir)/cmake/eccl
ECCL_CMAKE_FILES = ecclConfig.cmake ecclConfigVersion.cmake
EXTRA_DIST += cmake/ecclConfig.cmake.in cmake/ecclConfigVersion.cmake.in

install-data-local: install-eccl-cmake
uninstall-local: uninstall-eccl-cmake

install-eccl-cmake:
	@echo " $(MKDIR_P) '$(DESTDIR)$(cmakeconfigdir)'"; $(MKDIR_P) "$(DESTDIR)$(cmakeconfigdir)" || exit 1; \
	for f in $(ECCL_CMAKE_FILES); do \
	  echo " generating '$(DESTDIR)$(cmakeconfigdir)/$$f'"; \
	  sed -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' \
	      -e 's|@ECCL_LIBDIR[@]|$(libdir)|g' \
	      -e 's|@ECCL_INCLUDEDIR[@]|$(includedir)|g' \
	      -e 's|@ECCL_MPI_FLAVOR[@]|$(ECCL_MPI_FLAVOR)|g' \
	      -e 's|@FC_MODEXT[@]|$(FC_MODEXT)|g' \
	      -e 's|@ECCL_PRIVATE_LIBS[@]|$(SCALAPACK_LIBS) $(CUDA_LDFLAGS) $(CUDA_LIBS) $(NCCL_LIBS) $(OPENMP_CFLAGS) -lm|g' \
	      -e 's|@SCALAPACK_LIBS[@]|$(SCALAPACK_LIBS)|g' \
	      "$(srcdir)/cmake/$$f.in" > "$(DESTDIR)$(cmakeconfigdir)/$$f.tmp" && \
	  chmod 644 "$(DESTDIR)$(cmakeconfigdir)/$$f.tmp" && \
	  mv -f "$(DESTDIR)$(cmakeconfigdir)/$$f.tmp" "$(DESTDIR)$(cmakeconfigdir)/$$f" || exit 1; \
	done

uninstall-eccl-cmake:
	@for f in $(ECCL_CMAKE_FILES); do \
	  echo " rm -f '$(DESTDIR)$(cmakeconfigdir)/$$f'"; rm -f "$(DESTDIR)$(cmakeconfigdir)/$$f"; \
	done

.PHONY: install-eccl-cmake uninstall-eccl-cmake

# examples/consumer: a C and a Fortran program built against an *installed* eccl, with pkg-config
# (Makefile) or CMake (CMakeLists.txt); tests/consumer.sh builds and runs both (quickstart.sh test
# does, against the Open MPI build's install).  Not built by this Makefile.
EXTRA_DIST += examples/consumer/consumer.c examples/consumer/consumer.f90 \
	examples/consumer/CMakeLists.txt examples/consumer/Makefile \
	tests/consumer.sh

# The Spack recipe (packaging/spack/README.md says how to use it).
EXTRA_DIST += packaging/spack/package.py packaging/spack/README.md
