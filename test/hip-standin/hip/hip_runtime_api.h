// Stand-in for the HIP runtime header, used only by the mini MIOpen test bed.
//
// The test bed runs on the host: it never talks to a GPU, so the only thing
// the public MIOpen header needs from HIP is the opaque stream handle type
// (and, for completeness, the error enum). Nothing here links against a real
// HIP runtime.
#ifndef MINI_HIP_STANDIN_HIP_RUNTIME_API_H
#define MINI_HIP_STANDIN_HIP_RUNTIME_API_H

#ifdef __cplusplus
extern "C" {
#endif

// Opaque stream type; the test bed only stores and returns the pointer.
typedef struct ihipStream_t* hipStream_t;

// Subset of HIP's error codes (values as in HIP).
typedef enum hipError_t
{
    hipSuccess           = 0,
    hipErrorInvalidValue = 1,
} hipError_t;

#ifdef __cplusplus
}
#endif

#endif // MINI_HIP_STANDIN_HIP_RUNTIME_API_H
