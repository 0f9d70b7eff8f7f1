/*
 * eccl.h - Error-bounded Compressed Collectives Library, public C interface.
 *
 * Plain C99. Everything is prefixed eccl_/ECCL_. Every function returns an eccl_result_t
 * (ECCL_SUCCESS = 0) unless documented otherwise; eccl_strerror() explains a code.
 * Memory: every output buffer is owned and allocated by the caller; eccl never keeps a pointer
 * to a caller's buffer after a call returns. Functions are thread-safe: they touch no global
 * mutable state (see doc/env.md for the read-once environment cache).
 *
 * The compressed stream is specified in doc/format.md; the guarantees in doc/guarantees.md.
 */
#ifndef ECCL_H
#define ECCL_H

#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ECCL_VERSION_MAJOR 0
#define ECCL_VERSION_MINOR 1
#define ECCL_VERSION_PATCH 0
/* Version of the compressed stream format eccl_compress writes (doc/format.md). The CPU codec
 * reads format versions up to ECCL_FORMAT_VERSION_READ_MAX (version 2 adds second-order tiles,
 * version 3 sparse ones; the collectives write the version of eccl_config_t.format); the CUDA
 * codec reads and writes versions 1 and 2, and version 3 on request (doc/gpu.md). */
#define ECCL_FORMAT_VERSION_MAJOR 1
#define ECCL_FORMAT_VERSION_MINOR 0
#define ECCL_FORMAT_VERSION_READ_MAX 3

/* ---------------------------------------------------------------------------------------------
 * Result codes (values listed once, in eccl_errors.def)
 * ------------------------------------------------------------------------------------------- */
typedef enum eccl_result {
#define X(name, value, msg) name = value,
#include "eccl_errors.def"
#undef X
    ECCL_NUM_RESULTS
} eccl_result_t;

/* Human-readable, static, never NULL (unknown codes give "unknown eccl result code"). */
const char *eccl_strerror(eccl_result_t rc);

/* Library version string, e.g. "0.1.0 (cuda: no, nccl: no, openmp: yes)". Static. */
const char *eccl_version_string(void);

/* ---------------------------------------------------------------------------------------------
 * What the data is
 * ------------------------------------------------------------------------------------------- */
typedef enum eccl_dtype {
    ECCL_FLOAT32 = 1,
    ECCL_FLOAT64 = 2,
    ECCL_COMPLEX64 = 3,  /* interleaved (re, im) float32 pairs, C99 float _Complex layout */
    ECCL_COMPLEX128 = 4  /* interleaved (re, im) float64 pairs */
} eccl_dtype_t;

/* Bytes of one element of dtype (8 for ECCL_COMPLEX64), or 0 for an unknown dtype. */
size_t eccl_dtype_size(eccl_dtype_t dtype);
/* "float32", "float64", "complex64", "complex128", or "unknown". Static. */
const char *eccl_dtype_name(eccl_dtype_t dtype);

/* ---------------------------------------------------------------------------------------------
 * How it is coded: the error bound
 * ------------------------------------------------------------------------------------------- */
typedef enum eccl_mode {
    ECCL_MODE_LOSSLESS = 0, /* bit-exact reconstruction */
    ECCL_MODE_ABS = 1,      /* |x - x'| <= value for every real component */
    ECCL_MODE_REL = 2       /* |x - x'| <= value * range, range = max - min of the (finite) data */
} eccl_mode_t;

/* Pass as eccl_bound_t.range to have the range computed from the data being compressed. */
#define ECCL_RANGE_FROM_DATA (-1.0)

typedef struct eccl_bound {
    eccl_mode_t mode;
    double value; /* ABS: the absolute bound (> 0); REL: the relative factor (> 0); LOSSLESS: ignored */
    double range; /* REL only: ECCL_RANGE_FROM_DATA, or a precomputed range >= 0 (e.g. the
                     global range of a distributed array, so every rank uses the same bound) */
} eccl_bound_t;

/* Convenience initializers: eccl_bound_t b = ECCL_BOUND_ABS(1e-4); */
#define ECCL_BOUND_ABS(e) {ECCL_MODE_ABS, (e), 0.0}
#define ECCL_BOUND_REL(e) {ECCL_MODE_REL, (e), ECCL_RANGE_FROM_DATA}
#define ECCL_BOUND_LOSSLESS {ECCL_MODE_LOSSLESS, 0.0, 0.0}

