// The MIOpen provider's batchnorm plans. Inference (with variance): one
// operation of kind MINI_HIPDNN_OP_BN_INFERENCE, run by MIOpen Private's
// miopenBatchNormalizationForwardInference_V2_impl with the provider's fixed
// arguments (spatial mode, alpha 1, beta 0; hipDNN's provider,
// MiopenBatchnormFwdInferenceWithVariancePlan.cpp). Training and backward:
// bn_pass_plans.cpp.
#pragma once

#include "mini_hipdnn_batchnorm.h"
#include "mini_hipdnn_engine_plugin.h"

#include <string>

namespace bn_plan
{

// Whether the graph is one batchnorm operation (inference, training or
// backward) the provider's applicability checks accept; `why` says what
// declined it.
bool matches(const miniHipdnnGraph_t& g, std::string& why);

// Runs it; false with `error` set on failure.
bool execute(const miniHipdnnGraph_t& g, const miniHipdnnVariantPack_t* pack, std::string& error);

// The training and backward plans (bn_pass_plans.cpp).
bool matchesPass(const miniHipdnnGraph_t& g, std::string& why);
bool executePass(const miniHipdnnGraph_t& g, const miniHipdnnVariantPack_t* pack, std::string& error);

} // namespace bn_plan
