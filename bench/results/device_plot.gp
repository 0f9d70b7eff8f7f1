# gnuplot bench/results/device_plot.gp (from the repository root): doc/img/device_collectives.png
# from the bench_device outputs in bench/results/ (see README.md there).
set terminal pngcairo noenhanced size 1200,560 font "sans,10"
set output "doc/img/device_collectives.png"
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set logscale y
set yrange [0.5:20000]
set ylabel "time per call, ms (log scale; lower is better)"
set grid ytics
set bmargin 4
set key top right
set xtics rotate by 0
rows = '< grep -E "^(allreduce|bcast)" '
set multiplot layout 1,2 title "float32 smooth field, ABS 1e-4 on the result, 2 x H200, one rank per GPU (bench/bench_device)"
set title "NVLink (NCCL) / shared memory (MPI)"
plot rows."bench/results/h200x2_nvlink.txt" using 6:xtic(sprintf("%s\n%d MiB", strcol(1), $2)) title "host-staged MPI" lc rgb "#999999", \
     '' using 8 title "NCCL" lc rgb "#4477aa", \
     '' using 4 title "eccl compressed (forced)" lc rgb "#ee6677", \
     '' using 9 title "eccl auto" lc rgb "#228833"
set title "sockets over loopback (NCCL socket transport, MPICH TCP)"
plot rows."bench/results/h200x2_socket.txt" using 6:xtic(sprintf("%s\n%d MiB", strcol(1), $2)) title "host-staged MPI" lc rgb "#999999", \
     '' using 8 title "NCCL" lc rgb "#4477aa", \
     '' using 4 title "eccl compressed (forced)" lc rgb "#ee6677", \
     '' using 9 title "eccl auto" lc rgb "#228833"
unset multiplot
