/*
 * Mini MIOpen test bed -- public C API header.
 *
 * This header reproduces the *shape* of MIOpen's public header for the op
 * families the forwarding-wrapper tooling has to handle: the same entry point
 * names, parameter lists, enum names and enum values, the same export macro on
 * every declaration, the same `#ifdef MIOPEN_BETA_API` fences and the same
 * doxygen group names (the wrapper generator keys op families off them).
 * The implementation behind it is a small CPU reference library; see
 * test/mini-miopen/README.md.  "Device" pointers are plain host memory here.
 */
#ifndef MIOPEN_GUARD_MIOPEN_H_
#define MIOPEN_GUARD_MIOPEN_H_

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <miopen/config.h>
#include <miopen/export.h>

#if MIOPEN_BACKEND_HIP
#include <hip/hip_runtime_api.h>
#endif

/* Declares an empty tag struct plus the pointer typedef used as an opaque handle. */
#define MIOPEN_DECLARE_OBJECT(name) \
    struct name                     \
    {                               \
    };                              \
    typedef struct name* name##_t;

#ifdef __cplusplus
extern "C" {
#endif

#if MIOPEN_BACKEND_HIP
/* The queue type the handle functions take; a HIP stream for the HIP backend. */
typedef hipStream_t miopenAcceleratorQueue_t;
#endif

/*! @ingroup handle
 * Opaque library context.
 */
MIOPEN_DECLARE_OBJECT(miopenHandle);

/** @addtogroup handle
 *
 *  @{
 */

/*! @enum miopenStatus_t
 * Result code of every API call.
 */
typedef enum
{
    miopenStatusSuccess              = 0, /*!< call succeeded */
    miopenStatusNotInitialized       = 1, /*!< something was used before it was set up */
    miopenStatusInvalidValue         = 2, /*!< a value is out of its allowed range */
    miopenStatusBadParm              = 3, /*!< a parameter is wrong (null, mismatched, ...) */
    miopenStatusAllocFailed          = 4, /*!< allocation failed */
    miopenStatusInternalError        = 5, /*!< the library hit an internal failure */
    miopenStatusNotImplemented       = 6, /*!< the requested feature is not implemented */
    miopenStatusUnknownError         = 7, /*!< an unclassified failure */
    miopenStatusUnsupportedOp        = 8, /*!< the fusion plan cannot be realised */
    miopenStatusGpuOperationsSkipped = 9, /*!< informational, not an error */
    miopenStatusVersionMismatch      = 10, /*!< serialized data has the wrong version */
} miopenStatus_t;

#ifdef MIOPEN_BETA_API
/*! Rounding used when converting to 8-bit floats (beta). */
typedef enum
{
    miopenF8RoundingModeStandard   = 0,
    miopenF8RoundingModeStochastic = 1,
} miopenF8RoundingMode_t;
#endif

/*! @brief Returns a static, human readable name for a status code.
 * @param error  status code
 * @return       never null; unknown codes give a generic text
 */
MIOPEN_EXPORT const char* miopenGetErrorString(miopenStatus_t error);

/*! @brief Reports the library version.
 * @param major  (output)
 * @param minor  (output)
 * @param patch  (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenGetVersion(size_t* major, size_t* minor, size_t* patch);

/*! @brief Creates a handle bound to a default (null) stream.
 * @param handle  receives the new handle (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreate(miopenHandle_t* handle);

/*! @brief Creates a handle bound to the given stream.
 * @param handle  receives the new handle (output)
 * @param stream  stream to run work on (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateWithStream(miopenHandle_t* handle,
                                                    miopenAcceleratorQueue_t stream);

/*! @brief Releases a handle created by miopenCreate or miopenCreateWithStream. */
MIOPEN_EXPORT miopenStatus_t miopenDestroy(miopenHandle_t handle);

/*! @brief Allocates memory for the library's own use.
 * @param context    what miopenSetAllocator was given (input)
 * @param sizeBytes  bytes to allocate (input)
 */
typedef void* (*miopenAllocatorFunction)(void* context, size_t sizeBytes);

/*! @brief Frees memory a miopenAllocatorFunction returned.
 * @param context  what miopenSetAllocator was given (input)
 * @param memory   what the allocator returned (input)
 */
typedef void (*miopenDeallocatorFunction)(void* context, void* memory);

/*! @brief Sets the allocator the handle obtains its internal buffers with.
 * A null allocator or deallocator restores the library's own (HIP's).
 * @param handle            the handle (input)
 * @param allocator         allocates device memory (input)
 * @param deallocator       frees what the allocator returned (input)
 * @param allocatorContext  passed to both (input)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetAllocator(miopenHandle_t handle,
                                                miopenAllocatorFunction allocator,
                                                miopenDeallocatorFunction deallocator,
                                                void* allocatorContext);

/*! @brief Rebinds the handle to another stream. */
MIOPEN_EXPORT miopenStatus_t miopenSetStream(miopenHandle_t handle,
                                             miopenAcceleratorQueue_t streamID);

/*! @brief Returns the stream the handle is bound to. */
MIOPEN_EXPORT miopenStatus_t miopenGetStream(miopenHandle_t handle,
                                             miopenAcceleratorQueue_t* streamID);

/*! @brief Time of the last operation run on the handle, in milliseconds. */
MIOPEN_EXPORT miopenStatus_t miopenGetKernelTime(miopenHandle_t handle, float* time);

/*! @brief Turns the per-call timing of miopenGetKernelTime on or off. */
MIOPEN_EXPORT miopenStatus_t miopenEnableProfiling(miopenHandle_t handle, bool enable);

/** @} */
/* end of the handle group */

/*! @ingroup fusion
 * Opaque handle to one operator of a fusion plan.
 */
MIOPEN_DECLARE_OBJECT(miopenFusionOpDescriptor);

/*! @ingroup tensor
 * Opaque tensor descriptor (type, lengths, strides).
 */
MIOPEN_DECLARE_OBJECT(miopenTensorDescriptor);

/*! @ingroup convolutions
 * Opaque convolution descriptor.
 */
MIOPEN_DECLARE_OBJECT(miopenConvolutionDescriptor);

/*! @ingroup activation
 * Opaque activation descriptor.
 */
MIOPEN_DECLARE_OBJECT(miopenActivationDescriptor);

/*! @ingroup tensor
 * @enum miopenDataType_t
 * Element types. The test bed computes with miopenHalf, miopenFloat and
 * miopenBFloat16; the others can be described but not computed on.
 */
typedef enum
{
    miopenHalf     = 0, /*!< IEEE binary16 */
    miopenFloat    = 1, /*!< IEEE binary32 */
    miopenInt32    = 2, /*!< 32-bit signed integer */
    miopenInt8     = 3, /*!< 8-bit signed integer */
    miopenBFloat16 = 5, /*!< bfloat16: 8 exponent bits, 7 fraction bits */
    miopenDouble   = 6, /*!< IEEE binary64 */
#ifdef MIOPEN_BETA_API
    miopenFloat8  = 7,
    miopenBFloat8 = 8,
#endif
    miopenInt64 = 9,
} miopenDataType_t;

/*! @ingroup tensor
 * @enum miopenTensorLayout_t
 * Memory layouts understood by miopenSetNdTensorDescriptorWithLayout.
 */
typedef enum
{
    miopenTensorNCHW   = 0,
    miopenTensorNHWC   = 1,
    miopenTensorCHWN   = 2,
    miopenTensorNCHWc4 = 3,
    miopenTensorNCHWc8 = 4,
    miopenTensorCHWNc4 = 5,
    miopenTensorCHWNc8 = 6,
    miopenTensorNCDHW  = 7,
    miopenTensorNDHWC  = 8,
} miopenTensorLayout_t;

/*! @ingroup convolutions
 * @enum miopenConvolutionMode_t
 */
typedef enum
{
    miopenConvolution = 0, /*!< cross-correlation */
    miopenTranspose   = 1, /*!< transposed convolution (not computed by the test bed) */
    miopenGroupConv   = 2, /*!< legacy alias, treated as miopenConvolution */
    miopenDepthwise   = 3, /*!< legacy alias, treated as miopenConvolution */
} miopenConvolutionMode_t;

/*! @ingroup batchnorm
 * @enum miopenBatchNormMode_t
 */
typedef enum
{
    miopenBNPerActivation = 0, /*!< per element statistics (not computed by the test bed) */
    miopenBNSpatial       = 1, /*!< per channel statistics over N and the spatial dims */
} miopenBatchNormMode_t;

/*! @ingroup activation
 * @enum miopenActivationMode_t
 * alpha/beta/gamma below are the descriptor's activAlpha/activBeta/activGamma.
 */
typedef enum
{
    miopenActivationPASTHRU     = 0, /*!< y = x */
    miopenActivationLOGISTIC    = 1, /*!< y = 1 / (1 + exp(-x)) */
    miopenActivationTANH        = 2, /*!< y = beta * tanh(alpha * x) */
    miopenActivationRELU        = 3, /*!< y = max(0, x) */
    miopenActivationSOFTRELU    = 4, /*!< y = log(1 + exp(x)) */
    miopenActivationABS         = 5, /*!< y = |x| */
    miopenActivationPOWER       = 6, /*!< y = (alpha + beta * x) ^ gamma */
    miopenActivationCLIPPEDRELU = 7, /*!< y = min(alpha, max(0, x)) */
    miopenActivationLEAKYRELU   = 8, /*!< y = x > 0 ? x : alpha * x */
    miopenActivationELU         = 9, /*!< y = x > 0 ? x : alpha * (exp(x) - 1) */
    miopenActivationCLAMP       = 10, /*!< y = min(beta, max(alpha, x)) */
} miopenActivationMode_t;

/*! @ingroup convolutions
 * @enum miopenConvolutionAttrib_t
 */
typedef enum
{
    MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL = 0, /*!< alternate fp16 path; stored only */
    MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC = 1, /*!< deterministic kernels; stored only */
#ifdef MIOPEN_BETA_API
    MIOPEN_CONVOLUTION_ATTRIB_FP8_ROUNDING_MODE = 2, /*!< fp8 rounding; stored only */
#endif
} miopenConvolutionAttrib_t;

/** @addtogroup tensor
 *
 *  @{
 */

/*! @brief Allocates an empty tensor descriptor.
 * @param tensorDesc  receives the descriptor (output)
 */
MIOPEN_EXPORT miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t* tensorDesc);