/* Reduction operations (codec: SUM, MAX, MIN; collectives add AVG and the PROD fallback). */
typedef enum eccl_op {
    ECCL_OP_SUM = 0,
    ECCL_OP_MAX = 1,
    ECCL_OP_MIN = 2,
    ECCL_OP_AVG = 3,
    ECCL_OP_PROD = 4
} eccl_op_t;

/* ---------------------------------------------------------------------------------------------
 * Codec
 * ------------------------------------------------------------------------------------------- */

/* Worst-case compressed size in bytes of `count` elements of `dtype`: eccl_compress never writes
 * more. Returns 0 for an unknown dtype, or when count * element size reaches 2^62 bytes (the
 * format's limit: 2^62 - element size bytes is the largest count a stream holds) or the size
 * would not fit in size_t. */
size_t eccl_compress_bound(size_t count, eccl_dtype_t dtype);

/* Minimum and maximum over the finite real components of data (NaN and +-inf skipped; each
 * complex element contributes its real and imaginary parts), converted exactly to double. With no
 * finite value (count 0, or only NaN and +-inf) *min = *max = +0.0, which the result alone does
 * not tell apart from data that is all zeros. A zero minimum or maximum has the sign of one of the
 * data's zeros (which one is unspecified when both signs occur). On an error nothing is written.
 * Errors: ECCL_ERR_INVALID_ARG (NULL pointer with count > 0, NULL min/max, unknown dtype). */
eccl_result_t eccl_data_range(const void *data, size_t count, eccl_dtype_t dtype, double *min,
                              double *max);

/* The absolute bound that compressing `data` with `bound` guarantees (what the header's eb_abs
 * will hold): ABS: min(value, 2^1020); REL: min(value * range, 2^1020), the range taken from
 * bound->range or computed from data (a range of 0, -0.0 included, gives +0.0, and the stream
 * then stores every value exactly, with +0.0 in its header's range and eb_abs); LOSSLESS: 0. data may be NULL unless the range must be
 * computed. Errors: ECCL_ERR_INVALID_ARG (value <= 0, NaN or inf for a lossy mode, negative or NaN
 * range other than ECCL_RANGE_FROM_DATA, unknown mode or dtype). */
eccl_result_t eccl_bound_resolve(const eccl_bound_t *bound, const void *data, size_t count,
                                 eccl_dtype_t dtype, double *eb_abs);

/* Compress `count` elements of `dtype` from host memory `data` into `out` (capacity
 * `out_capacity` bytes), writing the stream size to *out_size.
 * Guarantee: eccl_decompress returns x' with |x - x'| <= eb_abs for every real component
 * (bit-exact for LOSSLESS; NaN, +-inf and values stored losslessly come back bit for bit; in
 * lossy modes a -0.0 may come back as +0.0).
 * The output is deterministic: same input and parameters give the same bytes on every machine
 * and thread count, and on the GPU codec.
 * Uses OpenMP threads (when built with --enable-openmp) as the caller's OpenMP settings allow.
 * Errors: ECCL_ERR_INVALID_ARG (NULL pointers, bad bound, unknown dtype, count * element size
 *         reaching 2^62 bytes: checked before the data is read),
 *         ECCL_ERR_BUFFER_TOO_SMALL (out_capacity too small: eccl_compress_bound() always
 *         suffices; *out_size then holds that bound; out may be NULL with out_capacity 0 to ask),
 *         ECCL_ERR_NO_MEMORY. */
eccl_result_t eccl_compress(const void *data, size_t count, eccl_dtype_t dtype,
                            const eccl_bound_t *bound, void *out, size_t out_capacity,
                            size_t *out_size);

/* Decompress a whole stream of `stream_size` bytes into `data`, which holds `count` elements of
 * `dtype` (both must match the stream's header). stream_size is the stream's exact size (what
 * eccl_compress or a homomorphic call returned in *out_size, the header's stream_size field), not
 * the capacity of the buffer holding it: any other value, larger ones included, is
 * ECCL_ERR_CORRUPT. The same holds for every function below that takes a stream and its size
 * (eccl_stream_info, eccl_hom_reduce, eccl_hom_combine). Every field, offset and the checksum are
 * validated before use: nothing outside the given buffers is ever read or written.
 * Errors: ECCL_ERR_INVALID_ARG (NULL pointers), ECCL_ERR_CORRUPT (not a valid eccl stream,
 *         truncated, a stream_size other than the stream's, or checksum mismatch), ECCL_ERR_MISMATCH (count or dtype differ from the
 *         stream's), ECCL_ERR_UNSUPPORTED (a newer major format version). */
