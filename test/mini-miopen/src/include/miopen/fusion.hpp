// Fusion plans: an ordered list of operators (convolution, bias, batchnorm
// inference, activation) applied vertically to one input, the per-execution
// argument pack, and the fused solver a compiled plan runs with.
//
// MIOpen's behaviour this follows (docs: test/mini-miopen/README.md, "Fusion
// plans"): an operator's input is the previous operator's output, derived when
// it is added; a plan compiles only when a fused solver takes its operator
// sequence; arguments are stored per operator index, not per operator object.
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

struct Handle;
struct FusedSolver;

enum class FusionOpKind
{
    ConvForward,
    BiasForward,
    ActivForward,
    BatchNormInference,
    // Backward: the plan's input is dy and its output dx.
    BatchNormBwdTrain,
    ActivBackward,
    // Not created through the API: the z addition of the plan that
    // miopenConvolutionBiasActivationForward builds (its output is z's descriptor).
    TensorScaleAdd,
};

struct FusionOpDescriptor : miopenFusionOpDescriptor
{
    FusionOpKind kind = FusionOpKind::ConvForward;
    int index         = 0;     // position in the plan
    TensorDescriptor input;    // the plan input or the previous operator's output
    ConvolutionDescriptor conv; // ConvForward
    // Weights (ConvForward), bias (BiasForward), the scale/bias/mean/variance
    // shape (BatchNormInference) or z (TensorScaleAdd).
    TensorDescriptor tensor;
    miopenActivationMode_t activ_mode = miopenActivationPASTHRU; // ActivForward
    miopenBatchNormMode_t bn_mode     = miopenBNSpatial;         // BatchNormInference

    // What the operator produces from `input`; only a convolution changes the
    // shape. A failure is reported as a status, as MIOpen's operators do.
    miopenStatus_t GetOutputDesc(TensorDescriptor& out) const;
};

// Arguments of one operator for one execution.
struct FusionOpArgs
{
    FusionOpKind kind = FusionOpKind::ConvForward; // of the operator they were set for
    float alpha       = 1.0f; // stored; the fused kernels do not scale
    float beta        = 0.0f;
    const void* data  = nullptr; // weights or bias
    double activ_alpha = 0.0;
    double activ_beta  = 0.0;
    double activ_gamma = 0.0;
    const void* bn_scale = nullptr;
    const void* bn_bias  = nullptr;
    const void* bn_mean  = nullptr;
    const void* bn_var   = nullptr;
    double bn_epsilon    = 0.0;
    // BatchNormBwdTrain: x, the parameter gradients' outputs, the saved
    // statistics (bn_mean, bn_var hold the saved mean and inverse variance).
    const void* bn_x  = nullptr;
    void* bn_dscale   = nullptr;
    void* bn_dbias    = nullptr;
    // ActivBackward: the activation's output (read by the modes whose
    // derivative uses it; RELU's does not).
    const void* activ_y = nullptr;
};

// Keyed by operator index, so one pack serves any plan whose operators sit at
// the same positions.
struct OperatorArgs : miopenOperatorArgs
{
    std::map<int, FusionOpArgs> args;
};

struct FusionPlanDescriptor : miopenFusionPlanDescriptor
{
    FusionPlanDescriptor(miopenFusionDirection_t dir, const TensorDescriptor& input);

    // Takes the operator, derives its input and output; a failed derivation
    // returns that status and leaves the operator out of the plan.
    miopenStatus_t AddOp(std::unique_ptr<FusionOpDescriptor> op);
    const FusionOpDescriptor& GetOp(int idx) const;
    // First applicable fused solver, else miopenStatusUnsupportedOp.
    miopenStatus_t Compile();
    std::size_t GetWorkspaceSize() const;
    void Execute(Handle& handle,
                 const TensorDescriptor& input_desc,
                 const void* input,
                 const TensorDescriptor& output_desc,
                 void* output,
                 const OperatorArgs& args,
                 void* workspace,
                 std::size_t workspace_size) const;
    std::vector<miopenConvFwdAlgorithm_t> GetConvAlgos() const;
    void SetConvAlgo(miopenConvFwdAlgorithm_t algo) { conv_algo = algo; }

    // First operator of the kind, or null.
    const FusionOpDescriptor* Find(FusionOpKind kind) const;

    miopenFusionDirection_t direction;
    TensorDescriptor input_desc;
    TensorDescriptor output_desc; // output of the last operator added
    std::vector<std::unique_ptr<FusionOpDescriptor>> ops;
    // Operators whose AddOp failed: MIOpen has already handed their address to
    // the caller, so they stay alive (outside the plan) until the plan goes.
    std::vector<std::unique_ptr<FusionOpDescriptor>> rejected_ops;
    const FusedSolver* compiled_solver = nullptr;
    // Recorded and reported back; MIOpen's compile does not filter on it.
    miopenConvFwdAlgorithm_t conv_algo = miopenConvolutionFwdAlgoDirect;
};

struct ActivationDescriptor;

// miopenConvolutionBiasActivationForward as MIOpen runs it: a fusion plan of
// conv -> z addition -> bias -> activation, compiled and executed; returns
// the first failing step's status (MIOpen's MIOPEN_CHECK), throws for an
// activation other than RELU.
miopenStatus_t ConvBiasActivFusion(Handle& handle,
                                   const void* alpha1,
                                   const TensorDescriptor& xDesc,
                                   const void* x,
                                   const TensorDescriptor& wDesc,
                                   const void* w,
                                   const ConvolutionDescriptor& conv,
                                   miopenConvFwdAlgorithm_t algo,
                                   void* workspace,
                                   std::size_t workspace_size,
                                   const void* alpha2,
                                   const TensorDescriptor& zDesc,
                                   const void* z,
                                   const TensorDescriptor& biasDesc,
                                   const void* bias,
                                   const ActivationDescriptor& activ,
                                   const TensorDescriptor& yDesc,
                                   void* y);

} // namespace miopen

MIOPEN_DEFINE_OBJECT(miopenFusionOpDescriptor, miopen::FusionOpDescriptor)
MIOPEN_DEFINE_OBJECT(miopenOperatorArgs, miopen::OperatorArgs)
MIOPEN_DEFINE_OBJECT(miopenFusionPlanDescriptor, miopen::FusionPlanDescriptor)
