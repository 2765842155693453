// mini-hipdnn test-only engine plugin: claims single forward-convolution
// graphs with an fp32 output and fills the output with 42.  Used by the tests
// to check engine ordering (HIPDNN_HEUR_FALLBACK_ENGINE_ORDER) and plugin
// path overrides.  Not installed in the default plugin directory.
#include "HipdnnDataType.h"
#include "mini_hipdnn_engine_plugin.h"

#include <cstring>

namespace
{
int dummySupports(const miniHipdnnGraph_t* g)
{
    if(g->numOps != 1 || g->ops[0].kind != MINI_HIPDNN_OP_CONV_FWD)
    {
        return 0;
    }
    const auto& y = g->tensors[g->ops[0].y];
    return y.isVirtual == 0 && y.dataType == HIPDNN_DATA_FLOAT ? 1 : 0;
}

int64_t dummyWorkspace(const miniHipdnnGraph_t*, const miniHipdnnKnobs_t*, char*, size_t) { return 0; }

int dummyExecute(const miniHipdnnGraph_t* g, const miniHipdnnKnobs_t*, const miniHipdnnVariantPack_t* p, char*, size_t)
{
    const auto& y = g->tensors[g->ops[0].y];
    int64_t span = 1;
    for(int i = 0; i < y.nbDims; ++i)
    {
        span += (y.dims[i] - 1) * y.strides[i];
    }
    for(int64_t k = 0; k < p->count; ++k)
    {
        if(p->uids[k] == y.uid)
        {
            auto* out = static_cast<float*>(p->pointers[k]);
            for(int64_t i = 0; i < span; ++i)
            {
                out[i] = 42.0f;
            }
        }
    }
    return 0;
}

const miniHipdnnEnginePlugin_v1 kPlugin = {
    MINI_HIPDNN_ENGINE_PLUGIN_ABI_VERSION, "MINI_TEST_DUMMY_ENGINE", dummySupports, dummyWorkspace, dummyExecute};
} // namespace

extern "C" __attribute__((visibility("default"))) const miniHipdnnEnginePlugin_v1* hipdnnMiniEnginePlugin_v1(void)
{
    return &kPlugin;
}