eccl_result_t eccl_decompress(const void *stream, size_t stream_size, void *data, size_t count,
                              eccl_dtype_t dtype);

/* What a stream's header and block codes say (no payload decoding; the checksum is checked). */
typedef struct eccl_stream_info {
    int version_major, version_minor;
    eccl_dtype_t dtype;
    eccl_mode_t mode;
    uint64_t count;        /* elements of dtype */
    double bound;          /* the user's bound value (REL: the factor) */
    double eb_abs;         /* the absolute bound in force */
    double range;          /* REL: the range used; else 0 */
    uint32_t nsum;         /* contributions summed into this stream (1 = plain compressed data) */
    uint64_t stream_size;  /* bytes */
    uint64_t nblocks;      /* blocks of 32 reals */
    uint64_t nblocks_zero; /* all-zero blocks (1 byte each) */
    uint64_t nblocks_quant;/* quantized blocks (zero blocks included) */
    uint64_t nblocks_raw;  /* blocks stored exactly (lossless) */
} eccl_stream_info_t;

/* Parse and validate a stream's header, index and block codes, and verify its checksum.
 * stream_size: the stream's exact size, as for eccl_decompress.
 * Errors: ECCL_ERR_INVALID_ARG, ECCL_ERR_CORRUPT, ECCL_ERR_UNSUPPORTED. */
eccl_result_t eccl_stream_info(const void *stream, size_t stream_size, eccl_stream_info_t *info);

/* Homomorphic reduction: the compressed stream of op(decompress(stream), local) computed in the
 * quantized domain (no decompress-operate-compress), doc/format.md section 11.
 * `local` holds the stream's count elements of its dtype (count and dtype must match).
 * op: ECCL_OP_SUM (integer-domain sum: errors add, nsum grows by 1), ECCL_OP_MAX/ECCL_OP_MIN
 * (error stays within eb_abs; real dtypes only). On a LOSSLESS stream the result is op applied
 * exactly as the element type would (canonical NaN, max(-0.0, +0.0) = +0.0).
 * out (out_capacity bytes) may not overlap the inputs: the stream (stream_size bytes) or local
 * (count * element size bytes); for eccl_hom_combine, a (a_size bytes) or b (b_size bytes).
 * Errors: as eccl_decompress, plus ECCL_ERR_INVALID_ARG (NULL pointers, an out overlapping an
 * input, unknown op), ECCL_ERR_UNSUPPORTED (AVG or PROD, MAX/MIN on complex, a
 * stream whose nsum would overflow), ECCL_ERR_BUFFER_TOO_SMALL (*out_size then holds
 * eccl_compress_bound, which always suffices; out may be NULL with out_capacity 0 to ask). */
eccl_result_t eccl_hom_reduce(const void *stream, size_t stream_size, const void *local,
                              size_t count, eccl_dtype_t dtype, eccl_op_t op, void *out,
                              size_t out_capacity, size_t *out_size);

/* Homomorphic combination of two streams whose format version (major), dtype, count, mode, bound,
 * range and eb_abs are equal (ECCL_ERR_MISMATCH otherwise): the stream of op(a, b); nsum adds (SUM) or takes the
 * maximum (MAX/MIN). Commutative: combine(a, b) and combine(b, a) produce identical bytes.
 * Errors: as eccl_hom_reduce. */
eccl_result_t eccl_hom_combine(const void *a, size_t a_size, const void *b, size_t b_size,
                               eccl_op_t op, void *out, size_t out_capacity, size_t *out_size);

/* ---------------------------------------------------------------------------------------------
 * Communicators
 * ------------------------------------------------------------------------------------------- */

/* An MPI communicator wrapped with eccl's buffers, tuning and cost-model state. Opaque. */
typedef struct eccl_comm *eccl_comm_t;

/* When to compress. AUTO: when the cost model says it pays (small messages, incompressible data
 * and fast links use the plain MPI collective). ALWAYS: every call uses a compressed algorithm.
 * NEVER: plain MPI collectives (useful as a baseline). */
