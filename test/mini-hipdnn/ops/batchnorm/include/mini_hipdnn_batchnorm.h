/*
 * The batchnorm operations as the mini hipDNN's engines get them
 * (miniHipdnnOp_t of mini_hipdnn_engine_plugin.h): their kinds (each its
 * hipDNN operation descriptor type) and what each slot, scalar and flag holds.
 */
#ifndef MINI_HIPDNN_BATCHNORM_H
#define MINI_HIPDNN_BATCHNORM_H

#include "HipdnnBackendDescriptorType.h"

enum
{
    /* x, mean, variance, scale, bias (in), epsilon -> y (out) */
    MINI_HIPDNN_OP_BN_INFERENCE = HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_VARIANCE_DESCRIPTOR_EXT,
    /* x, scale, bias (in), epsilon -> y [, saved mean, saved inverse variance] (out) */
    MINI_HIPDNN_OP_BN_TRAINING = HIPDNN_BACKEND_OPERATION_BATCHNORM_DESCRIPTOR_EXT,
    /* x, dy, scale [, saved mean, saved inverse variance] (in) -> dx, dscale, dbias (out) */
    MINI_HIPDNN_OP_BN_BACKWARD = HIPDNN_BACKEND_OPERATION_BATCHNORM_BACKWARD_DESCRIPTOR_EXT,
    /* x, mean, inverse variance (in VARIANCE), scale, bias (in) -> y (out):
     * the fused backward graph's first node */
    MINI_HIPDNN_OP_BN_INFERENCE_INV = HIPDNN_BACKEND_OPERATION_BATCHNORM_INFERENCE_DESCRIPTOR_EXT
};

/* slot[]: tensor indices, -1 when not set. Training and backward: MEAN and
 * VARIANCE are the saved mean and inverse variance. */
enum
{
    MINI_HIPDNN_BN_X = 0,
    MINI_HIPDNN_BN_Y,
    MINI_HIPDNN_BN_MEAN,
    MINI_HIPDNN_BN_VARIANCE,
    MINI_HIPDNN_BN_SCALE,
    MINI_HIPDNN_BN_BIAS,
    MINI_HIPDNN_BN_DY,
    MINI_HIPDNN_BN_DX,
    MINI_HIPDNN_BN_DSCALE,
    MINI_HIPDNN_BN_DBIAS
};

/* scalar[MINI_HIPDNN_BN_EPSILON]: epsilon (the pass-by-value tensor's value,
 * widened); flag[MINI_HIPDNN_BN_RUNNING]: 1 when the five running-statistics
 * attributes are set (training; the test bed's engines run none of them). */
enum
{
    MINI_HIPDNN_BN_EPSILON = 0,
    MINI_HIPDNN_BN_RUNNING = 0
};

#endif /* MINI_HIPDNN_BATCHNORM_H */