/*! @brief Describes a packed NCHW tensor. */
MIOPEN_EXPORT miopenStatus_t miopenSet4dTensorDescriptor(
    miopenTensorDescriptor_t tensorDesc, miopenDataType_t dataType, int n, int c, int h, int w);

/*! @brief Describes a packed tensor in the given layout.
 * @param lens      lengths in logical N, C, [D,] H, W order
 * @param num_lens  4 or 5
 */
MIOPEN_EXPORT miopenStatus_t
miopenSetNdTensorDescriptorWithLayout(miopenTensorDescriptor_t tensorDesc,
                                      miopenDataType_t dataType,
                                      miopenTensorLayout_t tensorLayout,
                                      const int* lens,
                                      int num_lens);

/*! @brief Describes a 4-D tensor with explicit element strides. */
MIOPEN_EXPORT miopenStatus_t miopenSet4dTensorDescriptorEx(miopenTensorDescriptor_t tensorDesc,
                                                           miopenDataType_t dataType,
                                                           int n,
                                                           int c,
                                                           int h,
                                                           int w,
                                                           int nStride,
                                                           int cStride,
                                                           int hStride,
                                                           int wStride);

/*! @brief Reads back a 4-D descriptor; fails with miopenStatusBadParm for other ranks. */
MIOPEN_EXPORT miopenStatus_t miopenGet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                         miopenDataType_t* dataType,
                                                         int* n,
                                                         int* c,
                                                         int* h,
                                                         int* w,
                                                         int* nStride,
                                                         int* cStride,
                                                         int* hStride,
                                                         int* wStride);

/*! @brief Describes an N-D tensor.
 * @param stridesA  element strides; null means packed (row-major over dimsA)
 */
MIOPEN_EXPORT miopenStatus_t miopenSetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                       miopenDataType_t dataType,
                                                       int nbDims,
                                                       const int* dimsA,
                                                       const int* stridesA);

#ifdef MIOPEN_BETA_API
/*! @brief Same as miopenSetTensorDescriptor with size_t lengths and strides. */
MIOPEN_EXPORT miopenStatus_t miopenSetTensorDescriptorV2(miopenTensorDescriptor_t tensorDesc,
                                                         miopenDataType_t dataType,
                                                         int nbDims,
                                                         const size_t* dimsA,
                                                         const size_t* stridesA);
#endif

#ifdef MIOPEN_BETA_API
/*! @brief Records the type the tensor should be cast to (stored only). */
MIOPEN_EXPORT miopenStatus_t miopenSetTensorCastType(miopenTensorDescriptor_t tensorDesc,
                                                     miopenDataType_t cast_type);
#endif

/*! @brief Number of dimensions of the descriptor. */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorDescriptorSize(miopenTensorDescriptor_t tensorDesc,
                                                           int* size);

/*! @brief Reads back type, lengths and strides (arrays sized by miopenGetTensorDescriptorSize). */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                       miopenDataType_t* dataType,
                                                       int* dimsA,
                                                       int* stridesA);

/*! @brief Frees a tensor descriptor. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t tensorDesc);

/*! @brief Bytes spanned by the tensor, strides included. */
MIOPEN_EXPORT miopenStatus_t miopenGetTensorNumBytes(miopenTensorDescriptor_t tensorDesc,
                                                     size_t* numBytes);

/** @} */
/* end of the tensor group */

/** @addtogroup convolutions
 *
 *  @{
 */

/*! @brief Allocates a convolution descriptor (2-D, no padding, unit stride/dilation). */
MIOPEN_EXPORT miopenStatus_t
miopenCreateConvolutionDescriptor(miopenConvolutionDescriptor_t* convDesc);

/*! @brief Sets up a 2-D convolution. */
MIOPEN_EXPORT miopenStatus_t miopenInitConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                             miopenConvolutionMode_t c_mode,
                                                             int pad_h,
                                                             int pad_w,
                                                             int stride_h,
                                                             int stride_w,
                                                             int dilation_h,
                                                             int dilation_w);

/*! @brief Sets up an N-D convolution (spatialDim 2 or 3 here). */
MIOPEN_EXPORT miopenStatus_t
miopenInitConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                  int spatialDim,
                                  const int* padA,
                                  const int* strideA,
                                  const int* dilationA,
                                  miopenConvolutionMode_t c_mode);

/*! @brief Number of spatial dimensions of the descriptor. */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionSpatialDim(miopenConvolutionDescriptor_t convDesc,
                                                            int* spatialDim);

/*! @brief Reads back a 2-D descriptor. */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                            miopenConvolutionMode_t* c_mode,
                                                            int* pad_h,
                                                            int* pad_w,
                                                            int* stride_h,
                                                            int* stride_w,
                                                            int* dilation_h,
                                                            int* dilation_w);

