// Batch normalization helpers.
#include <miopen/batch_norm.hpp>

namespace miopen {

TensorDescriptor DeriveBNTensorDescriptor(const TensorDescriptor& x, miopenBatchNormMode_t mode)
{
    x.CheckSet("xDesc");
    const auto& xl = x.GetLengths();
    if(xl.size() != 4 && xl.size() != 5)
        MIOPEN_THROW(miopenStatusBadParm, "Batch normalization needs a 4-D or 5-D tensor");
    std::vector<std::size_t> lens(xl.size(), 1);
    lens[1] = xl[1];
    if(mode == miopenBNPerActivation)
    {
        for(std::size_t i = 2; i < xl.size(); ++i)
            lens[i] = xl[i];
    }
    else if(mode != miopenBNSpatial)
    {
        MIOPEN_THROW(miopenStatusBadParm, "Invalid batch normalization mode");
    }
    // Parameters are kept in fp32 whatever the data type, like MIOpen does.
    return TensorDescriptor(miopenFloat, lens);
}

void CheckBatchNormArgs(miopenBatchNormMode_t mode,
                        const TensorDescriptor& x,
                        const TensorDescriptor& y,
                        std::initializer_list<const TensorDescriptor*> params)
{
    if(mode == miopenBNPerActivation)
        MIOPEN_THROW(miopenStatusNotImplemented, "Per-activation batch normalization is not implemented");
    if(mode != miopenBNSpatial)
        MIOPEN_THROW(miopenStatusBadParm, "Invalid batch normalization mode");
    x.CheckSet("xDesc");
    y.CheckSet("yDesc");
    if(x.GetLengths() != y.GetLengths())
        MIOPEN_THROW(miopenStatusBadParm, "x and y tensors have different lengths");
    if(x.GetType() != y.GetType())
        MIOPEN_THROW(miopenStatusBadParm, "x and y tensors have different data types");
    const auto expected = DeriveBNTensorDescriptor(x, mode);
    for(const auto* p : params)
    {
        p->CheckSet("batchnorm parameter");
        if(p->GetLengths() != expected.GetLengths())
            MIOPEN_THROW(miopenStatusBadParm,
                         "Batch normalization parameter tensor must be " +
                             LensToString(expected.GetLengths()));
    }
}

cpu::TensorView ParamView(const TensorDescriptor& d, const void* data) { return d.View(data); }

} // namespace miopen
