# fortran/: the Fortran 2008 module `eccl` (doc/fortran.md), compiled into libeccl.la itself.
#
# The parameters come from the C definitions: fortran/gen_constants (built for the build machine)
# writes fortran/eccl_constants.inc (the declarations, #included by eccl_types.F90) and
# fortran/eccl_public.inc (their public statements, for eccl.F90) into the build tree.  `eccl`
# uses the helper modules eccl_types, eccl_comm_api, eccl_movement, eccl_reductions,
# eccl_nonblocking, eccl_device
# and, with ScaLAPACK, eccl_blacs, eccl_blacs_extrema and eccl_panels.  The module files go to the
# build tree's fortran/ and are all installed into $(includedir) (eccl.pc: fmoddir).
#
# A procedure that exists once per data type, count kind, array rank or MPI handle kind is
# written once, in the module's fortran/*_template.F90, which the module #includes once per
# instance through fortran/eccl_dtypes.h, eccl_kinds.h, eccl_ranks.h and eccl_handles.h.
EXTRA_DIST += fortran/gen_constants.c doc/fortran.md
ECCL_FDRIVERS = fortran/eccl_dtypes.h fortran/eccl_kinds.h fortran/eccl_ranks.h \
	fortran/eccl_handles.h
EXTRA_DIST += $(ECCL_FDRIVERS) fortran/eccl_types_template.F90 fortran/eccl_comm_template.F90 \
	fortran/eccl_codec_template.F90 fortran/eccl_movement_template.F90 \
	fortran/eccl_reductions_template.F90 fortran/eccl_device_template.F90 \
	fortran/eccl_blacs_template.F90 fortran/eccl_blacs_extrema_template.F90 \
	fortran/eccl_panels_template.F90 fortran/eccl_nonblocking_template.F90

# The linker of libeccl.la, per configuration: automake would pick $(FC) from the conditional
# Fortran source even when the module is not built.  With the module, $(FC) links it, so
# libgfortran becomes a dependency of the shared library and C programs link as before; that
# link needs FC's OpenMP flag for the C objects.
if HAVE_FORTRAN
libeccl_la_LINK = $(LIBTOOL) $(AM_V_lt) --tag=FC $(AM_LIBTOOLFLAGS) $(LIBTOOLFLAGS) --mode=link \
	$(FCLD) $(AM_FCFLAGS) $(FCFLAGS) $(OPENMP_FCFLAGS) $(libeccl_la_LDFLAGS) $(LDFLAGS) -o $@
else
libeccl_la_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC $(AM_LIBTOOLFLAGS) $(LIBTOOLFLAGS) --mode=link \
	$(CCLD) $(AM_CFLAGS) $(CFLAGS) $(libeccl_la_LDFLAGS) $(LDFLAGS) -o $@
endif

if HAVE_FORTRAN
libeccl_la_SOURCES += fortran/eccl_types.F90 fortran/eccl_comm.F90 fortran/eccl_movement.F90 \
	fortran/eccl_reductions.F90 fortran/eccl_nonblocking.F90 fortran/eccl_device.F90 fortran/eccl.F90 \
	fortran/eccl_fshim.c
ECCL_FMODS = eccl_types eccl_comm_api eccl_movement eccl_reductions eccl_nonblocking eccl_device eccl
if HAVE_SCALAPACK
libeccl_la_SOURCES += fortran/eccl_blacs.F90 fortran/eccl_blacs_extrema.F90 fortran/eccl_panels.F90
ECCL_FMODS += eccl_blacs eccl_blacs_extrema eccl_panels
endif
AM_FCFLAGS += $(ECCL_FCFLAGS) $(ECCL_FC_DEFS) $(FC_MODOUT)fortran $(FC_MODINC)fortran \
	-I$(top_builddir)/fortran -I$(top_srcdir)/fortran