typedef enum eccl_compress_policy {
    ECCL_COMPRESS_UNSET = 0, ECCL_COMPRESS_AUTO = 1, ECCL_COMPRESS_ALWAYS = 2, ECCL_COMPRESS_NEVER = 3
} eccl_compress_policy_t;

/* What a call does with an operation eccl cannot reduce in compressed form (PROD) or a forced
 * algorithm whose restriction fails (MAX/MIN on complex data are an ECCL_ERR_INVALID_ARG, not a
 * fallback). See doc/collectives.md. */
typedef enum eccl_fallback {
    ECCL_FALLBACK_UNSET = 0,
    ECCL_FALLBACK_MPI = 1,   /* run the uncompressed MPI collective (default) */
    ECCL_FALLBACK_WARN = 2,  /* same, and print a warning once per communicator */
    ECCL_FALLBACK_ERROR = 3  /* return ECCL_ERR_UNSUPPORTED */
} eccl_fallback_t;

/* How a SUM's bound is split over the p contributions. HARD (default): E/p each, a guarantee.
 * STATISTICAL: c*E/sqrt(p) each (c = sum_c), which bounds the error only with high probability
 * (quantization errors are roughly independent and zero-mean); opt-in only. */
typedef enum eccl_sum_mode {
    ECCL_SUM_UNSET = 0, ECCL_SUM_HARD = 1, ECCL_SUM_STATISTICAL = 2
} eccl_sum_mode_t;

/* Per-communicator configuration. Start from ECCL_CONFIG_INITIALIZER: every field "unset" means
 * "default". The environment variables of doc/env.md (ECCL_COMPRESS, ECCL_FALLBACK, ECCL_ALPHA,
 * ECCL_BETA, ECCL_MIN_BYTES, ECCL_FORMAT), when set to a valid value, override the field even when
 * it is set. */
typedef struct eccl_config {
    eccl_bound_t bound;              /* default bound for calls given bound == NULL;
                                        mode < 0 = unset (default: REL 1e-6) */
    eccl_compress_policy_t compress; /* default AUTO (env ECCL_COMPRESS) */
    eccl_fallback_t fallback;        /* default MPI (env ECCL_FALLBACK) */
    eccl_sum_mode_t sum_mode;        /* default HARD */
    double sum_c;                    /* STATISTICAL's c; <= 0 = unset (default 2.0) */
    double alpha;                    /* link latency in seconds; <= 0 = measure at creation */
    double beta;                     /* seconds per byte; <= 0 = measure at creation */
    double min_bytes;                /* below this many bytes never compress; < 0 = unset (64 KiB) */
    int format;                      /* the stream format version the collectives write
                                        (doc/format.md): 1, 2 or 3; 0 = unset (default 1, env
                                        ECCL_FORMAT). The CPU codec reads every version, so ranks
                                        may differ on host buffers. On device buffers every
                                        version runs on the GPU, but the GPU of a rank of format
                                        1 or 2 refuses a version-3 stream
                                        (ECCL_ERR_UNSUPPORTED): give every rank the same
                                        format. */
} eccl_config_t;

#define ECCL_CONFIG_INITIALIZER                                                                    \
    {{(eccl_mode_t)-1, 0.0, 0.0}, ECCL_COMPRESS_UNSET, ECCL_FALLBACK_UNSET, ECCL_SUM_UNSET, 0.0,   \
     0.0, 0.0, -1.0, 0}

/* Wrap `comm` (any communicator, row/column sub-communicators included; it is duplicated, so
 * eccl's messages never mix with the caller's). Collective over comm. Measures the link's latency
 * and bandwidth unless the config gives them (a few milliseconds).
 * config may be NULL (all defaults). *out must be freed with eccl_comm_free; it is NULL after
 * any failure. Errors: ECCL_ERR_INVALID_ARG (out NULL, MPI_COMM_NULL, an intercommunicator, or
 * config->format other than 0, 1, 2 or 3: local checks, made before anything collective),
 * ECCL_ERR_MPI, ECCL_ERR_NO_MEMORY. */
eccl_result_t eccl_comm_create(MPI_Comm comm, const eccl_config_t *config, eccl_comm_t *out);

/* Force the algorithm of one collective on this communicator ("auto" restores the cost model).
 * collective: "bcast", "allreduce", "reduce", "reduce_scatter_block", "allgather", "scatter",
 * "gather", "sendrecv_replace"; algorithm: a name eccl-info lists for it. Takes precedence over
 * ECCL_<OP>_ALGORITHM. Must be called with the same arguments on every rank (not collective;
 * compressed calls compare the forced algorithm across ranks, ECCL_ERR_MISMATCH if it differs).
 * Errors: ECCL_ERR_INVALID_ARG (NULL or unknown collective or algorithm name, with a message). */
