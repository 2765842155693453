/* mini-hipdnn: attribute value types (numeric values match hipDNN). */
#ifndef MINI_HIPDNN_BACKEND_ATTRIBUTE_TYPE_H
#define MINI_HIPDNN_BACKEND_ATTRIBUTE_TYPE_H

typedef enum
{
    HIPDNN_TYPE_HANDLE = 0,             /* hipdnnHandle_t */
    HIPDNN_TYPE_DATA_TYPE = 1,          /* hipdnnDataType_t */
    HIPDNN_TYPE_BOOLEAN = 2,            /* bool (1 byte) */
    HIPDNN_TYPE_INT64 = 3,              /* int64_t */
    HIPDNN_TYPE_FLOAT = 4,              /* float */
    HIPDNN_TYPE_DOUBLE = 5,             /* double */
    HIPDNN_TYPE_VOID_PTR = 6,           /* void* */
    HIPDNN_TYPE_HEUR_MODE = 7,          /* hipdnnBackendHeurMode_t */
    HIPDNN_TYPE_BACKEND_DESCRIPTOR = 13,/* hipdnnBackendDescriptor_t */
    HIPDNN_TYPE_INT32 = 18,
    HIPDNN_TYPE_CHAR = 19,
    HIPDNN_TYPE_CONVOLUTION_MODE = 24,  /* hipdnnConvolutionMode_t */
    HIPDNN_TYPE_POINTWISE_MODE = 25     /* hipdnnPointwiseMode_t */
} hipdnnBackendAttributeType_t;

#endif