/*! @brief Reads back an N-D descriptor (up to requestedSpatialDim entries per array). */
MIOPEN_EXPORT miopenStatus_t
miopenGetConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                 int requestedSpatialDim,
                                 int* spatialDim,
                                 int* padA,
                                 int* strideA,
                                 int* dilationA,
                                 miopenConvolutionMode_t* c_mode);

/*! @brief Group count of a grouped convolution. */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                            int* groupCount);

/*! @brief Sets the group count; input and output channels must be divisible by it. */
MIOPEN_EXPORT miopenStatus_t miopenSetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                                            int groupCount);

/*! @brief Output shape of a 2-D forward convolution. */
MIOPEN_EXPORT miopenStatus_t
miopenGetConvolutionForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                     const miopenTensorDescriptor_t inputTensorDesc,
                                     const miopenTensorDescriptor_t filterDesc,
                                     int* n,
                                     int* c,
                                     int* h,
                                     int* w);

/*! @brief Output shape of an N-D forward convolution. */
MIOPEN_EXPORT miopenStatus_t
miopenGetConvolutionNdForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                       const miopenTensorDescriptor_t inputTensorDesc,
                                       const miopenTensorDescriptor_t filterDesc,
                                       int* nDim,
                                       int* outputTensorDimA);

/*! @brief Frees a convolution descriptor. */
MIOPEN_EXPORT miopenStatus_t
miopenDestroyConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc);

/*! @brief Stores an attribute value on the descriptor. */
MIOPEN_EXPORT miopenStatus_t miopenSetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                           const miopenConvolutionAttrib_t attr,
                                                           int value);

/*! @brief Reads an attribute value from the descriptor. */
MIOPEN_EXPORT miopenStatus_t miopenGetConvolutionAttribute(miopenConvolutionDescriptor_t convDesc,
                                                           const miopenConvolutionAttrib_t attr,
                                                           int* value);

/*! @enum miopenConvFwdAlgorithm_t */
typedef enum
{
    miopenConvolutionFwdAlgoGEMM         = 0,
    miopenConvolutionFwdAlgoDirect       = 1,
    miopenConvolutionFwdAlgoFFT          = 2,
    miopenConvolutionFwdAlgoWinograd     = 3,
    miopenConvolutionFwdAlgoImplicitGEMM = 5,
} miopenConvFwdAlgorithm_t;

/*! @enum miopenConvBwdWeightsAlgorithm_t */
typedef enum
{
    miopenConvolutionBwdWeightsAlgoGEMM         = 0,
    miopenConvolutionBwdWeightsAlgoDirect       = 1,
    miopenConvolutionBwdWeightsAlgoWinograd     = 3,
    miopenConvolutionBwdWeightsAlgoImplicitGEMM = 5,
} miopenConvBwdWeightsAlgorithm_t;

/*! @enum miopenConvBwdDataAlgorithm_t */
typedef enum
{
    miopenConvolutionBwdDataAlgoGEMM         = 0,
    miopenConvolutionBwdDataAlgoDirect       = 1,
    miopenConvolutionBwdDataAlgoFFT          = 2,
    miopenConvolutionBwdDataAlgoWinograd     = 3,
    miopenTransposeBwdDataAlgoGEMM           = 4,
    miopenConvolutionBwdDataAlgoImplicitGEMM = 5,
} miopenConvBwdDataAlgorithm_t;

/*! @enum miopenConvAlgorithm_t
 * Direction independent algorithm family, reported by the solution API.
 */
typedef enum
{
    miopenConvolutionAlgoGEMM         = 0,
    miopenConvolutionAlgoDirect       = 1,
    miopenConvolutionAlgoFFT          = 2,
    miopenConvolutionAlgoWinograd     = 3,
    miopenConvolutionAlgoImplicitGEMM = 5,
} miopenConvAlgorithm_t;

/*! One result of a Find*Algorithm call; the union member matches the direction searched. */
typedef struct
{
    union
    {
        miopenConvFwdAlgorithm_t fwd_algo;
        miopenConvBwdWeightsAlgorithm_t bwd_weights_algo;
        miopenConvBwdDataAlgorithm_t bwd_data_algo;
    };
    float time;    /*!< measured (or find-db recorded) time in milliseconds */
    size_t memory; /*!< workspace bytes the algorithm needs */
} miopenConvAlgoPerf_t;

/*! One applicable solution as reported by the *GetSolution calls. */
typedef struct
{
    float time;                      /*!< estimated or recorded time in milliseconds */
    size_t workspace_size;           /*!< workspace bytes the solution needs */
    uint64_t solution_id;            /*!< id accepted by the *Immediate calls */
    miopenConvAlgorithm_t algorithm; /*!< algorithm family of the solution */
} miopenConvSolution_t;

/*! @brief Upper bound of the solutions miopenConvolutionForwardGetSolution can return. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardGetSolutionCount(miopenHandle_t handle,
                                         const miopenTensorDescriptor_t wDesc,
                                         const miopenTensorDescriptor_t xDesc,
                                         const miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t yDesc,
                                         size_t* solutionCount);

/*! @brief Applicable forward solutions, best first. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardGetSolution(miopenHandle_t handle,
                                    const miopenTensorDescriptor_t wDesc,
                                    const miopenTensorDescriptor_t xDesc,
                                    const miopenConvolutionDescriptor_t convDesc,
                                    const miopenTensorDescriptor_t yDesc,
                                    const size_t maxSolutionCount,
                                    size_t* solutionCount,
                                    miopenConvSolution_t* solutions);

/*! @brief Workspace bytes a forward solution needs. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardGetSolutionWorkspaceSize(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t wDesc,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t yDesc,
                                                 const uint64_t solution_id,
                                                 size_t* workSpaceSize);

/*! @brief Prepares a forward solution (validation only in the test bed). */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardCompileSolution(miopenHandle_t handle,
                                        const miopenTensorDescriptor_t wDesc,
                                        const miopenTensorDescriptor_t xDesc,
                                        const miopenConvolutionDescriptor_t convDesc,
                                        const miopenTensorDescriptor_t yDesc,
                                        const uint64_t solution_id);

/*! @brief Runs a forward solution: y = conv(x, w). */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardImmediate(miopenHandle_t handle,
                                  const miopenTensorDescriptor_t wDesc,
                                  const void* w,
                                  const miopenTensorDescriptor_t xDesc,
                                  const void* x,
                                  const miopenConvolutionDescriptor_t convDesc,
                                  const miopenTensorDescriptor_t yDesc,
                                  void* y,
                                  void* workSpace,
                                  size_t workSpaceSize,
                                  const uint64_t solution_id);

/*! @brief Upper bound of the backward-data solutions. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataGetSolutionCount(miopenHandle_t handle,
                                              const miopenTensorDescriptor_t dyDesc,
                                              const miopenTensorDescriptor_t wDesc,
                                              const miopenConvolutionDescriptor_t convDesc,
                                              const miopenTensorDescriptor_t dxDesc,
                                              size_t* solutionCount);

/*! @brief Applicable backward-data solutions, best first. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataGetSolution(miopenHandle_t handle,
                                         const miopenTensorDescriptor_t dyDesc,
                                         const miopenTensorDescriptor_t wDesc,
                                         const miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t dxDesc,
                                         const size_t maxSolutionCount,
                                         size_t* solutionCount,
                                         miopenConvSolution_t* solutions);

/*! @brief Workspace bytes a backward-data solution needs. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataGetSolutionWorkspaceSize(miopenHandle_t handle,
                                                      const miopenTensorDescriptor_t dyDesc,
                                                      const miopenTensorDescriptor_t wDesc,
                                                      const miopenConvolutionDescriptor_t convDesc,
                                                      const miopenTensorDescriptor_t dxDesc,
                                                      const uint64_t solution_id,
                                                      size_t* workSpaceSize);

/*! @brief Prepares a backward-data solution. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataCompileSolution(miopenHandle_t handle,
                                             const miopenTensorDescriptor_t dyDesc,
                                             const miopenTensorDescriptor_t wDesc,
                                             const miopenConvolutionDescriptor_t convDesc,
                                             const miopenTensorDescriptor_t dxDesc,
                                             const uint64_t solution_id);

/*! @brief Runs a backward-data solution: dx = conv_bwd_data(dy, w). */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataImmediate(miopenHandle_t handle,
                                       const miopenTensorDescriptor_t dyDesc,
                                       const void* dy,
                                       const miopenTensorDescriptor_t wDesc,
                                       const void* w,
                                       const miopenConvolutionDescriptor_t convDesc,
                                       const miopenTensorDescriptor_t dxDesc,
                                       void* dx,
                                       void* workSpace,
                                       size_t workSpaceSize,
                                       const uint64_t solution_id);

