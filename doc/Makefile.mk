# doc/: Markdown documentation, shipped in the tarball.  A wildcard, so that a page added by any
# branch is distributed without editing this list (GNU make; automake's distdir strips $(srcdir)).
EXTRA_DIST += $(wildcard $(srcdir)/doc/*.md)

# Installed into $(docdir) (by default PREFIX/share/doc/eccl) with the README and the licence.
dist_doc_DATA = README.md LICENSE doc/collectives.md doc/env.md doc/format.md doc/fortran.md \
	doc/gpu.md doc/guarantees.md doc/performance.md doc/probe.md doc/scalapack.md