eccl_result_t eccl_comm_set_algorithm(eccl_comm_t comm, const char *collective, const char *algorithm);

/* Free a communicator and its buffers (collective over its MPI communicator); sets *comm = NULL.
 * A NULL *comm is accepted. */
eccl_result_t eccl_comm_free(eccl_comm_t *comm);

/* The MPI communicator eccl works on (the duplicate), its size and this process's rank. */
eccl_result_t eccl_comm_info(eccl_comm_t comm, MPI_Comm *mpi_comm, int *size, int *rank);

/* Message of the last error this communicator returned (static storage of the communicator,
 * valid until its next call); "" when the last call on it (a collective, eccl_comm_set_algorithm,
 * eccl_cuda_comm_set_stream) succeeded. */
const char *eccl_comm_last_error(eccl_comm_t comm);

/* What the last collective on this communicator did (this rank's view). */
typedef struct eccl_stats {
    char algorithm[32];        /* e.g. "ring", "binomial", "mpi" */
    int compressed;            /* 1 if compressed data crossed the network */
    eccl_result_t result;
    double bound_requested;    /* absolute bound of the result (E); 0 for lossless/uncompressed */
    double eb_per_message;     /* absolute bound each compressed message was made with */
    uint64_t bytes_raw;        /* compressed algorithms: the uncompressed size of what this rank
                                  sent (forwarded data included); uncompressed ones: the nominal
                                  payload of this rank in the collective (MPI's own algorithm may
                                  move more) */
    uint64_t bytes_sent;       /* what it actually sent (uncompressed algorithms: = bytes_raw) */
    double ratio;              /* bytes_raw / bytes_sent (1 when nothing was sent) */
    double t_total;            /* seconds, wall clock of the call */
    double t_codec;            /* seconds in compression, decompression and homomorphic ops
                                  (device-resident calls: the host waiting for the GPU codec, during
                                  which messages already posted progress, so in the pipelined
                                  algorithms it also holds network time that overlapped) */
    double t_network;          /* seconds waiting for the network (only for it) */
    double model_ratio;        /* the cost model's inputs: estimated ratio, */
    double model_t_mpi;        /* predicted time of the plain MPI collective, */
    double model_t_chosen;     /* and of the chosen algorithm (seconds) */
    char reason[96];           /* why this algorithm ("forced by ECCL_BCAST_ALGORITHM", ...) */
    double t_stage;            /* seconds copying device buffers whole to and from host memory */
    int device;                /* where this rank's data was handled: 0 = host memory; 1 = device
                                  buffers staged whole through host memory (the CPU codec ran);
                                  2 = device-resident (the GPU codec ran on the device buffers,
                                  only compressed streams crossed PCIe) */
    int transport;             /* what carried the data: 0 = MPI, 1 = NCCL (streams, or NCCL's own
                                  collectives), 2 = device buffers handed to a CUDA-aware MPI as
                                  they are (eccl_cuda_comm_mpi_aware) */
    double t_select;           /* seconds deciding how the call runs: the agreements among the ranks
                                  (device, data: one small allreduce each) and the ratio sample,
                                  which t_codec counts too; part of t_total */
} eccl_stats_t;

eccl_result_t eccl_comm_last_stats(eccl_comm_t comm, eccl_stats_t *stats);