/*! @brief Upper bound of the backward-weights solutions. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsGetSolutionCount(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t dyDesc,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t dwDesc,
                                                 size_t* solutionCount);

/*! @brief Applicable backward-weights solutions, best first. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsGetSolution(miopenHandle_t handle,
                                            const miopenTensorDescriptor_t dyDesc,
                                            const miopenTensorDescriptor_t xDesc,
                                            const miopenConvolutionDescriptor_t convDesc,
                                            const miopenTensorDescriptor_t dwDesc,
                                            const size_t maxSolutionCount,
                                            size_t* solutionCount,
                                            miopenConvSolution_t* solutions);

/*! @brief Workspace bytes a backward-weights solution needs. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(
    miopenHandle_t handle,
    const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc,
    const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc,
    const uint64_t solution_id,
    size_t* workSpaceSize);

/*! @brief Prepares a backward-weights solution. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsCompileSolution(miopenHandle_t handle,
                                                const miopenTensorDescriptor_t dyDesc,
                                                const miopenTensorDescriptor_t xDesc,
                                                const miopenConvolutionDescriptor_t convDesc,
                                                const miopenTensorDescriptor_t dwDesc,
                                                const uint64_t solution_id);

/*! @brief Runs a backward-weights solution: dw = conv_bwd_weights(dy, x). */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsImmediate(miopenHandle_t handle,
                                          const miopenTensorDescriptor_t dyDesc,
                                          const void* dy,
                                          const miopenTensorDescriptor_t xDesc,
                                          const void* x,
                                          const miopenConvolutionDescriptor_t convDesc,
                                          const miopenTensorDescriptor_t dwDesc,
                                          void* dw,
                                          void* workSpace,
                                          size_t workSpaceSize,
                                          const uint64_t solution_id);

/*! @brief Largest workspace any forward algorithm needs for this problem. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionForwardGetWorkSpaceSize(miopenHandle_t handle,
                                         const miopenTensorDescriptor_t wDesc,
                                         const miopenTensorDescriptor_t xDesc,
                                         const miopenConvolutionDescriptor_t convDesc,
                                         const miopenTensorDescriptor_t yDesc,
                                         size_t* workSpaceSize);

/*! @brief Benchmarks the forward algorithms (or reads the user find-db) and ranks them. */
MIOPEN_EXPORT miopenStatus_t
miopenFindConvolutionForwardAlgorithm(miopenHandle_t handle,
                                      const miopenTensorDescriptor_t xDesc,
                                      const void* x,
                                      const miopenTensorDescriptor_t wDesc,
                                      const void* w,
                                      const miopenConvolutionDescriptor_t convDesc,
                                      const miopenTensorDescriptor_t yDesc,
                                      void* y,
                                      const int requestAlgoCount,
                                      int* returnedAlgoCount,
                                      miopenConvAlgoPerf_t* perfResults,
                                      void* workSpace,
                                      size_t workSpaceSize,
                                      bool exhaustiveSearch);

/*! @brief y = alpha * conv(x, w) + beta * y with the given algorithm.
 * alpha and beta point to float.
 */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForward(miopenHandle_t handle,
                                                      const void* alpha,
                                                      const miopenTensorDescriptor_t xDesc,
                                                      const void* x,
                                                      const miopenTensorDescriptor_t wDesc,
                                                      const void* w,
                                                      const miopenConvolutionDescriptor_t convDesc,
                                                      miopenConvFwdAlgorithm_t algo,
                                                      const void* beta,
                                                      const miopenTensorDescriptor_t yDesc,
                                                      void* y,
                                                      void* workSpace,
                                                      size_t workSpaceSize);

/*! @brief y = alpha * b + beta * y, with b a (1, C, 1, 1) bias broadcast over y. */
MIOPEN_EXPORT miopenStatus_t miopenConvolutionForwardBias(miopenHandle_t handle,
                                                          const void* alpha,
                                                          const miopenTensorDescriptor_t bDesc,
                                                          const void* b,
                                                          const void* beta,
                                                          const miopenTensorDescriptor_t yDesc,
                                                          void* y);

/*! @brief Largest workspace any backward-data algorithm needs for this problem. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardDataGetWorkSpaceSize(miopenHandle_t handle,
                                              const miopenTensorDescriptor_t dyDesc,
                                              const miopenTensorDescriptor_t wDesc,
                                              const miopenConvolutionDescriptor_t convDesc,
                                              const miopenTensorDescriptor_t dxDesc,
                                              size_t* workSpaceSize);

/*! @brief Benchmarks the backward-data algorithms (or reads the user find-db). */
MIOPEN_EXPORT miopenStatus_t
miopenFindConvolutionBackwardDataAlgorithm(miopenHandle_t handle,
                                           const miopenTensorDescriptor_t dyDesc,
                                           const void* dy,
                                           const miopenTensorDescriptor_t wDesc,
                                           const void* w,
                                           const miopenConvolutionDescriptor_t convDesc,
                                           const miopenTensorDescriptor_t dxDesc,
                                           void* dx,
                                           const int requestAlgoCount,
                                           int* returnedAlgoCount,
                                           miopenConvAlgoPerf_t* perfResults,
                                           void* workSpace,
                                           size_t workSpaceSize,
                                           bool exhaustiveSearch);

/*! @brief dx = alpha * conv_bwd_data(dy, w) + beta * dx. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardData(miopenHandle_t handle,
                              const void* alpha,
                              const miopenTensorDescriptor_t dyDesc,
                              const void* dy,
                              const miopenTensorDescriptor_t wDesc,
                              const void* w,
                              const miopenConvolutionDescriptor_t convDesc,
                              miopenConvBwdDataAlgorithm_t algo,
                              const void* beta,
                              const miopenTensorDescriptor_t dxDesc,
                              void* dx,
                              void* workSpace,
                              size_t workSpaceSize);

/*! @brief Largest workspace any backward-weights algorithm needs for this problem. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeightsGetWorkSpaceSize(miopenHandle_t handle,
                                                 const miopenTensorDescriptor_t dyDesc,
                                                 const miopenTensorDescriptor_t xDesc,
                                                 const miopenConvolutionDescriptor_t convDesc,
                                                 const miopenTensorDescriptor_t dwDesc,
                                                 size_t* workSpaceSize);

/*! @brief Benchmarks the backward-weights algorithms (or reads the user find-db). */
MIOPEN_EXPORT miopenStatus_t
miopenFindConvolutionBackwardWeightsAlgorithm(miopenHandle_t handle,
                                              const miopenTensorDescriptor_t dyDesc,
                                              const void* dy,
                                              const miopenTensorDescriptor_t xDesc,
                                              const void* x,
                                              const miopenConvolutionDescriptor_t convDesc,
                                              const miopenTensorDescriptor_t dwDesc,
                                              void* dw,
                                              const int requestAlgoCount,
                                              int* returnedAlgoCount,
                                              miopenConvAlgoPerf_t* perfResults,
                                              void* workSpace,
                                              size_t workSpaceSize,
                                              bool exhaustiveSearch);

