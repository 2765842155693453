// Fusion plans: an ordered list of operators (convolution, bias, activation)
// applied vertically to one input, plus the per-execution argument pack.
#pragma once

#include <miopen/miopen.h>
#include <miopen/object.hpp>
#include <miopen/activ.hpp>
#include <miopen/convolution.hpp>
#include <miopen/tensor.hpp>

#include <map>
#include <memory>
#include <vector>

namespace miopen {

enum class FusionOpKind
{
    ConvForward,
    BiasForward,
    ActivForward,
};

struct FusionOpDescriptor : miopenFusionOpDescriptor
{
    FusionOpKind kind;
    int index = 0;                  // position in the plan
    ConvolutionDescriptor conv;     // ConvForward
    TensorDescriptor tensor;        // weights (ConvForward) or bias (BiasForward)
    miopenActivationMode_t activ_mode = miopenActivationPASTHRU; // ActivForward
};

// Arguments of one operator for one execution.
struct FusionOpArgs
{
    float alpha       = 1.0f;
    float beta        = 0.0f;
    const void* data  = nullptr; // weights or bias
    double activ_alpha = 0.0;
    double activ_beta  = 0.0;
    double activ_gamma = 0.0;
};

struct OperatorArgs : miopenOperatorArgs
{
    std::map<const FusionOpDescriptor*, FusionOpArgs> args;
};

struct FusionPlanDescriptor : miopenFusionPlanDescriptor
{
    FusionPlanDescriptor(miopenFusionDirection_t dir, const TensorDescriptor& input);

    FusionOpDescriptor& AddOp(std::unique_ptr<FusionOpDescriptor> op);
    FusionOpDescriptor& GetOp(int idx);
    // Checks the sequence; returns miopenStatusUnsupportedOp when it cannot be run fused.
    miopenStatus_t Compile();
    void Execute(Handle& handle,
                 const TensorDescriptor& input_desc,
                 const void* input,
                 const TensorDescriptor& output_desc,
                 void* output,
                 const OperatorArgs& args) const;
    std::vector<miopenConvFwdAlgorithm_t> GetConvAlgos() const;
    void SetConvAlgo(miopenConvFwdAlgorithm_t algo);
    std::size_t GetWorkspaceSize(miopenConvFwdAlgorithm_t algo) const;

    miopenFusionDirection_t direction;
    TensorDescriptor input_desc;
    TensorDescriptor output_desc; // known after Compile
    std::vector<std::unique_ptr<FusionOpDescriptor>> ops;
    bool compiled                      = false;
    miopenConvFwdAlgorithm_t conv_algo = miopenConvolutionFwdAlgoDirect;
};

} // namespace miopen

MIOPEN_DEFINE_OBJECT(miopenFusionOpDescriptor, miopen::FusionOpDescriptor)
MIOPEN_DEFINE_OBJECT(miopenOperatorArgs, miopen::OperatorArgs)
MIOPEN_DEFINE_OBJECT(miopenFusionPlanDescriptor, miopen::FusionPlanDescriptor)
