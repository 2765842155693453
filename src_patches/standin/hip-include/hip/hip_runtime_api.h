/* Parse-only stand-in for the HIP runtime API header (miopen-hipdnn wrapper
 * project, src_patches). It lets `miopen-wrap` and the type-check TU read a
 * MIOpen public header on a machine without ROCm. It declares only what a
 * MIOpen public header takes from HIP: the fixed-width integer types (the
 * real HIP header brings <stdint.h> in transitively) and the opaque stream
 * handle. The handle is a pointer to an incomplete struct, which is also its
 * ABI in HIP, so stubs generated against this stand-in are ABI-identical. */
#ifndef MIOPEN_WRAP_STANDIN_HIP_RUNTIME_API_H
#define MIOPEN_WRAP_STANDIN_HIP_RUNTIME_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ihipStream_t* hipStream_t;

typedef enum hipError_t
{
    hipSuccess = 0,
} hipError_t;

#ifdef __cplusplus
}
#endif

#endif