/*! @brief dw = alpha * conv_bwd_weights(dy, x) + beta * dw. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBackwardWeights(miopenHandle_t handle,
                                 const void* alpha,
                                 const miopenTensorDescriptor_t dyDesc,
                                 const void* dy,
                                 const miopenTensorDescriptor_t xDesc,
                                 const void* x,
                                 const miopenConvolutionDescriptor_t convDesc,
                                 miopenConvBwdWeightsAlgorithm_t algo,
                                 const void* beta,
                                 const miopenTensorDescriptor_t dwDesc,
                                 void* dw,
                                 void* workSpace,
                                 size_t workSpaceSize);

/** @} */
/* end of the convolutions group */

/** @addtogroup batchnorm
 *
 *  @{
 */

/*! @brief Shapes derivedBnDesc as the (1, C, 1, 1[, 1]) scale/bias/mean/variance tensor of xDesc. */
MIOPEN_EXPORT miopenStatus_t miopenDeriveBNTensorDescriptor(miopenTensorDescriptor_t derivedBnDesc,
                                                            const miopenTensorDescriptor_t xDesc,
                                                            miopenBatchNormMode_t bn_mode);

/*! @brief Training forward pass with one descriptor for scale, bias, mean and variance. */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationForwardTraining(miopenHandle_t handle,
                                        miopenBatchNormMode_t bn_mode,
                                        void* alpha,
                                        void* beta,
                                        const miopenTensorDescriptor_t xDesc,
                                        const void* x,
                                        const miopenTensorDescriptor_t yDesc,
                                        void* y,
                                        const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                        void* bnScale,
                                        void* bnBias,
                                        double expAvgFactor,
                                        void* resultRunningMean,
                                        void* resultRunningVariance,
                                        double epsilon,
                                        void* resultSaveMean,
                                        void* resultSaveInvVariance);

/*! @brief Training forward pass with separate descriptors for each parameter tensor. */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationForwardTraining_V2(miopenHandle_t handle,
                                           miopenBatchNormMode_t bn_mode,
                                           void* alpha,
                                           void* beta,
                                           const miopenTensorDescriptor_t xDesc,
                                           const void* x,
                                           const miopenTensorDescriptor_t yDesc,
                                           void* y,
                                           const miopenTensorDescriptor_t scaleDesc,
                                           const miopenTensorDescriptor_t biasVarDesc,
                                           const miopenTensorDescriptor_t savedMeanDesc,
                                           const miopenTensorDescriptor_t savedVarDesc,
                                           void* bnScale,
                                           void* bnBias,
                                           double expAvgFactor,
                                           void* resultRunningMean,
                                           void* resultRunningVariance,
                                           double epsilon,
                                           void* resultSaveMean,
                                           void* resultSaveInvVariance);

/*! @brief Inference forward pass with one parameter descriptor. */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationForwardInference(miopenHandle_t handle,
                                         miopenBatchNormMode_t bn_mode,
                                         void* alpha,
                                         void* beta,
                                         const miopenTensorDescriptor_t xDesc,
                                         const void* x,
                                         const miopenTensorDescriptor_t yDesc,
                                         void* y,
                                         const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
                                         void* bnScale,
                                         void* bnBias,
                                         void* estimatedMean,
                                         void* estimatedVariance,
                                         double epsilon);

/*! @brief Inference forward pass with separate parameter descriptors. */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationForwardInference_V2(miopenHandle_t handle,
                                            miopenBatchNormMode_t bn_mode,
                                            void* alpha,
                                            void* beta,
                                            const miopenTensorDescriptor_t xDesc,
                                            const void* x,
                                            const miopenTensorDescriptor_t yDesc,
                                            void* y,
                                            const miopenTensorDescriptor_t scaleDesc,
                                            const miopenTensorDescriptor_t biasDesc,
                                            const miopenTensorDescriptor_t estMeanDesc,
                                            const miopenTensorDescriptor_t estVarianceDesc,
                                            void* bnScale,
                                            void* bnBias,
                                            void* estimatedMean,
                                            void* estimatedVariance,
                                            double epsilon);

/*! @brief Inference forward pass followed by an activation (null: none), in
 * one kernel. Newer than MIOpen 3.3.0 (ROCm/rocm-libraries projects/miopen);
 * hipDNN's MIOpen provider runs its batchnorm inference + activation graph
 * with it. */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormForwardInferenceActivation(miopenHandle_t handle,
                                          miopenBatchNormMode_t bn_mode,
                                          void* alpha,
                                          void* beta,
                                          const miopenTensorDescriptor_t xDesc,
                                          const void* x,
                                          const miopenTensorDescriptor_t yDesc,
                                          void* y,
                                          const miopenTensorDescriptor_t scaleDesc,
                                          const miopenTensorDescriptor_t biasDesc,
                                          const miopenTensorDescriptor_t estMeanDesc,
                                          const miopenTensorDescriptor_t estVarianceDesc,
                                          void* bnScale,
                                          void* bnBias,
                                          void* estimatedMean,
                                          void* estimatedVariance,
                                          double epsilon,
                                          const miopenActivationDescriptor_t activDesc);

/*! @brief Backward pass with the forward's activation (null: none): the
 * batchnorm output is recomputed from x, the saved statistics, scale and
 * bias, the activation's derivative at it applied to dy, then the backward
 * pass. Newer than MIOpen 3.3.0 (ROCm/rocm-libraries projects/miopen
 * src/batch_norm_api.cpp @c0f1ee89); hipDNN's MIOpen provider runs its
 * batchnorm inference + DReLU + backward graph with it. */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormBackwardActivation(miopenHandle_t handle,
                                  miopenBatchNormMode_t bn_mode,
                                  const void* alphaDataDiff,
                                  const void* betaDataDiff,
                                  const void* alphaParamDiff,
                                  const void* betaParamDiff,
                                  const miopenTensorDescriptor_t xDesc,
                                  const void* x,
                                  const miopenTensorDescriptor_t dyDesc,
                                  const void* dy,
                                  const miopenTensorDescriptor_t dxDesc,
                                  void* dx,
                                  const miopenTensorDescriptor_t scaleDesc,
                                  const miopenTensorDescriptor_t biasDesc,
                                  const miopenTensorDescriptor_t savedMeanDesc,
                                  const miopenTensorDescriptor_t savedVarianceDesc,
                                  const void* bnScale,
                                  const void* bnBias,
                                  void* resultBnScaleDiff,
                                  void* resultBnBiasDiff,
                                  double epsilon,
                                  const void* savedMean,
                                  const void* savedInvVariance,
                                  const miopenActivationDescriptor_t activDesc);

/*! @brief Backward pass with one parameter descriptor. */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationBackward(miopenHandle_t handle,
                                 miopenBatchNormMode_t bn_mode,
                                 const void* alphaDataDiff,
                                 const void* betaDataDiff,
                                 const void* alphaParamDiff,
                                 const void* betaParamDiff,
                                 const miopenTensorDescriptor_t xDesc,
                                 const void* x,
                                 const miopenTensorDescriptor_t dyDesc,
                                 const void* dy,
                                 const miopenTensorDescriptor_t dxDesc,
                                 void* dx,
                                 const miopenTensorDescriptor_t bnScaleBiasDiffDesc,
                                 const void* bnScale,
                                 void* resultBnScaleDiff,
                                 void* resultBnBiasDiff,
                                 double epsilon,
                                 const void* savedMean,
                                 const void* savedInvVariance);

