// Batch normalization: parameter shape and argument checks (see batch_norm.hpp).
#include <miopen/batch_norm.hpp>
#include <miopen/errors.hpp>

#include <vector>

namespace miopen {

namespace {

void RequireBuffers(std::initializer_list<const void*> buffers)
{
    for(const auto* b : buffers)
        if(b == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Buffers cannot be NULL");
}

void RequireRankOfX(const TensorDescriptor& x, const std::vector<const TensorDescriptor*>& others)
{
    for(const auto* d : others)
        if(d->GetNumDims() != x.GetNumDims())
            MIOPEN_THROW(miopenStatusBadParm, "Batch normalization tensors of different ranks");
}

void RequireSameType(const TensorDescriptor& a, const TensorDescriptor& b)
{
    if(a.GetType() != b.GetType())
        MIOPEN_THROW(miopenStatusBadParm, "Batch normalization data tensors of different types");
}

void RequireThreeDims(const TensorDescriptor& x)
{
    if(x.GetNumDims() < 3)
        MIOPEN_THROW(miopenStatusBadParm, "Batch normalization needs at least 3 dimensions");
}

void RequireUnitScales(const void* alpha, const void* beta, miopenStatus_t status)
{
    if(ReadScale(alpha, "alpha") != 1.0f || ReadScale(beta, "beta") != 0.0f)
        MIOPEN_THROW(status, "Only alpha=1 and beta=0 is supported");
}

// ProblemDescription::SetSpatialDims (a 5-D x arrives reshaped to 4-D).
void RequireSpatialDims(const TensorDescriptor& x)
{
    if(x.GetNumDims() != 4 && x.GetNumDims() != 5)
        MIOPEN_THROW(miopenStatusUnknownError, "Unknown spatial dim!");
}

std::vector<const TensorDescriptor*> Everything(const BatchNormTensors& t)
{
    std::vector<const TensorDescriptor*> all(t.io);
    all.insert(all.end(), t.params.begin(), t.params.end());
    return all;
}

} // namespace

cpu::BatchNormMode KernelMode(miopenBatchNormMode_t mode)
{
    return mode == miopenBNSpatial ? cpu::BatchNormMode::Spatial : cpu::BatchNormMode::PerActivation;
}

TensorDescriptor DeriveBNTensorDescriptor(const TensorDescriptor& x, miopenBatchNormMode_t mode)
{
    x.CheckSet("xDesc");
    const auto& xl = x.GetLengths();
    // Test bed: MIOpen writes the shape of a 4-D x, whatever x's rank.
    if(xl.size() != 4 && xl.size() != 5)
        MIOPEN_THROW(miopenStatusBadParm, "Batch normalization needs a 4-D or 5-D tensor");
    std::vector<std::size_t> lens(xl.size(), 1);
    lens[1] = xl[1];
    if(KernelMode(mode) == cpu::BatchNormMode::PerActivation)
        for(std::size_t i = 2; i < xl.size(); ++i)
            lens[i] = xl[i];
    // Parameters are kept in fp32 whatever the data type, like MIOpen does.
    return TensorDescriptor(miopenFloat, lens);
}

void CheckForward(ForwardPass pass,
                  const BatchNormTensors& t,
                  std::initializer_list<const void*> buffers,
                  const void* alpha,
                  const void* beta)
{
    const bool training = pass == ForwardPass::Training;
    RequireBuffers(buffers);
    RequireRankOfX(t.x, Everything(t));
    RequireSameType(t.x, *t.io.at(0));
    if(training && !t.x.IsPacked())
        MIOPEN_THROW(miopenStatusBadParm, "Only fully packed tensors supported.");
    RequireThreeDims(t.x);
    RequireUnitScales(alpha, beta, training ? miopenStatusUnknownError : miopenStatusBadParm);
    RequireSpatialDims(t.x);
}

void CheckBackward(miopenBatchNormMode_t mode,
                   const BatchNormTensors& t,
                   std::initializer_list<const void*> buffers,
                   const void* alpha_data,
                   const void* beta_data,
                   const void* alpha_param,
                   const void* beta_param)
{
    // io: dy, dx; dx's rank is not compared.
    const auto* dy = t.io.at(0);
    const auto* dx = t.io.at(1);
    RequireBuffers(buffers);
    std::vector<const TensorDescriptor*> ranked{dy};
    ranked.insert(ranked.end(), t.params.begin(), t.params.end());
    RequireRankOfX(t.x, ranked);
    RequireSameType(*dx, *dy);
    RequireThreeDims(t.x);
    RequireUnitScales(alpha_data, beta_data, miopenStatusBadParm);
    RequireUnitScales(alpha_param, beta_param, miopenStatusBadParm);
    RequireSpatialDims(t.x);
    if(mode != miopenBNSpatial && mode != miopenBNPerActivation)
        MIOPEN_THROW(miopenStatusNotImplemented, "No solver found.");
}

void CheckComputable(miopenBatchNormMode_t mode, const BatchNormTensors& t)
{
    for(const auto* d : t.io)
        if(d->GetLengths() != t.x.GetLengths())
            MIOPEN_THROW(miopenStatusBadParm, "Batch normalization data tensors of different lengths");
    const auto expected = DeriveBNTensorDescriptor(t.x, mode);
    for(const auto* p : t.params)
        if(p->GetLengths() != expected.GetLengths())
            MIOPEN_THROW(miopenStatusBadParm,
                         "Batch normalization parameter tensor must be " +
                             LensToString(expected.GetLengths()));
}

cpu::TensorView ParamView(const TensorDescriptor& d, const void* data) { return d.View(data); }

} // namespace miopen
