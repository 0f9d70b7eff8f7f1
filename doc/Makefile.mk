# doc/: specifications and tool manuals, shipped in the tarball.
EXTRA_DIST += doc/probe.md