/*! @brief Backward pass with separate parameter descriptors. */
MIOPEN_EXPORT miopenStatus_t
miopenBatchNormalizationBackward_V2(miopenHandle_t handle,
                                    miopenBatchNormMode_t bn_mode,
                                    const void* alphaDataDiff,
                                    const void* betaDataDiff,
                                    const void* alphaParamDiff,
                                    const void* betaParamDiff,
                                    const miopenTensorDescriptor_t xDesc,
                                    const void* x,
                                    const miopenTensorDescriptor_t dyDesc,
                                    const void* dy,
                                    const miopenTensorDescriptor_t dxDesc,
                                    void* dx,
                                    const miopenTensorDescriptor_t scaleDesc,
                                    const miopenTensorDescriptor_t biasDesc,
                                    const miopenTensorDescriptor_t savedMeanDesc,
                                    const miopenTensorDescriptor_t savedVarDesc,
                                    const void* bnScale,
                                    void* resultBnScaleDiff,
                                    void* resultBnBiasDiff,
                                    double epsilon,
                                    const void* savedMean,
                                    const void* savedInvVariance);

/** @} */
/* end of the batchnorm group */

/** @addtogroup activation
 *
 *  @{
 */

/*! @brief Allocates an activation descriptor (PASTHRU, all parameters 0). */
MIOPEN_EXPORT miopenStatus_t
miopenCreateActivationDescriptor(miopenActivationDescriptor_t* activDesc);

/*! @brief Sets mode and parameters of an activation descriptor. */
MIOPEN_EXPORT miopenStatus_t
miopenSetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                              miopenActivationMode_t mode,
                              double activAlpha,
                              double activBeta,
                              double activGamma);

/*! @brief Reads mode and parameters back. */
MIOPEN_EXPORT miopenStatus_t
miopenGetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                              miopenActivationMode_t* mode,
                              double* activAlpha,
                              double* activBeta,
                              double* activGamma);

/*! @brief y = alpha * act(x) + beta * y. */
MIOPEN_EXPORT miopenStatus_t miopenActivationForward(miopenHandle_t handle,
                                                     const miopenActivationDescriptor_t activDesc,
                                                     const void* alpha,
                                                     const miopenTensorDescriptor_t xDesc,
                                                     const void* x,
                                                     const void* beta,
                                                     const miopenTensorDescriptor_t yDesc,
                                                     void* y);

/*! @brief dx = alpha * dy * act'(x) + beta * dx. */
MIOPEN_EXPORT miopenStatus_t miopenActivationBackward(miopenHandle_t handle,
                                                      const miopenActivationDescriptor_t activDesc,
                                                      const void* alpha,
                                                      const miopenTensorDescriptor_t yDesc,
                                                      const void* y,
                                                      const miopenTensorDescriptor_t dyDesc,
                                                      const void* dy,
                                                      const miopenTensorDescriptor_t xDesc,
                                                      const void* x,
                                                      const void* beta,
                                                      const miopenTensorDescriptor_t dxDesc,
                                                      void* dx);

/*! @brief Frees an activation descriptor. */
MIOPEN_EXPORT miopenStatus_t
miopenDestroyActivationDescriptor(miopenActivationDescriptor_t activDesc);

/** @} */
/* end of the activation group */

/*! @ingroup FUSION
 * Opaque fusion plan, operator and operator-argument handles.
 */
MIOPEN_DECLARE_OBJECT(miopenFusionPlanDescriptor);
MIOPEN_DECLARE_OBJECT(miopenOperatorDescriptor);
MIOPEN_DECLARE_OBJECT(miopenOperatorArgs);

/** @addtogroup FUSION
 *
 *  @{
 */

/*! @enum miopenFusionDirection_t */
typedef enum
{
    miopenVerticalFusion   = 0, /*!< operators applied one after the other (supported) */
    miopenHorizontalFusion = 1, /*!< not implemented */
} miopenFusionDirection_t;

/*! @brief Starts an empty plan whose first operator reads inputDesc. */
MIOPEN_EXPORT miopenStatus_t miopenCreateFusionPlan(miopenFusionPlanDescriptor_t* fusePlanDesc,
                                                    const miopenFusionDirection_t fuseDirection,
                                                    const miopenTensorDescriptor_t inputDesc);

/*! @brief Frees a plan and the operators it owns. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyFusionPlan(miopenFusionPlanDescriptor_t fusePlanDesc);

/*! @brief Checks the operator sequence; miopenStatusUnsupportedOp when it cannot be fused. */
MIOPEN_EXPORT miopenStatus_t miopenCompileFusionPlan(miopenHandle_t handle,
                                                     miopenFusionPlanDescriptor_t fusePlanDesc);

/*! @brief Returns the operator at position op_idx. */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanGetOp(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                   const int op_idx,
                                                   miopenFusionOpDescriptor_t* op);

/*! @brief Workspace the compiled plan needs for the given convolution algorithm. */
MIOPEN_EXPORT miopenStatus_t
miopenFusionPlanGetWorkSpaceSize(miopenHandle_t handle,
                                 miopenFusionPlanDescriptor_t fusePlanDesc,
                                 size_t* workSpaceSize,
                                 miopenConvFwdAlgorithm_t algo);

/*! @brief Convolution algorithms the plan can use. */
MIOPEN_EXPORT miopenStatus_t
miopenFusionPlanConvolutionGetAlgo(miopenFusionPlanDescriptor_t fusePlanDesc,
                                   const int requestAlgoCount,
                                   int* returnedAlgoCount,
                                   miopenConvFwdAlgorithm_t* returnedAlgos);

/*! @brief Picks the convolution algorithm the plan uses. */
MIOPEN_EXPORT miopenStatus_t miopenFusionPlanConvolutionSetAlgo(
    miopenFusionPlanDescriptor_t fusePlanDesc, miopenConvFwdAlgorithm_t algo);

/*! @brief Appends a forward convolution operator. */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpConvForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                       miopenFusionOpDescriptor_t* convOp,
                                                       miopenConvolutionDescriptor_t convDesc,
                                                       const miopenTensorDescriptor_t wDesc);

/*! @brief Appends a forward activation operator. */
MIOPEN_EXPORT miopenStatus_t
miopenCreateOpActivationForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                miopenFusionOpDescriptor_t* activFwdOp,
                                miopenActivationMode_t mode);

/*! @brief Appends a bias-add operator. */
MIOPEN_EXPORT miopenStatus_t miopenCreateOpBiasForward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                                       miopenFusionOpDescriptor_t* biasOp,
                                                       const miopenTensorDescriptor_t bDesc);

/*! @brief Appends a batch normalization inference operator; one descriptor
 * shapes its scale, bias, mean and variance tensors.
 */
MIOPEN_EXPORT miopenStatus_t
miopenCreateOpBatchNormInference(miopenFusionPlanDescriptor_t fusePlanDesc,
                                 miopenFusionOpDescriptor_t* bnOp,
                                 const miopenBatchNormMode_t bn_mode,
                                 const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc);

/*! @brief Allocates an (empty) argument pack for plan execution. */
/*! @brief Adds a batch normalization backward operator (the parameters' shape
 * is derived from the plan's input). */
MIOPEN_EXPORT miopenStatus_t
miopenCreateOpBatchNormBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                miopenFusionOpDescriptor_t* bnOp,
                                const miopenBatchNormMode_t bn_mode);

/*! @brief Adds an activation backward operator. */
MIOPEN_EXPORT miopenStatus_t
miopenCreateOpActivationBackward(miopenFusionPlanDescriptor_t fusePlanDesc,
                                 miopenFusionOpDescriptor_t* activBwdOp,
                                 miopenActivationMode_t mode);