BUILT_SOURCES += fortran/eccl_constants.inc fortran/eccl_public.inc
CLEANFILES += fortran/eccl_constants.inc fortran/eccl_public.inc fortran/gen_constants \
	fortran/*.$(FC_MODEXT)
ECCL_FMOD = $(ECCL_FMODS:%=fortran/%.$(FC_MODEXT))

fortran/gen_constants: fortran/gen_constants.c include/eccl.h include/eccl_errors.def
	@$(MKDIR_P) fortran
	$(AM_V_CCLD)$(CC_FOR_BUILD) -I$(top_srcdir)/include -o $@ $(top_srcdir)/fortran/gen_constants.c

fortran/eccl_constants.inc: fortran/gen_constants
	$(AM_V_GEN)./fortran/gen_constants > $@.tmp && mv $@.tmp $@

fortran/eccl_public.inc: fortran/gen_constants
	$(AM_V_GEN)./fortran/gen_constants --public > $@.tmp && mv $@.tmp $@

# automake tracks neither the #include nor .mod files: the object of a module's user depends on
# the module's object (a program that uses eccl depends on fortran/eccl.lo).
fortran/eccl_types.lo: fortran/eccl_constants.inc fortran/eccl_types_template.F90 $(ECCL_FDRIVERS)
fortran/eccl_comm.lo: fortran/eccl_types.lo fortran/eccl_comm_template.F90 $(ECCL_FDRIVERS)
fortran/eccl_movement.lo fortran/eccl_reductions.lo fortran/eccl_nonblocking.lo: fortran/eccl_comm.lo $(ECCL_FDRIVERS)
fortran/eccl_movement.lo: fortran/eccl_movement_template.F90
fortran/eccl_reductions.lo: fortran/eccl_reductions_template.F90
fortran/eccl_nonblocking.lo: fortran/eccl_nonblocking_template.F90
fortran/eccl_device.lo: fortran/eccl_types.lo fortran/eccl_comm.lo \
	fortran/eccl_device_template.F90 $(ECCL_FDRIVERS)
ECCL_FMOD_USED = fortran/eccl_movement.lo fortran/eccl_reductions.lo fortran/eccl_nonblocking.lo \
	fortran/eccl_device.lo
if HAVE_SCALAPACK
fortran/eccl_blacs.lo fortran/eccl_blacs_extrema.lo: fortran/eccl_comm.lo $(ECCL_FDRIVERS)
fortran/eccl_panels.lo: fortran/eccl_types.lo fortran/eccl_nonblocking.lo $(ECCL_FDRIVERS)
fortran/eccl_blacs.lo: fortran/eccl_blacs_template.F90
fortran/eccl_blacs_extrema.lo: fortran/eccl_blacs_extrema_template.F90
fortran/eccl_panels.lo: fortran/eccl_panels_template.F90
ECCL_FMOD_USED += fortran/eccl_blacs.lo fortran/eccl_blacs_extrema.lo fortran/eccl_panels.lo
endif
fortran/eccl.lo: fortran/eccl_public.inc fortran/eccl_codec_template.F90 $(ECCL_FDRIVERS) \
	$(ECCL_FMOD_USED)
else
ECCL_FMOD =
endif

install-data-local: install-eccl-fmod
uninstall-local: uninstall-eccl-fmod

install-eccl-fmod:
	@for m in $(ECCL_FMOD); do \
	  echo " $(MKDIR_P) '$(DESTDIR)$(includedir)'"; $(MKDIR_P) "$(DESTDIR)$(includedir)" || exit 1; \
	  echo " $(INSTALL_DATA) $$m '$(DESTDIR)$(includedir)'"; \
	  $(INSTALL_DATA) "$$m" "$(DESTDIR)$(includedir)" || exit 1; \
	done

uninstall-eccl-fmod:
	@for m in $(ECCL_FMOD); do \
	  f=`basename "$$m"`; echo " rm -f '$(DESTDIR)$(includedir)/$$f'"; \
	  rm -f "$(DESTDIR)$(includedir)/$$f"; \
	done

.PHONY: install-eccl-fmod uninstall-eccl-fmod
