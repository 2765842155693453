/*
 * mini-hipdnn: conformance test bed for the hipDNN backend C API.
 *
 * Declares the subset of hipDNN's backend C ABI that the MIOpen -> hipDNN
 * forwarding wrapper uses, with hipDNN's function names and signatures (see
 * test/mini-hipdnn/README.md for the facts table). The enum headers it
 * includes are generated in the build tree from hipDNN's ABI data file
 * (rust/hipdnn-backend/abi.toml), which holds the numbers and their sources.
 * Written for this project; no hipDNN source text is reproduced here.
 *
 * Test-bed deviations: there is no GPU, so "device" pointers are host memory
 * and hipStream_t is an opaque pointer that is stored but never used.
 */
#ifndef MINI_HIPDNN_BACKEND_H
#define MINI_HIPDNN_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#include "HipdnnBackendAttributeName.h"
#include "HipdnnBackendAttributeType.h"
#include "HipdnnBackendDescriptorType.h"
#include "HipdnnBackendHeuristicType.h"
#include "HipdnnBackendLimits.h"
#include "HipdnnBackendPluginLoadingMode.h"
#include "HipdnnConvolutionMode.h"
#include "HipdnnDataType.h"
#include "HipdnnPointwiseMode.h"
#include "HipdnnStatus.h"

#if defined(__GNUC__)
#define HIPDNN_BACKEND_EXPORT __attribute__((visibility("default")))
#else
#define HIPDNN_BACKEND_EXPORT
#endif

#ifndef __HIP_PLATFORM_AMD__
/* Same spelling as HIP's own typedef so the two can coexist. */
typedef struct ihipStream_t* hipStream_t;
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hipdnnHandle* hipdnnHandle_t;
typedef struct HipdnnBackendDescriptor* hipdnnBackendDescriptor_t;

/* handle */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnCreate(hipdnnHandle_t* handle);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnDestroy(hipdnnHandle_t handle);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetStream(hipdnnHandle_t handle, hipStream_t streamId);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetStream(hipdnnHandle_t handle, hipStream_t* streamId);

/* backend descriptors */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendCreateDescriptor(
    hipdnnBackendDescriptorType_t descriptorType, hipdnnBackendDescriptor_t* descriptor);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendDestroyDescriptor(hipdnnBackendDescriptor_t descriptor);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendExecute(hipdnnHandle_t handle,
                                                          hipdnnBackendDescriptor_t executionPlan,
                                                          hipdnnBackendDescriptor_t variantPack);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendFinalize(hipdnnBackendDescriptor_t descriptor);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendGetAttribute(hipdnnBackendDescriptor_t descriptor,
                                                               hipdnnBackendAttributeName_t attributeName,
                                                               hipdnnBackendAttributeType_t attributeType,
                                                               int64_t requestedElementCount,
                                                               int64_t* elementCount,
                                                               void* arrayOfElements);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnBackendSetAttribute(hipdnnBackendDescriptor_t descriptor,
                                                               hipdnnBackendAttributeName_t attributeName,
                                                               hipdnnBackendAttributeType_t attributeType,
                                                               int64_t elementCount,
                                                               const void* arrayOfElements);

/* errors */
HIPDNN_BACKEND_EXPORT const char* hipdnnGetErrorString(hipdnnStatus_t status);
HIPDNN_BACKEND_EXPORT void hipdnnGetLastErrorString(char* message, size_t maxSize);
HIPDNN_BACKEND_EXPORT void hipdnnPeekLastErrorString_ext(char* message, size_t maxSize);

/* engine plugins (call before hipdnnCreate: plugins load at handle creation) */
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnSetEnginePluginPaths_ext(
    size_t numPaths, const char* const* pluginPaths, hipdnnPluginLoadingMode_ext_t loadingMode);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetEngineCount_ext(hipdnnHandle_t handle, size_t* numEngines);

/* version: "MAJOR.MINOR.PATCH.TWEAK", static lifetime */
HIPDNN_BACKEND_EXPORT const char* hipdnnVersionString_ext(void);
HIPDNN_BACKEND_EXPORT hipdnnStatus_t hipdnnGetVersion_ext(const char** version);

#ifdef __cplusplus
}
#endif

#endif /* MINI_HIPDNN_BACKEND_H */
