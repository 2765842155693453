#include <miopen/batchnorm/driver_arguments.hpp>
#include <miopen/logger.hpp>
#include <miopen/tensor.hpp>

#include <sstream>

namespace miopen {
namespace debug {

namespace {

// "bnorm", "bnormfp16", "bnormbfp16", "bnormfp16fp32" or "bnormbfp16fp32",
// after x's type and the statistics' type (MIOpen's BnDataType).
const char* BnormDriverName(miopenDataType_t x, miopenDataType_t stats)
{
    if(x == miopenHalf && stats == miopenHalf)
        return "bnormfp16";
    if(x == miopenBFloat16 && stats == miopenBFloat16)
        return "bnormbfp16";
    if(x == miopenHalf && stats == miopenFloat)
        return "bnormfp16fp32";
    if(x == miopenBFloat16 && stats == miopenFloat)
        return "bnormbfp16fp32";
    return "bnorm";
}

} // namespace

std::string BnormArgsForMIOpenDriver(const TensorDescriptor& x,
                                     const TensorDescriptor& sMean,
                                     miopenBatchNormMode_t bn_mode,
                                     BatchNormDirection_t dir,
                                     bool running,
                                     bool saved)
{
    std::ostringstream ss;
    const auto& l = x.GetLengths();
    ss << BnormDriverName(x.GetType(), sMean.GetType()) << " -n " << l[0] << " -c " << l[1];
    if(l.size() == 5)
        ss << " -D " << l[2] << " -H " << l[3] << " -W " << l[4];
    else
        ss << " -H " << l[2] << " -W " << l[3];
    ss << " -m " << static_cast<int>(bn_mode);
    if(dir == Backward)
        ss << " --forw 0 -b 1";
    else
        ss << " --forw " << (dir == ForwardInference ? 2 : 1) << " -b 0";
    if(running)
        ss << " -s 1";
    if(saved)
        ss << " -r 1";
    ss << " --layout " << LayoutByStrides(x);
    return ss.str();
}

void LogCmdBNorm(miopenTensorDescriptor_t xDesc,
                 miopenTensorDescriptor_t sMeanDesc,
                 miopenBatchNormMode_t bn_mode,
                 const void* runningMean,
                 const void* runningVariance,
                 const void* saveMean,
                 const void* saveInvVariance,
                 BatchNormDirection_t dir)
{
    if(!IsLoggingCmd() || xDesc == nullptr || sMeanDesc == nullptr || deref(xDesc).GetNumDims() < 4)
        return;
    // MIOpen's tests: both buffers of a pair given.
    const bool running = runningMean != nullptr && runningVariance != nullptr;
    const bool saved   = saveMean != nullptr && saveInvVariance != nullptr;
    MIOPEN_LOG_DRIVER_CMD(
        BnormArgsForMIOpenDriver(deref(xDesc), deref(sMeanDesc), bn_mode, dir, running, saved));
}

} // namespace debug
} // namespace miopen