MIOPEN_EXPORT miopenStatus_t miopenCreateOperatorArgs(miopenOperatorArgs_t* args);

/*! @brief Frees an argument pack. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyOperatorArgs(miopenOperatorArgs_t args);

/*! @brief Arguments of a convolution operator (alpha, beta point to float). */
MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsConvForward(miopenOperatorArgs_t args,
                                                        const miopenFusionOpDescriptor_t convOp,
                                                        const void* alpha,
                                                        const void* beta,
                                                        const void* w);

/*! @brief Arguments of an activation operator. */
MIOPEN_EXPORT miopenStatus_t
miopenSetOpArgsActivForward(miopenOperatorArgs_t args,
                            const miopenFusionOpDescriptor_t activFwdOp,
                            const void* alpha,
                            const void* beta,
                            double activAlpha,
                            double activBeta,
                            double activGamma);

/*! @brief Arguments of a batch normalization inference operator (alpha, beta unused). */
MIOPEN_EXPORT miopenStatus_t
miopenSetOpArgsBatchNormInference(miopenOperatorArgs_t args,
                                  const miopenFusionOpDescriptor_t bnOp,
                                  const void* alpha,
                                  const void* beta,
                                  const void* bnScale,
                                  const void* bnBias,
                                  const void* estimatedMean,
                                  const void* estimatedVariance,
                                  double epsilon);

/*! @brief Arguments of a bias operator. */
/*! @brief Arguments of a batch normalization backward operator (the saved
 * statistics are always used). */
MIOPEN_EXPORT miopenStatus_t
miopenSetOpArgsBatchNormBackward(miopenOperatorArgs_t args,
                                 const miopenFusionOpDescriptor_t bnBwdOp,
                                 const void* alpha,
                                 const void* beta,
                                 const void* x,
                                 const void* bnScale,
                                 const void* bnBias,
                                 void* resultBnScaleDiff,
                                 void* resultBnBiasDiff,
                                 const void* savedMean,
                                 const void* savedInvVariance);

/*! @brief Arguments of an activation backward operator. */
MIOPEN_EXPORT miopenStatus_t
miopenSetOpArgsActivBackward(miopenOperatorArgs_t args,
                             const miopenFusionOpDescriptor_t activBwdOp,
                             const void* alpha,
                             const void* beta,
                             const void* y,
                             const void* reserved,
                             double activAlpha,
                             double activBeta,
                             double activGamma);

MIOPEN_EXPORT miopenStatus_t miopenSetOpArgsBiasForward(miopenOperatorArgs_t args,
                                                        const miopenFusionOpDescriptor_t biasOp,
                                                        const void* alpha,
                                                        const void* beta,
                                                        const void* bias);

/*! @brief Runs a compiled plan from input to output; miopenExecuteFusionPlan_v2 without a workspace. */
MIOPEN_EXPORT miopenStatus_t
miopenExecuteFusionPlan(const miopenHandle_t handle,
                        const miopenFusionPlanDescriptor_t fusePlanDesc,
                        const miopenTensorDescriptor_t inputDesc,
                        const void* input,
                        const miopenTensorDescriptor_t outputDesc,
                        void* output,
                        miopenOperatorArgs_t args);

/*! @brief Runs a compiled plan with a workspace of at least
 * miopenFusionPlanGetWorkSpaceSize bytes (workspace may be null only when
 * workspaceSize is 0).
 */
MIOPEN_EXPORT miopenStatus_t
miopenExecuteFusionPlan_v2(const miopenHandle_t handle,
                           const miopenFusionPlanDescriptor_t fusePlanDesc,
                           const miopenTensorDescriptor_t inputDesc,
                           const void* input,
                           const miopenTensorDescriptor_t outputDesc,
                           void* output,
                           miopenOperatorArgs_t args,
                           void* workspace,
                           size_t workspaceSize);

/*! @brief y = act(alpha1 * conv(x, w) + alpha2 * z + bias) in one call. */
MIOPEN_EXPORT miopenStatus_t
miopenConvolutionBiasActivationForward(miopenHandle_t handle,
                                       const void* alpha1,
                                       const miopenTensorDescriptor_t xDesc,
                                       const void* x,
                                       const miopenTensorDescriptor_t wDesc,
                                       const void* w,
                                       const miopenConvolutionDescriptor_t convDesc,
                                       miopenConvFwdAlgorithm_t algo,
                                       void* workspace,
                                       size_t workspaceSizeInBytes,
                                       const void* alpha2,
                                       const miopenTensorDescriptor_t zDesc,
                                       const void* z,
                                       const miopenTensorDescriptor_t biasDesc,
                                       const void* bias,
                                       const miopenActivationDescriptor_t activationDesc,
                                       const miopenTensorDescriptor_t yDesc,
                                       void* y);

/** @} */
/* end of the FUSION group */

/** @addtogroup find2
 *
 *  @{
 */

/*! A problem for the Find 2.0 API: an operator descriptor, a direction and
 * the tensor descriptors registered under their argument ids. The test bed
 * creates convolution problems only.
 */
MIOPEN_DECLARE_OBJECT(miopenProblem);

/*! @enum miopenProblemDirection_t */
typedef enum
{
    miopenProblemDirectionForward         = 0,
    miopenProblemDirectionBackward        = 1, /*!< backward data */
    miopenProblemDirectionBackwardWeights = 2,
#ifdef MIOPEN_BETA_API
    miopenProblemDirectionInference = 4, /*!< not a convolution direction */
#endif
} miopenProblemDirection_t;

/*! @enum miopenTensorArgumentId_t
 * Names of the tensor (and scalar) arguments of problems and solutions. A
 * convolution problem uses X, W and Y in forward naming for every direction.
 */
typedef enum
{
    miopenTensorArgumentIdInvalid = 0,
    miopenTensorConvolutionX      = 1,
    miopenTensorConvolutionW      = 2,
    miopenTensorConvolutionY      = 3,

    miopenTensorMhaK                  = 4,
    miopenTensorMhaQ                  = 5,
    miopenTensorMhaV                  = 6,
    miopenTensorMhaDescaleK           = 7,
    miopenTensorMhaDescaleQ           = 8,
    miopenTensorMhaDescaleV           = 9,
    miopenTensorMhaDescaleS           = 10,
    miopenTensorMhaScaleS             = 11,
    miopenTensorMhaScaleO             = 12,
    miopenTensorMhaDropoutProbability = 13,
    miopenTensorMhaDropoutSeed        = 14,
    miopenTensorMhaDropoutOffset      = 15,
    miopenTensorMhaO                  = 16,
    miopenTensorMhaAmaxO              = 17,
    miopenTensorMhaAmaxS              = 18,
    miopenTensorMhaM                  = 19,
    miopenTensorMhaZInv               = 20,
    miopenTensorMhaDO                 = 21,
    miopenTensorMhaDescaleO           = 22,
    miopenTensorMhaDescaleDO          = 23,
    miopenTensorMhaDescaleDS          = 24,
    miopenTensorMhaScaleDS            = 25,
    miopenTensorMhaScaleDQ            = 26,
    miopenTensorMhaScaleDK            = 27,
    miopenTensorMhaScaleDV            = 28,
    miopenTensorMhaDQ                 = 29,
    miopenTensorMhaDK                 = 30,
    miopenTensorMhaDV                 = 31,
    miopenTensorMhaAmaxDQ             = 32,
    miopenTensorMhaAmaxDK             = 33,
    miopenTensorMhaAmaxDV             = 34,
    miopenTensorMhaAmaxDS             = 35,
    miopenTensorMhaBias               = 36,

#ifdef MIOPEN_BETA_API
    miopenTensorActivationX                = 37,
    miopenTensorActivationY                = 38,
    miopenTensorActivationDX               = 39,
    miopenTensorActivationDY               = 40,
    miopenTensorBiasX                      = 41,
    miopenTensorBiasY                      = 42,
    miopenTensorBias                       = 43,
    miopenTensorSoftmaxX                   = 44,
    miopenTensorSoftmaxY                   = 45,
    miopenTensorSoftmaxDX                  = 46,
    miopenTensorSoftmaxDY                  = 47,
    miopenTensorBatchnormX                 = 48,
    miopenTensorBatchnormY                 = 49,
    miopenTensorBatchnormRunningMean       = 50,
    miopenTensorBatchnormRunningVariance   = 51,
    miopenTensorBatchnormSavedMean         = 52,
    miopenTensorBatchnormSavedVariance     = 53,
    miopenTensorBatchnormScale             = 54,
    miopenTensorBatchnormScaleDiff         = 55,
    miopenTensorBatchnormEstimatedMean     = 56,
    miopenTensorBatchnormEstimatedVariance = 57,
    miopenTensorBatchnormBias              = 58,
    miopenTensorBatchnormBiasDiff          = 59,
    miopenTensorBatchnormDX                = 60,
    miopenTensorBatchnormDY                = 61,
#endif

    miopenTensorArgumentIsScalar = 1U << 31, /*!< flag: the argument is a host scalar */

    miopenTensorMhaMask = miopenTensorArgumentIsScalar | 1,
#ifdef MIOPEN_BETA_API
    miopenScalarBatchnormExpAvgFactor = miopenTensorArgumentIsScalar | 2,
    miopenScalarBatchnormEpsilon      = miopenTensorArgumentIsScalar | 3,
#endif
} miopenTensorArgumentId_t;

