/* mini-hipdnn: tensor element types (numeric values match hipDNN).
 * The reference engine computes FLOAT, HALF and BFLOAT16 (fp32 math). */
#ifndef MINI_HIPDNN_DATA_TYPE_H
#define MINI_HIPDNN_DATA_TYPE_H

typedef enum
{
    HIPDNN_DATA_FLOAT = 0,
    HIPDNN_DATA_DOUBLE = 1,
    HIPDNN_DATA_HALF = 2,
    HIPDNN_DATA_INT8 = 3,
    HIPDNN_DATA_INT32 = 4,
    HIPDNN_DATA_UINT8 = 5,
    HIPDNN_DATA_BFLOAT16 = 6
} hipdnnDataType_t;

#endif
