/*
 * env_doc.c - what every ECCL_* environment variable means (env.h: eccl_env_doc_t).
 *
 * The variables themselves are declared with ECCL_ENV (or as an eccl_env_t array) in the file
 * that reads them; this table only describes them. eccl-info prints it, doc/env.md explains it
 * at length, and tests/test_info.sh fails when a variable of the code is missing here or in
 * doc/env.md, or when this table names one the code no longer reads. Keep the order of
 * doc/env.md.
 */
#include "config.h"

#include <stddef.h>

#include "core/env.h"

#define ALGO_DOC(NAME, op)                                                                         \
    {NAME, "auto | the name of an algorithm of " op " (eccl-info --algorithms)", "auto",           \
     "Forces the algorithm of every " op " call on communicators where eccl_comm_set_algorithm "   \
     "did not choose one; \"auto\" or empty = the cost model. An unknown name makes every " op    \
     " call fail with ECCL_ERR_INVALID_ARG. Read at the first " op " call of the process."}

const eccl_env_doc_t eccl_env_docs[] = {
    /* src/coll/communicator.c: configuration overrides, read at the first eccl_comm_create */
    {"ECCL_COMPRESS", "auto | always | never", "auto (or eccl_config_t.compress)",
     "When collectives compress: auto = when min_bytes and the cost model say it pays; "
     "always = a compressed algorithm for every call (min_bytes ignored); never = plain MPI. "
     "Overrides eccl_config_t.compress; other values are ignored."},
    {"ECCL_FALLBACK", "mpi | warn | error", "mpi (or eccl_config_t.fallback)",
     "What a call that cannot run compressed (a PROD reduction, or a forced algorithm whose "
     "restriction fails) does: run the plain MPI collective; the same and print one warning per "
     "communicator (rank 0); or return ECCL_ERR_UNSUPPORTED. Overrides eccl_config_t.fallback; "
     "other values are ignored."},
    {"ECCL_ALPHA", "a number of seconds > 0", "measured at eccl_comm_create (or eccl_config_t.alpha)",
     "Link latency of the cost model. Overrides eccl_config_t.alpha. The ping-pong between ranks "
     "0 and 1 is skipped only when both alpha and beta are given (here or in the config)."},
    {"ECCL_BETA", "a number of seconds per byte > 0", "measured at eccl_comm_create (or eccl_config_t.beta)",
     "Inverse bandwidth of the cost model (1e-10 = 10 GB/s). Overrides eccl_config_t.beta."},
    {"ECCL_MIN_BYTES", "a number of bytes >= 0", "65536 (or eccl_config_t.min_bytes)",
     "With ECCL_COMPRESS=auto, calls whose buffer (count x element size, times the number of "
     "ranks for allgather, gather, scatter and reduce_scatter_block) is smaller run plain MPI "
     "without sampling. allreduce rabenseifner also exchanges compressed halves only from this "
     "size on. Overrides eccl_config_t.min_bytes."},
    {"ECCL_FORMAT", "1, 2 or 3", "1 (or eccl_config_t.format)",
     "The compressed stream format version the collectives write (doc/format.md). 2 adds "
     "second-order tiles: up to 1.4x smaller streams of smooth data (1.27x float32, 1.41x float64 "
     "sin(x)cos(y)), for a codec 0.7-0.85x as fast; worth it where the network, not the codec, "
     "bounds a call. 3 adds sparse tiles for fields with flat runs (1.35-1.44x smaller than 2 on "
     "the trinidad terrain field) for a CPU codec several times slower, and is the CPU codec's "
     "alone so far: device buffers are then staged through host memory; give every rank the same "
     "value. Every rank's CPU codec reads every version. Overrides eccl_config_t.format; other "
     "values are ignored."},
    {"ECCL_NODE_SIZE", "a number of ranks >= 1", "unset: ranks sharing memory form a node",
     "k = ranks whose MPI_COMM_WORLD rank / k is equal form a node (testing the hierarchical "
     "allreduce on one machine; launchers without shared memory between a node's ranks). Nodes "
     "decide which link the cost model measures and whether the hierarchical allreduce applies."},
    /* src/coll/dispatch.c: per-collective algorithm overrides */
    ALGO_DOC("ECCL_BCAST_ALGORITHM", "bcast"),
    ALGO_DOC("ECCL_ALLREDUCE_ALGORITHM", "allreduce"),
    ALGO_DOC("ECCL_REDUCE_ALGORITHM", "reduce"),
    ALGO_DOC("ECCL_REDUCE_SCATTER_BLOCK_ALGORITHM", "reduce_scatter_block"),
    ALGO_DOC("ECCL_ALLGATHER_ALGORITHM", "allgather"),
    ALGO_DOC("ECCL_SCATTER_ALGORITHM", "scatter"),
    ALGO_DOC("ECCL_GATHER_ALGORITHM", "gather"),
    ALGO_DOC("ECCL_SENDRECV_REPLACE_ALGORITHM", "sendrecv_replace"),
    /* src/coll/algorithms.c */
    {"ECCL_CHUNKS", "a number of chunks >= 0 (at most 1024)", "0",
     "Chunks of the pipelined algorithms (bcast pipeline: of the buffer; allreduce and "
     "reduce_scatter_block ring_pipelined: of each of their p pieces); 0 = the cost model's "
     "choice. For experiments and tests; the same on every rank."},
    /* src/coll/agree.c */
    {"ECCL_RATIO_REUSE", "a number of calls >= 1", "1",
     "N > 1 = a call whose signature (collective, count, datatype, operation, root, bound) is that "
     "of the last call that sampled its data takes that call's agreed compression ratio for "
     "`auto`'s choice instead of sampling, for N - 1 calls, then samples again: less work per "
     "call in a loop of like calls (SUMMA's panels), at the price of choosing from older data "
     "(results may then differ bit for bit from sampling every call, always within the bound). "
     "1 = every call samples. Ranks may differ. Read at the first call that samples."},
    /* src/core/log.c */
    {"ECCL_DEBUG", "0 | 1 | 2 (yes, true, on = 1)", "0",
     "Logging to stderr, each line prefixed \"[eccl RANK]\": 1 = one line per collective call "
     "(algorithm, reason, bounds, bytes, times, the model's figures), one per communicator "
     "creation (the calibrated model) and one per error; 2 = also the predicted time of every candidate algorithm at each cost-model decision."},
    /* src/codec/api.c */
    {"ECCL_CODEC_REFERENCE", "0 | 1 (yes, true, on = 1)", "0",
     "1 = the CPU codec never uses its AVX2 fast path (same bytes, slower): for debugging and "
     "tests."},
    /* src/coll/dispatch.c */
    {"ECCL_DEVICE_RESIDENT", "0 | 1 (yes, true, on = 1)", "1",
     "1 = collectives on CUDA device buffers run device-resident where they can (the GPU codec "
     "works on the buffers, only compressed streams cross PCIe); 0 = device buffers are always "
     "staged whole through host memory and the CPU codec runs (same results, for comparison)."},
    /* src/prims/net.c */
    {"ECCL_DEVICE_STREAMS", "0 | 1 (yes, true, on = 1)", "1",
     "1 = where NCCL carries the compressed streams of a device-resident call, the algorithms that "
     "can (bcast binomial) keep each stream in device memory from the GPU codec to NCCL and back: "
     "no stream crosses PCIe; 0 = the streams are staged through host memory as over MPI. The "
     "same on every rank."},
    /* src/coll/communicator.c */
    {"ECCL_GPU_PRIORITY", "0 | 1 (yes, true, on = 1)", "1",
     "1 = eccl's own CUDA streams (the GPU codec's, NCCL's stream transfers, a BLACS grid's device "
     "copies) run at the device's "
     "greatest stream priority, so that compressing a panel or a chunk does not wait behind the "
     "application's compute kernels for SMs; 0 = the default priority. Builds with the CUDA "
     "backend; read at eccl_comm_create."},
    {"ECCL_GPU_OBSERVE", "0 | 1 (yes, true, on = 1)", "0",
     "1 = the cost model prices GPU codec operations with the latency the calls observe (each "
     "rank's median of its last 16 device codec operations' time beyond their bytes; the slowest "
     "rank's, agreed in each call's data agreement), not only as calibrated on an idle GPU, so "
     "`auto` may choose differently as the application's load changes (results then may differ "
     "bit for bit from call to call, always within the bound); 0 = the calibration alone. Builds "
     "with the CUDA backend; read at eccl_comm_create."},
    /* src/transport/node.c */
    {"ECCL_NODE_IPC", "0 | 1 (yes, true, on = 1)", "1",
     "1 = the hierarchical allreduce keeps device buffers on the GPU where every rank of a node "
     "runs it device-resident: its steps inside the node go through CUDA IPC windows (device "
     "memory of the buffer's size per rank, kept for the communicator's life); 0 = they are "
     "staged through host memory (MPI inside the node). The same on every rank of a node."},
    {"ECCL_PROGRESS", "auto | thread | caller", "auto",
     "Who runs the nonblocking collectives (eccl_iallreduce, ...): auto and thread = a progress "
     "thread per communicator, started at its first nonblocking call, when MPI was initialised with "
     "MPI_THREAD_MULTIPLE (else as caller); caller = the caller's thread, inside eccl_wait, "
     "eccl_test and the next call on the communicator."},
    {"ECCL_TRANSPORT", "auto | mpi | nccl", "auto",
     "Calls that every rank runs device-resident: auto = when eccl was built with NCCL and NCCL "
     "works on every rank (one GPU per rank), the plain NCCL collectives (nccl algorithms) are "
     "candidates, and compressed streams travel by NCCL point-to-point where its measured link is "
     "faster than MPI's, after one small agreement per call; nccl = the same, streams always by "
     "NCCL; mpi = always MPI (the agreement that every rank is device-resident still runs, so the "
     "cost model prices the GPU codec)."},
    /* src/transport/mpi.c */
    {"ECCL_CUDA_AWARE", "auto | 0 | 1", "auto",
     "Builds with the CUDA backend: whether the plain MPI collectives (mpi algorithms, fallbacks) "
     "get device buffers as they are (1) or staged through page-locked host memory (0); auto = "
     "what the MPI says through MPIX_Query_cuda_support, 0 where it cannot say. 1 is for CUDA-aware "
     "MPIs that do not advertise it: with an MPI that is not CUDA-aware it crashes. Read when a "
     "communicator is created."},
    /* src/interpose/policy.c: libeccl_blacs (the BLACS interposer), read at its first call */
    {"ECCL_BLACS", "off | lossless | abs:E | rel:E", "off",
     "libeccl_blacs only (LD_PRELOAD or -leccl_blacs): whether the BLACS broadcasts (and sums, "
     "ECCL_BLACS_OPS) of an unmodified program go through eccl, and with which bound; off = every "
     "call goes to the real BLACS. Must be the same on every process. An invalid value stops the "
     "program at the first BLACS call (doc/blacs-interposer.md)."},
    {"ECCL_BLACS_OPS", "comma list of bcast, sum; or all", "bcast",
     "libeccl_blacs only: which BLACS operations (xgebs2d/xgebr2d, xgsum2d) eccl carries; the "
     "others go to the real BLACS. Sums are left out by default (their result depends on every "
     "contribution's error). Pivot searches (xgamx2d, xgamn2d) always go to BLACS."},
    {"ECCL_BLACS_MIN_BYTES", "a number of bytes >= 0", "65536",
     "libeccl_blacs only: messages (m * n elements) smaller than this go to the real BLACS."},
    {"ECCL_BLACS_CONTEXTS", "comma list of context handles", "unset: every context",
     "libeccl_blacs only: the BLACS contexts (as this process numbers them) whose calls eccl "
     "carries; calls on other contexts go to the real BLACS."},
    {"ECCL_BLACS_REPORT", "0 | 1 (yes, true, on = 1)", "0",
     "libeccl_blacs only: one summary line per grid on its first process (calls intercepted, "
     "carried by eccl, compressed; bytes raw and sent; largest bound) at blacs_gridexit, "
     "blacs_exit or MPI_Finalize."},
    /* src/coll/communicator.c, testing only */
    {"ECCL_FAULT_INJECT", "R:N (rank, message number)", "unset",
     "Testing only: on every communicator created afterwards, rank R flips one bit in the N-th "
     "point-to-point message it sends (compressed algorithms), to check that peers detect the "
     "corruption, every rank returns ECCL_ERR_CORRUPT and nobody hangs."},
    {"ECCL_FAULT_NODE_IPC", "R (a rank)", "unset",
     "Testing only: rank R fails to map its node peers' CUDA IPC windows (as a GPU without peer "
     "access would), so its node stages the hierarchical allreduce's device buffers from then on "
     "and every rank's cost model prices that from the next call."},
    {"ECCL_FAULT_DEV_ALLOC", "R (a rank)", "unset",
     "Testing only: rank R acts as if its GPU had no memory left for a device-resident call, so it "
     "stages that call's device buffers through host memory while the other ranks stay on their "
     "GPUs; every rank succeeds with the same results."},
    {NULL, NULL, NULL, NULL}};