/*! @enum miopenFindResultsOrder_t */
typedef enum
{
    miopenFindResultsOrderByTime          = 0,
    miopenFindResultsOrderByWorkspaceSize = 1,
} miopenFindResultsOrder_t;

/*! @brief Creates a convolution problem (the descriptor is copied). */
MIOPEN_EXPORT miopenStatus_t miopenCreateConvProblem(miopenProblem_t* problem,
                                                     miopenConvolutionDescriptor_t operatorDesc,
                                                     miopenProblemDirection_t direction);

/*! @brief Frees a problem. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyProblem(miopenProblem_t problem);

/*! @brief Registers a tensor descriptor (copied) under an argument id, once per id. */
MIOPEN_EXPORT miopenStatus_t
miopenSetProblemTensorDescriptor(miopenProblem_t problem,
                                 miopenTensorArgumentId_t id,
                                 const miopenTensorDescriptor_t descriptor);

/*! Options of miopenFindSolutions. */
MIOPEN_DECLARE_OBJECT(miopenFindOptions);

/*! @brief Creates find options with the defaults (no tuning, by time, no workspace limit). */
MIOPEN_EXPORT miopenStatus_t miopenCreateFindOptions(miopenFindOptions_t* options);

/*! @brief Frees find options. */
MIOPEN_EXPORT miopenStatus_t miopenDestroyFindOptions(miopenFindOptions_t options);

/*! @brief Exhaustive search on (non-zero) or off. */
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionTuning(miopenFindOptions_t options, int value);

/*! @brief Order of the solutions miopenFindSolutions returns. */
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionResultsOrder(miopenFindOptions_t options,
                                                             miopenFindResultsOrder_t value);

/*! @brief Largest workspace the search may use (without a preallocated workspace). */
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionWorkspaceLimit(miopenFindOptions_t options,
                                                               size_t value);

/*! @brief Workspace the search uses instead of allocating one. */
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionPreallocatedWorkspace(miopenFindOptions_t options,
                                                                      void* buffer,
                                                                      size_t size);

/*! @brief Buffer the search uses for one tensor argument instead of allocating one. */
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionPreallocatedTensor(miopenFindOptions_t options,
                                                                   miopenTensorArgumentId_t id,
                                                                   void* buffer);

/*! @brief Whether found solutions carry their kernel binaries (1) or not (0). */
MIOPEN_EXPORT miopenStatus_t miopenSetFindOptionAttachBinaries(miopenFindOptions_t options,
                                                               unsigned attach);

/*! A solution of a problem: solver, workspace, time, and the problem itself. */
MIOPEN_DECLARE_OBJECT(miopenSolution);

/*! @brief Searches the problem's solutions (options may be null for the
 * defaults) and returns up to maxSolutions new solution objects, ordered as the
 * options say; numSolutions may be null.
 */
MIOPEN_EXPORT miopenStatus_t miopenFindSolutions(miopenHandle_t handle,
                                                 miopenProblem_t problem,
                                                 miopenFindOptions_t options,
                                                 miopenSolution_t* solutions,
                                                 size_t* numSolutions,
                                                 size_t maxSolutions);

/*! One argument of miopenRunSolution: its id, an optional descriptor that
 * replaces the problem's (null keeps it), and the buffer (a host pointer for
 * scalar ids).
 */
struct miopenTensorArgument_t
{
    miopenTensorArgumentId_t id;
    miopenTensorDescriptor_t* descriptor;
    void* buffer;
};
#ifndef __cplusplus
/* MIOpen's header names the struct without a typedef, which only C++
 * accepts; the test bed's C consumers need the name in C as well. */
typedef struct miopenTensorArgument_t miopenTensorArgument_t;
#endif

/*! @brief Runs a solution on the given buffers (X, W and Y are required). */
MIOPEN_EXPORT miopenStatus_t miopenRunSolution(miopenHandle_t handle,
                                               miopenSolution_t solution,
                                               size_t nInputs,
                                               const miopenTensorArgument_t* tensors,
                                               void* workspace,
                                               size_t workspaceSize);

/*! @brief Frees a solution. */
MIOPEN_EXPORT miopenStatus_t miopenDestroySolution(miopenSolution_t solution);

/*! @brief Creates a solution from the bytes miopenSaveSolution wrote. */
MIOPEN_EXPORT miopenStatus_t miopenLoadSolution(miopenSolution_t* solution,
                                                const char* data,
                                                size_t size);

/*! @brief Writes the solution's bytes (miopenGetSolutionSize of them) to data. */
MIOPEN_EXPORT miopenStatus_t miopenSaveSolution(miopenSolution_t solution, char* data);

/*! @brief Bytes miopenSaveSolution writes. */
MIOPEN_EXPORT miopenStatus_t miopenGetSolutionSize(miopenSolution_t solution, size_t* size);

/*! @brief Workspace bytes miopenRunSolution needs. */
MIOPEN_EXPORT miopenStatus_t miopenGetSolutionWorkspaceSize(miopenSolution_t solution,
                                                            size_t* workspaceSize);

/*! @brief Time the search measured (or the find-db recorded), in milliseconds. */
MIOPEN_EXPORT miopenStatus_t miopenGetSolutionTime(miopenSolution_t solution, float* time);

/*! @brief MIOpen solver id of the solution. */
MIOPEN_EXPORT miopenStatus_t miopenGetSolutionSolverId(miopenSolution_t solution,
                                                       uint64_t* solverId);

/*! @brief Algorithm family of a convolution solver id. */
MIOPEN_EXPORT miopenStatus_t miopenGetSolverIdConvAlgorithm(uint64_t solverId,
                                                            miopenConvAlgorithm_t* result);

/** @} */
/* end of the find2 group */

#ifdef __cplusplus
}
#endif

#endif /* MIOPEN_GUARD_MIOPEN_H_ */
