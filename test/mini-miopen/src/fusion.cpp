// Fusion plan implementation: operators are validated at compile time and
// executed one after the other through the CPU kernels, in place on the
// output buffer.
#include <miopen/fusion.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>

namespace miopen {

FusionPlanDescriptor::FusionPlanDescriptor(miopenFusionDirection_t dir, const TensorDescriptor& input)
    : direction(dir), input_desc(input)
{
    if(dir == miopenHorizontalFusion)
        MIOPEN_THROW(miopenStatusNotImplemented, "Unsupported fusion direction");
    if(dir != miopenVerticalFusion)
        MIOPEN_THROW(miopenStatusBadParm, "Invalid fusion direction");
    input.CheckSet("fusion plan input");
}

FusionOpDescriptor& FusionPlanDescriptor::AddOp(std::unique_ptr<FusionOpDescriptor> op)
{
    op->index = static_cast<int>(ops.size());
    ops.push_back(std::move(op));
    compiled = false;
    return *ops.back();
}

FusionOpDescriptor& FusionPlanDescriptor::GetOp(int idx)
{
    if(idx < 0 || static_cast<std::size_t>(idx) >= ops.size())
        MIOPEN_THROW(miopenStatusBadParm, "Operator index out of bounds");
    return *ops[idx];
}

miopenStatus_t FusionPlanDescriptor::Compile()
{
    compiled = false;
    // Supported shape: [conv] [bias] [activation], each at most once, in
    // that order, at least one operator.
    int stage = 0;
    TensorDescriptor current = input_desc;
    for(const auto& op : ops)
    {
        const int this_stage = op->kind == FusionOpKind::ConvForward   ? 1
                               : op->kind == FusionOpKind::BiasForward ? 2
                                                                       : 3;
        if(this_stage <= stage)
        {
            MIOPEN_LOG_I("unsupported operator order in fusion plan");
            return miopenStatusUnsupportedOp;
        }
        stage = this_stage;
        if(op->kind == FusionOpKind::ConvForward)
        {
            current = op->conv.GetForwardOutputTensor(current, op->tensor);
            (void)op->conv.GetParams();
        }
        else if(op->kind == FusionOpKind::BiasForward)
        {
            const auto& b = op->tensor.GetLengths();
            const auto& y = current.GetLengths();
            bool ok = b.size() == y.size() && b[0] == 1 && b[1] == y[1];
            for(std::size_t i = 2; ok && i < b.size(); ++i)
                ok = b[i] == 1;
            if(!ok)
                MIOPEN_THROW(miopenStatusBadParm, "Bias tensor does not match the fused output");
        }
    }
    if(ops.empty())
        return miopenStatusUnsupportedOp;
    (void)ToCpuType(current.GetType());
    output_desc = current;
    compiled    = true;
    return miopenStatusSuccess;
}

std::vector<miopenConvFwdAlgorithm_t> FusionPlanDescriptor::GetConvAlgos() const
{
    return {miopenConvolutionFwdAlgoDirect};
}

void FusionPlanDescriptor::SetConvAlgo(miopenConvFwdAlgorithm_t algo)
{
    switch(algo)
    {
    case miopenConvolutionFwdAlgoDirect: conv_algo = algo; return;
    case miopenConvolutionFwdAlgoGEMM:
    case miopenConvolutionFwdAlgoFFT:
    case miopenConvolutionFwdAlgoWinograd:
    case miopenConvolutionFwdAlgoImplicitGEMM:
        MIOPEN_THROW(miopenStatusNotImplemented, "Only the direct algorithm is fused");
    }
    MIOPEN_THROW(miopenStatusBadParm, "Invalid convolution algorithm");
}

std::size_t FusionPlanDescriptor::GetWorkspaceSize(miopenConvFwdAlgorithm_t algo) const
{
    if(!compiled)
        MIOPEN_THROW(miopenStatusBadParm, "The Fusion Plan was not compiled successfully");
    // The direct fused path runs without a workspace.
    if(algo != miopenConvolutionFwdAlgoDirect)
        MIOPEN_THROW(miopenStatusNotImplemented, "Only the direct algorithm is fused");
    return 0;
}

void FusionPlanDescriptor::Execute(Handle& handle,
                                   const TensorDescriptor& in_desc,
                                   const void* input,
                                   const TensorDescriptor& out_desc,
                                   void* output,
                                   const OperatorArgs& args) const
{
    if(!compiled)
        MIOPEN_THROW(miopenStatusBadParm, "The Fusion Plan was not compiled successfully");
    if(out_desc.GetLengths() != output_desc.GetLengths() || out_desc.GetType() != output_desc.GetType())
        MIOPEN_THROW(miopenStatusBadParm, "The output descriptors dont match.");
    if(in_desc != input_desc)
        MIOPEN_THROW(miopenStatusBadParm, "The input descriptors dont match.");
    if(input == nullptr || output == nullptr)
        MIOPEN_THROW(miopenStatusBadParm, "Buffers cannot be NULL");

    auto get_args = [&](const FusionOpDescriptor& op) -> const FusionOpArgs& {
        const auto it = args.args.find(&op);
        if(it == args.args.end())
            MIOPEN_THROW(miopenStatusBadParm,
                         "No arguments set for fusion operator " + std::to_string(op.index));
        return it->second;
    };

    OperationTimer timer(handle);
    const auto out_view = out_desc.View(output);
    bool have_output    = false;
    for(const auto& op : ops)
    {
        const auto& a = get_args(*op);
        switch(op->kind)
        {
        case FusionOpKind::ConvForward:
            if(a.data == nullptr)
                MIOPEN_THROW(miopenStatusBadParm, "Null convolution weights");
            cpu::conv_forward(op->conv.GetParams(), in_desc.View(input), op->tensor.View(a.data),
                              out_view, a.alpha, a.beta);
            break;
        case FusionOpKind::BiasForward:
            if(a.data == nullptr)
                MIOPEN_THROW(miopenStatusBadParm, "Null bias");
            if(!have_output)
            {
                // No convolution in front: start from a copy of the input.
                cpu::activation_forward({cpu::ActivationMode::PassThru, 0, 0, 0},
                                        in_desc.View(input), out_view, 1.0f, 0.0f);
            }
            cpu::bias_forward(op->tensor.View(a.data), out_view, 1.0f, 1.0f);
            break;
        case FusionOpKind::ActivForward: {
            const cpu::ActivationParams p{
                ToCpuActivationMode(op->activ_mode), a.activ_alpha, a.activ_beta, a.activ_gamma};
            const auto src = have_output ? out_view : in_desc.View(input);
            cpu::activation_forward(p, src, out_view, 1.0f, 0.0f);
            break;
        }
        }
        have_output = true;
    }
}

} // namespace miopen
