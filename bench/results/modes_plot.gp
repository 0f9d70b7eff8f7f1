# gnuplot bench/results/modes_plot.gp (from the repository root): doc/img/modes_sweep.png, time
# against size for eccl-auto blocking, nonblocking and stream-enqueued, NCCL and host-staged MPI,
# from the "modes" lines of bench_device --modes in bench/results/h200x2_modes_2026-11-29.txt
# (the sweep_* sections: bash bench/gpu_host.sh x2sweep; doc/performance.md section 36).
set terminal pngcairo noenhanced size 1200,900 font "sans,10"
set output "doc/img/modes_sweep.png"
set logscale xy
set xlabel "MiB per rank"
set ylabel "ms per call (slowest rank, median)"
set grid
set key top left
set xtics (1, 4, 16, 64, 256, 1024)
set xrange [0.8:1300]
f = "bench/results/h200x2_modes_2026-11-29.txt"
# the modes lines of one section (net) and collective (coll), as whitespace columns:
# 1 coll  2 MiB  3 blocking  4 nonblocking  5 enqueued  6 NCCL  7 MPI-stg
sel(net, coll) = sprintf("< awk '/^== / { s = $2 } s == \"sweep_%s\" && $1 == \"modes\" && $2 == \"%s\" { gsub(/\\|/, \"\"); print $2, $3, $4, $5, $6, $7, $8 }' %s", net, coll, f)
set multiplot layout 2,2 title "2 x H200, one rank per GPU, float32 smooth field, ABS 1e-4 on the result (bench/bench_device --modes)"
do for [net in "nvlink socket"] {
    do for [coll in "allreduce bcast"] {
        set title sprintf("%s, %s", coll, net eq "nvlink" ? "NVLink (NCCL) / shared memory (MPI)" : "sockets on loopback (NCCL and MPICH over TCP)")
        plot sel(net, coll) using 2:3 with linespoints lw 2 title "eccl auto, blocking", \
             '' using 2:4 with linespoints title "eccl auto, nonblocking (i-call + wait)", \
             '' using 2:5 with linespoints title "eccl auto, stream-enqueued", \
             '' using 2:6 with linespoints lw 2 title "NCCL", \
             '' using 2:7 with linespoints title "host-staged MPI"
    }
}
unset multiplot
