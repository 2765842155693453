// mini-hipdnn test-only plugin with a wrong ABI version: the backend must skip it.
#include "mini_hipdnn_engine_plugin.h"

namespace
{
int badSupports(const miniHipdnnGraph_t*) { return 1; }
int64_t badWorkspace(const miniHipdnnGraph_t*, const miniHipdnnKnobs_t*, char*, size_t) { return 0; }
int badExecute(const miniHipdnnGraph_t*, const miniHipdnnKnobs_t*, const miniHipdnnVariantPack_t*, char*, size_t)
{
    return 1;
}
const miniHipdnnEnginePlugin_v1 kPlugin = {99u, "MINI_TEST_BAD_ABI_ENGINE", badSupports, badWorkspace, badExecute};
} // namespace

extern "C" __attribute__((visibility("default"))) const miniHipdnnEnginePlugin_v1* hipdnnMiniEnginePlugin_v1(void)
{
    return &kPlugin;
}