/* ---------------------------------------------------------------------------------------------
 * Collectives. MPI argument order; blocking. Buffers are host memory or, in a build with the CUDA
 * backend, CUDA device memory (recognised per pointer; host and device may be mixed): device
 * buffers are compressed and decompressed on the GPU where they are (device-resident: only the
 * compressed streams cross PCIe; with NCCL between GPUs where that is faster), or copied whole
 * through page-locked host buffers of the communicator where the algorithm needs host data
 * (eccl_stats_t.device says which; doc/gpu.md). The device data must be complete when the call is
 * made (synchronise the stream that wrote it), the result is on the device when the call returns,
 * and steady-state calls do not allocate. A failed copy from the device in a staged call still
 * completes the collective (zeros stand in for the data) and returns ECCL_ERR_CUDA; without
 * page-locked memory the staging buffers are ordinary host memory (slower copies); running out of
 * host memory altogether returns ECCL_ERR_NO_MEMORY (as any local argument error, peers may then
 * wait). A build without CUDA returns
 * ECCL_ERR_UNSUPPORTED for a device buffer. `bound` bounds the RESULT (NULL: the communicator's
 * default), see doc/guarantees.md:
 *   data movement (bcast, scatter, gather, allgather, sendrecv_replace): |out - in| <= E;
 *   SUM: |out - exact sum| <= E (+ the rounding of the sum in the element type);
 *   AVG: |out - exact mean| <= E (idem); MAX/MIN: |out - exact| <= E.
 * REL bounds use bound->range when it is not ECCL_RANGE_FROM_DATA (it must then be the same on
 * every rank), else the range of the data involved (the root's for bcast/scatter, the sender's
 * for sendrecv_replace, else the global range through one small MPI_Allreduce). Results of allreduce/allgather are bitwise identical on every rank, and those of bcast
 * on every rank but the root (which keeps its exact input); a forced algorithm also reproduces
 * them from run to run (doc/collectives.md). MPI_IN_PLACE is accepted where MPI accepts it.
 * Counts are elements of dtype; the bytes of a call on all ranks (count x element size x ranks)
 * must stay below 2^62. A REL range ignores NaN and +-inf: a rank whose data has no finite value
 * adds nothing to the global range. Every rank must pass the same count, dtype, op, root and bound
 * (as MPI requires): calls that compress compare them before any data moves (doc/collectives.md
 * section 8). Errors: ECCL_ERR_INVALID_ARG (NULL buffers with count > 0, bad root, bad
 * dtype/op/bound, a count too large: checked whatever the count, 0 included; local, before any
 * communication), ECCL_ERR_MISMATCH (those arguments differ across ranks: every rank returns it;
 * sendrecv_replace: a stream made with a larger absolute bound than the receiver's ABS/LOSSLESS
 * one, on the receiver), ECCL_ERR_UNSUPPORTED (with ECCL_FALLBACK_ERROR, on any number of ranks),
 * ECCL_ERR_CORRUPT (a peer's stream failed validation), ECCL_ERR_MPI, ECCL_ERR_NO_MEMORY,
 * ECCL_ERR_CUDA (copying a device buffer failed). A failing call may leave the output buffers
 * partly written.
 * ------------------------------------------------------------------------------------------- */
eccl_result_t eccl_bcast(void *buf, size_t count, eccl_dtype_t dtype, int root,
                         const eccl_bound_t *bound, eccl_comm_t comm);
eccl_result_t eccl_allreduce(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                             eccl_op_t op, const eccl_bound_t *bound, eccl_comm_t comm);
eccl_result_t eccl_reduce(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                          eccl_op_t op, int root, const eccl_bound_t *bound, eccl_comm_t comm);
/* recvcount elements per rank; sendbuf holds size*recvcount. */
eccl_result_t eccl_reduce_scatter_block(const void *sendbuf, void *recvbuf, size_t recvcount,
                                        eccl_dtype_t dtype, eccl_op_t op,
                                        const eccl_bound_t *bound, eccl_comm_t comm);
/* count elements per rank; recvbuf holds size*count. */
eccl_result_t eccl_allgather(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                             const eccl_bound_t *bound, eccl_comm_t comm);
eccl_result_t eccl_scatter(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                           int root, const eccl_bound_t *bound, eccl_comm_t comm);
eccl_result_t eccl_gather(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                          int root, const eccl_bound_t *bound, eccl_comm_t comm);
/* The shift Cannon's algorithm needs: send buf to dest, replace it with what source sends. */
eccl_result_t eccl_sendrecv_replace(void *buf, size_t count, eccl_dtype_t dtype, int dest,
                                    int sendtag, int source, int recvtag,
                                    const eccl_bound_t *bound, eccl_comm_t comm);

