/*
 * mini-hipdnn engine plugin ABI, version 6 (3, 4: more operation kinds; 5: the engine config's knob
 * settings reach workspaceSize and execute; 6: an op folder's operation in generic slots, its kind its
 * descriptor type).
 *
 * This ABI is OURS (the test bed's), not hipDNN's: hipDNN's real plugin SDK
 * is a large C++ interface.  A plugin is a shared library exporting
 *
 *     const miniHipdnnEnginePlugin_v1* hipdnnMiniEnginePlugin_v1(void);
 *
 * The backend hands every engine a flattened, already validated operation
 * graph (tensors + operations), asks whether it supports it, how much
 * workspace it needs, and finally executes it with host pointers.
 */
#ifndef MINI_HIPDNN_ENGINE_PLUGIN_H
#define MINI_HIPDNN_ENGINE_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

#define MINI_HIPDNN_ENGINE_PLUGIN_ABI_VERSION 6u
#define MINI_HIPDNN_MAX_DIMS 8
#define MINI_HIPDNN_MAX_SPATIAL 6
#define MINI_HIPDNN_OP_SLOTS 12
#define MINI_HIPDNN_OP_SCALARS 4
#define MINI_HIPDNN_OP_FLAGS 4

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
    int64_t uid;
    int32_t dataType;   /* hipdnnDataType_t value */
    int32_t isVirtual;  /* 1: intermediate, no user pointer */
    int32_t nbDims;
    int64_t dims[MINI_HIPDNN_MAX_DIMS];
    int64_t strides[MINI_HIPDNN_MAX_DIMS]; /* in elements */
} miniHipdnnTensor_t;

/* The kinds of the shared operations. An op folder's operation
 * (test/mini-hipdnn/ops/<op>/) has its hipDNN operation descriptor type as
 * its kind (15 and above), named in its folder's header
 * (ops/<op>/include/mini_hipdnn_<op>.h). */
typedef enum
{
    MINI_HIPDNN_OP_CONV_FWD = 1,        /* x (in), w (in)  -> y (out)  */
    MINI_HIPDNN_OP_CONV_BWD_DATA = 2,   /* dy (in), w (in) -> dx (out) */
    MINI_HIPDNN_OP_CONV_BWD_FILTER = 3, /* x (in), dy (in) -> dw (out) */
    MINI_HIPDNN_OP_POINTWISE = 4        /* in0 [, in1] -> out0         */
} miniHipdnnOpKind_t;

typedef struct
{
    int32_t kind;        /* miniHipdnnOpKind_t */
    int32_t computeType; /* hipdnnDataType_t */

    /* convolution: indices into miniHipdnnGraph_t::tensors */
    int32_t x, w, y;     /* CONV_FWD: x,w,y; BWD_DATA: x=dx,w,y=dy; BWD_FILTER: x,w=dw,y=dy */
    int32_t convMode;    /* hipdnnConvolutionMode_t */
    int32_t spatialDims;
    int64_t prePad[MINI_HIPDNN_MAX_SPATIAL];
    int64_t postPad[MINI_HIPDNN_MAX_SPATIAL];
    int64_t stride[MINI_HIPDNN_MAX_SPATIAL];
    int64_t dilation[MINI_HIPDNN_MAX_SPATIAL];

    /* pointwise */
    int32_t pwMode;      /* hipdnnPointwiseMode_t */
    int32_t in0, in1, out0; /* in1 = -1 when unused */
    int32_t hasLowerClip, hasUpperClip;
    float lowerClip, upperClip;

    /* an op folder's operation (x, w, y, in0, in1, out0 are -1): tensor
     * indices (-1: not set), scalars and flags, each slot's meaning given by
     * its folder's header */
    int32_t slot[MINI_HIPDNN_OP_SLOTS];
    double scalar[MINI_HIPDNN_OP_SCALARS];
    int32_t flag[MINI_HIPDNN_OP_FLAGS];
} miniHipdnnOp_t;

typedef struct
{
    int32_t numTensors;
    const miniHipdnnTensor_t* tensors;
    int32_t numOps;
    const miniHipdnnOp_t* ops; /* in the order the user listed them */
} miniHipdnnGraph_t;

typedef struct
{
    int64_t count;
    const int64_t* uids;
    void* const* pointers; /* host memory in the test bed */
    void* workspace;
    int64_t workspaceSize;
    void* stream; /* the handle's stream, opaque */
} miniHipdnnVariantPack_t;

/* One knob setting of the engine config (a KNOB_CHOICE descriptor: the knob's
 * id, e.g. "global.benchmarking", and its value; the test bed takes INT64
 * values only). An engine reads the knobs it has by id and ignores the rest,
 * as hipDNN's engines read their settings by name. */
typedef struct
{
    const char* id;
    int64_t value;
} miniHipdnnKnobSetting_t;

typedef struct
{
    int32_t count;
    const miniHipdnnKnobSetting_t* settings; /* valid for the call */
} miniHipdnnKnobs_t;

typedef struct
{
    uint32_t abiVersion; /* MINI_HIPDNN_ENGINE_PLUGIN_ABI_VERSION */
    const char* name;    /* unique engine name; the backend derives the engine id from it, as hipDNN does */
    /* 1 if the engine can run the graph, 0 otherwise */
    int (*supports)(const miniHipdnnGraph_t* graph);
    /* bytes of workspace the engine needs for the graph under the knobs (>= 0);
     * < 0 when it cannot run the graph so configured, with the reason in err
     * (errLen bytes; the engine config's finalize then fails) */
    int64_t (*workspaceSize)(const miniHipdnnGraph_t* graph, const miniHipdnnKnobs_t* knobs, char* err, size_t errLen);
    /* 0 on success; otherwise writes a message into err (errLen bytes) */
    int (*execute)(const miniHipdnnGraph_t* graph,
                   const miniHipdnnKnobs_t* knobs,
                   const miniHipdnnVariantPack_t* pack,
                   char* err,
                   size_t errLen);
} miniHipdnnEnginePlugin_v1;

typedef const miniHipdnnEnginePlugin_v1* (*miniHipdnnEnginePluginEntry_v1)(void);

#define MINI_HIPDNN_ENGINE_PLUGIN_ENTRY "hipdnnMiniEnginePlugin_v1"

#ifdef __cplusplus
}
#endif

#endif /* MINI_HIPDNN_ENGINE_PLUGIN_H */
