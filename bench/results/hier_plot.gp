# gnuplot bench/results/hier_plot.gp (from the repository root): doc/img/hier_device_ipc.png
# from bench/results/h100_hier_device_ipc.dat (doc/performance.md section 10).
set terminal pngcairo noenhanced size 900,480 font "sans,10"
set output "doc/img/hier_device_ipc.png"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set logscale y
set yrange [1:30000]
set ylabel "time per call, ms (log scale; lower is better)"
set grid ytics
set key top left
set title "allreduce on device buffers, two emulated nodes (nodes x ranks a node) sharing one H100, float32 smooth, ABS 1e-4"
plot "bench/results/h100_hier_device_ipc.dat" using 5:xtic(1) title "host-staged MPI_Allreduce" lc rgb "#999999", \
     '' using 3 title "hierarchical, node steps staged (ECCL_NODE_IPC=0)" lc rgb "#ccbb44", \
     '' using 4 title "ring (compressed, device-resident)" lc rgb "#ee6677", \
     '' using 2 title "hierarchical, CUDA IPC node steps" lc rgb "#228833"