/* ---------------------------------------------------------------------------------------------
 * Nonblocking collectives, MPI-style: the same arguments as the blocking call, plus a request.
 * The call returns at once; the collective then runs with the same algorithm choice, the same
 * bound and bitwise the same results as the blocking call would (it runs the blocking call's code),
 * and completes at eccl_wait / eccl_test / eccl_waitall. Buffers must stay untouched (send) and
 * unread (receive) until then; device buffers must hold their data when the call is posted.
 *
 * Ordering: every rank posts a communicator's collectives, blocking and nonblocking, in the same
 * order (as MPI requires); they run in that order, one at a time. A blocking call, or a call that
 * reads or changes the communicator (eccl_comm_last_stats, eccl_comm_last_error,
 * eccl_comm_set_algorithm, eccl_cuda_comm_set_stream, eccl_comm_free), first waits for the
 * requests posted before it. Calls on one communicator come from one thread at a time.
 *
 * Progress: where MPI was initialised with MPI_THREAD_MULTIPLE, each communicator has a progress
 * thread (started at its first nonblocking call) that runs the requests as soon as they are
 * posted, whether or not the caller tests them; a caller that waits for requests the thread has
 * not started yet runs them itself, in order, rather than sleep while the thread wakes.
 * Otherwise, or with ECCL_PROGRESS=caller, requests
 * run in the caller's thread inside eccl_wait, eccl_test or the next call on the communicator
 * (then eccl_test runs the pending collectives and returns with them done: it blocks until the
 * peers join).
 *
 * Errors: posting fails only for a NULL request pointer or communicator (ECCL_ERR_INVALID_ARG)
 * or no memory; every other error (arguments included) is the request's result, returned by
 * eccl_wait, with the same message in eccl_comm_last_error after it: the same errors as the
 * blocking call, so a corrupt stream or a mismatch is reported on every rank and nothing hangs.
 * ------------------------------------------------------------------------------------------- */
typedef struct eccl_request *eccl_request_t;
#define ECCL_REQUEST_NULL ((eccl_request_t)0)

eccl_result_t eccl_ibcast(void *buf, size_t count, eccl_dtype_t dtype, int root, const eccl_bound_t *bound,
                          eccl_comm_t comm, eccl_request_t *req);
eccl_result_t eccl_iallreduce(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype, eccl_op_t op,
                              const eccl_bound_t *bound, eccl_comm_t comm, eccl_request_t *req);
eccl_result_t eccl_ireduce(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype, eccl_op_t op,
                           int root, const eccl_bound_t *bound, eccl_comm_t comm, eccl_request_t *req);
eccl_result_t eccl_ireduce_scatter_block(const void *sendbuf, void *recvbuf, size_t recvcount, eccl_dtype_t dtype,
                                         eccl_op_t op, const eccl_bound_t *bound, eccl_comm_t comm,
                                         eccl_request_t *req);
eccl_result_t eccl_iallgather(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype,
                              const eccl_bound_t *bound, eccl_comm_t comm, eccl_request_t *req);
eccl_result_t eccl_iscatter(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype, int root,
                            const eccl_bound_t *bound, eccl_comm_t comm, eccl_request_t *req);
eccl_result_t eccl_igather(const void *sendbuf, void *recvbuf, size_t count, eccl_dtype_t dtype, int root,
                           const eccl_bound_t *bound, eccl_comm_t comm, eccl_request_t *req);
eccl_result_t eccl_isendrecv_replace(void *buf, size_t count, eccl_dtype_t dtype, int dest, int sendtag,
                                     int source, int recvtag, const eccl_bound_t *bound, eccl_comm_t comm,
                                     eccl_request_t *req);

/* Complete a request: returns its result, fills *stats (NULL: not wanted) with what
 * eccl_comm_last_stats would say of it, frees it and sets *req = ECCL_REQUEST_NULL. Waiting for
 * ECCL_REQUEST_NULL returns ECCL_SUCCESS at once (stats zeroed). A request outlives
 * eccl_comm_free of its communicator (which completes it): wait for it afterwards to free it. */
eccl_result_t eccl_wait(eccl_request_t *req, eccl_stats_t *stats);
/* *done = 1 and the request completed as by eccl_wait (its result returned), or *done = 0 and it
 * is still in flight (ECCL_SUCCESS returned). Errors: ECCL_ERR_INVALID_ARG (NULL req or done). */
eccl_result_t eccl_test(eccl_request_t *req, int *done, eccl_stats_t *stats);
/* eccl_wait on each of reqs[0 .. n), in order; results[i] (NULL: not wanted) is each result.
 * Returns the first error, else ECCL_SUCCESS. */
eccl_result_t eccl_waitall(int n, eccl_request_t *reqs, eccl_result_t *results);

#ifdef __cplusplus
}
#endif
#endif /* ECCL_H */
