// The MIOpenDriver line MIOpen logs for a fusion plan's execution under
// MIOPEN_ENABLE_LOGGING_CMD (README.md, "Fusion plans", cites the sources):
// the plan's operator sequence picks a fusion mode, the mode a driver
// sub-command, and a convolution plan's shape follows as in a convolution's
// line without its driver name, -m, -F and -t. Sequences MIOpen has no mode
// or no sub-command for log an error instead (or besides).
#include <miopen/driver_arguments.hpp>
#include <miopen/fusion.hpp>
#include <miopen/logger.hpp>

#include <initializer_list>
#include <string>

namespace miopen {
namespace debug {

namespace {

bool KindsAre(const FusionPlanDescriptor& plan, std::initializer_list<FusionOpKind> kinds)
{
    if(plan.ops.size() != kinds.size())
        return false;
    auto op = plan.ops.begin();
    for(auto kind : kinds)
        if((*op++)->kind != kind)
            return false;
    return true;
}

// MIOpen's suffix of a driver sub-command after the input's type.
std::string WithTypeSuffix(const std::string& prefix, miopenDataType_t type)
{
    switch(type)
    {
    case miopenHalf: return prefix + "fp16";
    case miopenBFloat16: return prefix + "bfp16";
    case miopenInt8: return prefix + "int8";
    default: return prefix;
    }
}

std::string LogCmdConvolutionFusion(const FusionPlanDescriptor& plan, int fusion_mode)
{
    const auto& conv = *plan.ops.front();
    std::string prefix;
    // MIOpenDriver has CBAInfer and CAInfer only; MIOpen's line for any other
    // convolution mode keeps an empty sub-command.
    switch(fusion_mode)
    {
    case 4: prefix = "CBAInfer"; break;
    case 5: prefix = "CAInfer"; break;
    default: MIOPEN_LOG_E("Unknown fusion plan : " << fusion_mode);
    }
    return WithTypeSuffix(prefix, plan.input_desc.GetType()) + " -J " + std::to_string(fusion_mode) +
           ConvArgsForMIOpenDriver(plan.input_desc, conv.tensor, conv.conv, plan.output_desc,
                                   DriverConvDirection::Fwd, std::nullopt, false);
}

std::string LogCmdBnormFusion(const FusionPlanDescriptor& plan, int fusion_mode)
{
    const auto& bn = *plan.ops.front();
    // MIOpen tests the plan's type for bf16 alone, and names it fp16.
    std::string str = plan.input_desc.GetType() == miopenBFloat16 ? "CBAInferfp16" : "CBAInfer";
    str += " -J " + std::to_string(fusion_mode);
    const auto& l = bn.input.GetLengths();
    str += " -n " + std::to_string(l[0]) + " -c " + std::to_string(l[1]);
    if(l.size() == 5)
        str += " -D " + std::to_string(l[2]) + " -H " + std::to_string(l[3]) + " -W " +
               std::to_string(l[4]);
    else
        str += " -H " + std::to_string(l[2]) + " -W " + std::to_string(l[3]);
    return str + " -m " + std::to_string(static_cast<int>(bn.bn_mode)) + " -I 0";
}

} // namespace

int GetFusionMode(const FusionPlanDescriptor& plan)
{
    using K = FusionOpKind;
    int fusion_mode = -1;
    if(KindsAre(plan, {K::ConvForward, K::BiasForward, K::BatchNormInference, K::ActivForward}))
        fusion_mode = 0;
    else if(KindsAre(plan, {K::ConvForward, K::BatchNormInference, K::ActivForward}))
        fusion_mode = 1;
    else if(KindsAre(plan, {K::BatchNormInference, K::ActivForward}))
        fusion_mode = 2;
    else if(KindsAre(plan, {K::ConvForward, K::BatchNormInference}))
        fusion_mode = 3;
    else if(KindsAre(plan, {K::ConvForward, K::BiasForward, K::ActivForward}))
        fusion_mode = 4;
    else if(KindsAre(plan, {K::ConvForward, K::ActivForward}))
        fusion_mode = 5;
    else if(KindsAre(plan, {K::ConvForward, K::BiasForward}))
        fusion_mode = 6;
    if(fusion_mode < 0)
        MIOPEN_LOG_E("Unknown fusion plan : " << fusion_mode);
    return fusion_mode;
}

void LogCmdFusion(const FusionPlanDescriptor& plan)
{
    if(!IsLoggingCmd())
        return;
    const int fusion_mode = GetFusionMode(plan);
    switch(fusion_mode)
    {
    case 0:
    case 1:
    case 3:
    case 4:
    case 5:
    case 6: MIOPEN_LOG_DRIVER_CMD(LogCmdConvolutionFusion(plan, fusion_mode)); break;
    case 2: MIOPEN_LOG_DRIVER_CMD(LogCmdBnormFusion(plan, fusion_mode)); break;
    default: MIOPEN_LOG_E("Unknown fusion plan : " << fusion_mode);
    }
}

} // namespace debug
} // namespace miopen
