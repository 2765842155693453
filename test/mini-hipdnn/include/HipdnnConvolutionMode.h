/* mini-hipdnn: convolution modes (numeric values match hipDNN). */
#ifndef MINI_HIPDNN_CONVOLUTION_MODE_H
#define MINI_HIPDNN_CONVOLUTION_MODE_H

typedef enum
{
    HIPDNN_CONVOLUTION = 0,       /* true convolution: filter taps are mirrored */
    HIPDNN_CROSS_CORRELATION = 1  /* the usual deep-learning convolution */
} hipdnnConvolutionMode_t;

#endif
