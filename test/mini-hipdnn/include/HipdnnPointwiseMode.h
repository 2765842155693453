/* mini-hipdnn: pointwise modes (numeric values match hipDNN; subset). */
#ifndef MINI_HIPDNN_POINTWISE_MODE_H
#define MINI_HIPDNN_POINTWISE_MODE_H

typedef enum
{
    HIPDNN_POINTWISE_MODE_ADD = 2,
    HIPDNN_POINTWISE_MODE_IDENTITY = 23,
    HIPDNN_POINTWISE_MODE_MUL = 30,
    HIPDNN_POINTWISE_MODE_RELU_FWD = 34
} hipdnnPointwiseMode_t;

#endif
