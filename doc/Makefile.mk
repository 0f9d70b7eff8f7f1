# doc/: Markdown documentation, shipped in the tarball.  A wildcard, so that a page added by any
# branch is distributed without editing this list (GNU make; automake's distdir strips $(srcdir)).
EXTRA_DIST += $(wildcard $(srcdir)/doc/*.md)
