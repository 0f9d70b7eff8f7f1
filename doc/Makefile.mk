# doc/: Markdown documentation, shipped in the tarball.  A wildcard, so that a page added by any
# branch is distributed without editing this list (GNU make; automake's distdir strips $(srcdir)).
EXTRA_DIST += $(wildcard $(srcdir)/doc/*.md)

# Installed into $(docdir) (by default PREFIX/share/doc/eccl) with the README and the licence.
dist_doc_DATA = README.md LICENSE doc/collectives.md doc/env.md doc/format.md doc/fortran.md \
	doc/gpu.md doc/guarantees.md doc/performance.md doc/probe.md doc/scalapack.md doc/blacs-interposer.md \
	doc/install.md

# Figures of the pages, installed next to them so that relative links keep working.
docimgdir = $(docdir)/img
dist_docimg_DATA = doc/img/device_collectives.png doc/img/hier_device_ipc.png

# The raw benchmark outputs doc/performance.md quotes, and the script that plots them.
EXTRA_DIST += bench/results/README.md bench/results/device_plot.gp bench/results/h200x2_nvlink.txt \
	bench/results/h200x2_socket.txt bench/results/h200x2_socket_mpi.txt \
	bench/results/h100_shared_socket_run1.txt bench/results/h100_shared_socket_run2.txt \
	bench/results/h100_shared_socket_run3.txt bench/results/h100_shared_socket_run4.txt \
	bench/results/h100_kernels_planes.txt bench/results/h100_kernels_f64.txt \
	bench/results/h100_kernels_hom32.txt bench/results/h100_strided_panels.txt \
	bench/results/h100_hier_device_ipc.txt bench/results/h100_hier_device_ipc.dat bench/results/hier_plot.gp
