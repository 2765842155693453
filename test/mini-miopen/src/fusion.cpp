// Fusion plan implementation: operators are chained when added, a fused
// solver is chosen at compile time, and execution runs the CPU kernels in
// the fixed order every fused kernel has (convolution, bias, batchnorm,
// activation), in place on the output buffer.
#include <miopen/batch_norm.hpp>
#include <miopen/fusion.hpp>
#include <miopen/fusion_solvers.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>

namespace miopen {

miopenStatus_t FusionOpDescriptor::GetOutputDesc(TensorDescriptor& out) const
{
    if(kind != FusionOpKind::ConvForward)
    {
        out = input;
        return miopenStatusSuccess;
    }
    return try_([&] { out = conv.GetForwardOutputTensor(input, tensor); });
}

// MIOpen takes any direction here; only the (unused) output derivation of a
// horizontal plan would refuse it.
FusionPlanDescriptor::FusionPlanDescriptor(miopenFusionDirection_t dir,
                                           const TensorDescriptor& input)
    : direction(dir), input_desc(input)
{
}

miopenStatus_t FusionPlanDescriptor::AddOp(std::unique_ptr<FusionOpDescriptor> op)
{
    op->index = static_cast<int>(ops.size());
    op->input = ops.empty() ? input_desc : output_desc;
    const auto status = op->GetOutputDesc(output_desc);
    if(status != miopenStatusSuccess)
    {
        rejected_ops.push_back(std::move(op));
        return status;
    }
    ops.push_back(std::move(op));
    return miopenStatusSuccess;
}

const FusionOpDescriptor& FusionPlanDescriptor::GetOp(int idx) const
{
    // MIOpen compares the int index with the unsigned operator count, so a
    // negative index is out of bounds too.
    if(static_cast<std::size_t>(idx) >= ops.size())
        MIOPEN_THROW(miopenStatusBadParm, "Operator index out of bounds");
    return *ops[static_cast<std::size_t>(idx)];
}

const FusionOpDescriptor* FusionPlanDescriptor::Find(FusionOpKind kind) const
{
    for(const auto& op : ops)
        if(op->kind == kind)
            return op.get();
    return nullptr;
}

miopenStatus_t FusionPlanDescriptor::Compile()
{
    compiled_solver = nullptr;
    if(ops.empty())
        MIOPEN_THROW("No operators added to fusion plan");
    for(const auto& s : GetFusedSolvers())
    {
        if(s.is_applicable(*this))
        {
            MIOPEN_LOG_I2("fusion plan compiled with " << s.name << " (id " << s.id << ")");
            compiled_solver = &s;
            return miopenStatusSuccess;
        }
    }
    MIOPEN_LOG_I("No supported fusion solvers found");
    return miopenStatusUnsupportedOp;
}

std::vector<miopenConvFwdAlgorithm_t> FusionPlanDescriptor::GetConvAlgos() const
{
    return {miopenConvolutionFwdAlgoDirect, miopenConvolutionFwdAlgoWinograd};
}

// None of the test bed's fused solvers needs a workspace. Before compiling,
// MIOpen asks every applicable fused solver (its IsApplicable rejects an
// empty plan by throwing).
std::size_t FusionPlanDescriptor::GetWorkspaceSize() const
{
    if(compiled_solver == nullptr && ops.empty())
        MIOPEN_THROW("No operators added to fusion plan");
    return 0;
}

namespace {

const FusionOpArgs& ArgsOf(const OperatorArgs& args, const FusionOpDescriptor& op)
{
    const auto it = args.args.find(op.index);
    // MIOpen indexes its argument vector without a check here.
    if(it == args.args.end())
        MIOPEN_THROW(miopenStatusBadParm,
                     "No arguments set for fusion operator " + std::to_string(op.index));
    // MIOpen's dynamic_cast of the stored arguments fails (std::bad_cast).
    if(it->second.kind != op.kind)
        MIOPEN_THROW("Arguments of another operator kind at index " + std::to_string(op.index));
    return it->second;
}

void RunBias(const FusionOpDescriptor& op, const FusionOpArgs& a, const cpu::TensorView& y)
{
    if(a.data == nullptr)
        MIOPEN_THROW(miopenStatusBadParm, "Null bias");
    // MIOpen's kernels read C values whatever the descriptor says; the CPU
    // kernel needs the broadcastable (1, C, 1, 1) shape.
    const auto& b = op.tensor.GetLengths();
    const auto& o = op.input.GetLengths();
    bool ok = b.size() == o.size() && b[0] == 1 && b[1] == o[1];
    for(std::size_t i = 2; ok && i < b.size(); ++i)
        ok = b[i] == 1;
    if(!ok)
        MIOPEN_THROW(miopenStatusBadParm, "Bias tensor does not match the fused output");
    cpu::bias_forward(op.tensor.View(a.data), y, 1.0f, 1.0f);
}

void RunBatchNorm(const FusionOpDescriptor& op,
                  const FusionOpArgs& a,
                  const cpu::TensorView& x,
                  const cpu::TensorView& y)
{
    CheckBatchNormArgs(op.bn_mode, op.input, op.input, {&op.tensor});
    for(const auto* p : {a.bn_scale, a.bn_bias, a.bn_mean, a.bn_var})
        if(p == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Null batch normalization parameter");
    cpu::batchnorm_spatial_inference(x, y, op.tensor.View(a.bn_scale), op.tensor.View(a.bn_bias),
                                     op.tensor.View(a.bn_mean), op.tensor.View(a.bn_var),
                                     a.bn_epsilon, 1.0f, 0.0f);
}

} // namespace

void FusionPlanDescriptor::Execute(Handle& handle,
                                   const TensorDescriptor& in_desc,
                                   const void* input,
                                   const TensorDescriptor& out_desc,
                                   void* output,
                                   const OperatorArgs& args,
                                   void* /*workspace*/,
                                   std::size_t workspace_size) const
{
    if(out_desc != output_desc)
        MIOPEN_THROW(miopenStatusBadParm, "The output descriptors dont match.");
    if(in_desc != input_desc)
        MIOPEN_THROW(miopenStatusBadParm, "The input descriptors dont match.");
    if(compiled_solver == nullptr)
        MIOPEN_THROW(miopenStatusBadParm, "The Fusion Plan was not compiled successfully");
    const auto required = GetWorkspaceSize();
    if(required > workspace_size)
        MIOPEN_THROW(miopenStatusBadParm,
                     "The provided workspace size is less than required. Req:" +
                         std::to_string(required) + " Given:" + std::to_string(workspace_size));
    // MIOpen hands null buffers to the kernel.
    if(input == nullptr || output == nullptr)
        MIOPEN_THROW(miopenStatusBadParm, "Buffers cannot be NULL");

    OperationTimer timer(handle);
    const auto y = out_desc.View(output);
    auto source  = in_desc.View(input);
    if(const auto* conv = Find(FusionOpKind::ConvForward))
    {
        const auto& a = ArgsOf(args, *conv);
        if(a.data == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Null convolution weights");
        // The fused kernels ignore the convolution's alpha and beta.
        cpu::conv_forward(conv->conv.GetParams(), source, conv->tensor.View(a.data), y, 1.0f, 0.0f);
        source = y;
    }
    if(const auto* bias = Find(FusionOpKind::BiasForward))
        RunBias(*bias, ArgsOf(args, *bias), y);
    if(const auto* bn = Find(FusionOpKind::BatchNormInference))
    {
        RunBatchNorm(*bn, ArgsOf(args, *bn), source, y);
        source = y;
    }
    if(const auto* activ = Find(FusionOpKind::ActivForward))
    {
        const auto& a = ArgsOf(args, *activ);
        const cpu::ActivationParams p{
            ToCpuActivationMode(activ->activ_mode), a.activ_alpha, a.activ_beta, a.activ_gamma};
        cpu::activation_forward(p, source, y, 1.0f, 0.0f);
    }
}

} // namespace miopen
