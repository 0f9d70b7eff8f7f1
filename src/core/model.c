/* model.c - the cost model's figures: set from measurements, views derived (model.h). */
#include "config.h"

#include <math.h>

#include "core/model.h"

#ifndef ECCL_MDL_HOP_MEASURED /* 0: price a device-stream hop as before 2026-11-28's fourth session
                                 (NCCL's link plus an MPI message; A/B runs) */
#define ECCL_MDL_HOP_MEASURED 1
#endif

static double positive(double v, double dflt) { return v > 0 && isfinite(v) ? v : dflt; }

/* Every view from the measured figures: the only place that writes host, gpu[] and nccl[]. */
static void derive(eccl_models_t *md)
{
    eccl_model_t *h = &md->host;
    *h = (eccl_model_t){0};
    h->alpha = md->alpha;
    h->beta = md->beta;
    h->alpha_in = md->alpha_in;
    h->beta_in = md->beta_in;
    h->agree = md->alpha;
    h->hop_alpha = md->alpha; /* (no device streams with the CPU codec) */
    h->hop_beta = md->beta;
    h->c_thr = md->cpu[0];
    h->d_thr = md->cpu[1];
    h->h_thr = md->cpu[2];
    h->g_thr = md->cpu[3];
    /* combining two streams decodes one and re-encodes it with the other: the CPU codec always */
    h->comb_thr = 1.0 / (1.0 / h->h_thr + 1.0 / h->d_thr);
    for (int w = 0; w < 2; w++) {
        eccl_model_t *g = &md->gpu[w], *n = &md->nccl[w];
        *g = *h;
        g->c_thr = md->gpu_thr[w][0];
        g->d_thr = md->gpu_thr[w][1];
        g->h_thr = md->gpu_thr[w][2];
        g->c_thr_dev = md->gpu_thr_dev[w][0];
        g->d_thr_dev = md->gpu_thr_dev[w][1];
        g->op_lat = md->gpu_lat_obs > 0 ? md->gpu_lat_obs : md->gpu_lat_op[0];
        g->op_lat_d = g->op_lat + eccl_models_gpu_extra(md, 1);
        g->op_lat_h = g->op_lat + eccl_models_gpu_extra(md, 2);
        g->stage = 2.0 * ECCL_PCIE_BETA; /* a staged buffer crosses PCIe twice */
        g->nccl_alpha = md->nccl_alpha;  /* NCCL's own collectives move device buffers directly */
        g->nccl_beta = md->nccl_beta;
        *n = *g;
        if (md->nccl_beta > 0) {
            /* compressed streams through NCCL also exchange their sizes over MPI and cross PCIe
             * twice more (host memory to NCCL's device buffer and back: transport/nccl.c) */
            n->alpha = md->nccl_alpha + md->alpha;
            n->beta = md->nccl_beta + 2.0 * ECCL_PCIE_BETA;
        }
        /* a stream kept in device memory: its hop as measured, else NCCL's link and the size's MPI
         * message (the NCCL view's alpha) */
        g->hop_alpha = g->alpha;
        g->hop_beta = g->nccl_beta;
        int hop = ECCL_MDL_HOP_MEASURED && md->hop_alpha > 0;
        n->hop_alpha = hop ? md->hop_alpha : n->alpha;
        n->hop_beta = hop ? md->hop_beta : n->nccl_beta;
    }
}

void eccl_models_init(eccl_models_t *md, const double m[8])
{
    *md = (eccl_models_t){0};
    md->alpha = positive(m[0], ECCL_MDL_ALPHA);
    md->beta = positive(m[1], ECCL_MDL_BETA);
    md->alpha_in = positive(m[6], md->alpha);
    md->beta_in = positive(m[7], md->beta);
    md->cpu[0] = positive(m[2], ECCL_MDL_CPU_C_THR);
    md->cpu[1] = positive(m[3], ECCL_MDL_CPU_D_THR);
    md->cpu[2] = positive(m[4], ECCL_MDL_CPU_H_THR);
    md->cpu[3] = positive(m[5], ECCL_MDL_CPU_G_THR);
    for (int k = 0; k < 3; k++) md->gpu_lat_op[k] = ECCL_GPU_OP_LAT;
    md->gpu_thr[0][0] = ECCL_GPU_C_THR;
    md->gpu_thr[0][1] = ECCL_GPU_D_THR;
    md->gpu_thr[0][2] = ECCL_GPU_H_THR;
    md->gpu_thr[1][0] = ECCL_GPU_C_THR64;
    md->gpu_thr[1][1] = ECCL_GPU_D_THR64;
    md->gpu_thr[1][2] = ECCL_GPU_H_THR64;
    for (int w = 0; w < 2; w++) /* (unmeasured: no gain priced for keeping the stream on the GPU) */
        for (int k = 0; k < 2; k++) md->gpu_thr_dev[w][k] = md->gpu_thr[w][k];
    derive(md);
}

int eccl_models_set_gpu(eccl_models_t *md, const double v[ECCL_GPU_CAL_N])
{
    md->gpu_measured = 1;
    for (int k = 0; k < ECCL_GPU_CAL_N; k++)
        if (!(v[k] > 0 && isfinite(v[k]))) return 0;
    md->gpu_lat_op[0] = v[0];
    md->gpu_lat_op[1] = v[11];
    md->gpu_lat_op[2] = v[12];
    for (int w = 0; w < 2; w++) {
        for (int k = 0; k < 3; k++) md->gpu_thr[w][k] = v[1 + 3 * w + k];
        for (int k = 0; k < 2; k++) md->gpu_thr_dev[w][k] = v[7 + 2 * w + k];
    }
    derive(md);
    return 1;
}

double eccl_models_gpu_extra(const eccl_models_t *md, int kind)
{
    if (kind < 1 || kind > 2) return 0.0;
    double x = md->gpu_lat_op[kind] - md->gpu_lat_op[0];
    return x > 0 ? x : 0.0;
}

int eccl_models_set_gpu_observed(eccl_models_t *md, double lat)
{
    if (!(lat > 0 && isfinite(lat))) return 0;
    md->gpu_lat_obs = lat;
    derive(md);
    return 1;
}

void eccl_models_set_nccl(eccl_models_t *md, double alpha, double beta)
{
    md->nccl_alpha = positive(alpha, ECCL_MDL_ALPHA);
    md->nccl_beta = positive(beta, 1e-12);
    derive(md);
}

int eccl_models_set_nccl_hop(eccl_models_t *md, double alpha, double beta)
{
    if (!(alpha > 0 && isfinite(alpha) && beta > 0 && isfinite(beta))) return 0;
    md->hop_alpha = alpha;
    md->hop_beta = beta;
    derive(md);
    return 1;
}
