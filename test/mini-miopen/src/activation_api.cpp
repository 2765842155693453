// Public entry points of the activation family. Unlike the other families,
// these definitions sit inside one `extern "C"` block.
#include <miopen/activ.hpp>
#include <miopen/errors.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>
#include <miopen/tensor.hpp>

namespace {

// Shared checks of forward and backward: descriptors set, same shape and type
// between a and b, and the bfloat16 restriction MIOpen has for activations.
void CheckActivationPair(const miopen::TensorDescriptor& a, const miopen::TensorDescriptor& b)
{
    a.CheckSet("activation input");
    b.CheckSet("activation output");
    if(a.GetType() == miopenBFloat16 || b.GetType() == miopenBFloat16)
        MIOPEN_THROW(miopenStatusNotImplemented, "bfloat16 is not supported for activations");
    if(a.GetLengths() != b.GetLengths())
        MIOPEN_THROW(miopenStatusBadParm, "Activation tensors have different lengths");
    if(a.GetType() != b.GetType())
        MIOPEN_THROW(miopenStatusBadParm, "Activation tensors have different data types");
}

} // namespace

extern "C" {

miopenStatus_t miopenCreateActivationDescriptor(miopenActivationDescriptor_t* activDesc)
{
    MIOPEN_LOG_FUNCTION(activDesc);
    return miopen::try_([&] {
        auto& out = miopen::deref(activDesc);
        out       = miopen::to_handle(new miopen::ActivationDescriptor());
    });
}

miopenStatus_t miopenSetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                                             miopenActivationMode_t mode,
                                             double activAlpha,
                                             double activBeta,
                                             double activGamma)
{
    MIOPEN_LOG_FUNCTION(activDesc, mode, activAlpha, activBeta, activGamma);
    return miopen::try_([&] {
        auto& desc = miopen::deref(activDesc);
        desc       = miopen::ActivationDescriptor(mode, activAlpha, activBeta, activGamma);
    });
}

miopenStatus_t miopenGetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                                             miopenActivationMode_t* mode,
                                             double* activAlpha,
                                             double* activBeta,
                                             double* activGamma)
{
    MIOPEN_LOG_FUNCTION(activDesc, mode, activAlpha, activBeta, activGamma);
    return miopen::try_([&] {
        const auto& desc          = miopen::deref(activDesc);
        miopen::deref(mode)       = desc.GetMode();
        miopen::deref(activAlpha) = desc.GetAlpha();
        miopen::deref(activBeta)  = desc.GetBeta();
        miopen::deref(activGamma) = desc.GetGamma();
    });
}

miopenStatus_t miopenActivationForward(miopenHandle_t handle,
                                       const miopenActivationDescriptor_t activDesc,
                                       const void* alpha,
                                       const miopenTensorDescriptor_t xDesc,
                                       const void* x,
                                       const void* beta,
                                       const miopenTensorDescriptor_t yDesc,
                                       void* y)
{
    MIOPEN_LOG_FUNCTION(handle, activDesc, alpha, xDesc, x, beta, yDesc, y);
    return miopen::try_([&] {
        auto& h          = miopen::deref(handle);
        const auto& desc = miopen::deref(activDesc);
        const auto& xd   = miopen::deref(xDesc);
        const auto& yd   = miopen::deref(yDesc);
        CheckActivationPair(xd, yd);
        if(x == nullptr || y == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Buffers cannot be NULL");
        const float a = miopen::ReadScale(alpha, "alpha");
        const float b = miopen::ReadScale(beta, "beta");
        miopen::OperationTimer timer(h);
        miopen::cpu::activation_forward(desc.GetParams(), xd.View(x), yd.View(y), a, b);
    });
}

miopenStatus_t miopenActivationBackward(miopenHandle_t handle,
                                        const miopenActivationDescriptor_t activDesc,
                                        const void* alpha,
                                        const miopenTensorDescriptor_t yDesc,
                                        const void* y,
                                        const miopenTensorDescriptor_t dyDesc,
                                        const void* dy,
                                        const miopenTensorDescriptor_t xDesc,
                                        const void* x,
                                        const void* beta,
                                        const miopenTensorDescriptor_t dxDesc,
                                        void* dx)
{
    MIOPEN_LOG_FUNCTION(handle, activDesc, alpha, yDesc, y, dyDesc, dy, xDesc, x, beta, dxDesc, dx);
    return miopen::try_([&] {
        auto& h          = miopen::deref(handle);
        const auto& desc = miopen::deref(activDesc);
        const auto& yd   = miopen::deref(yDesc);
        const auto& dyd  = miopen::deref(dyDesc);
        const auto& xd   = miopen::deref(xDesc);
        const auto& dxd  = miopen::deref(dxDesc);
        CheckActivationPair(xd, yd);
        CheckActivationPair(dyd, dxd);
        CheckActivationPair(xd, dxd);
        if(y == nullptr || dy == nullptr || x == nullptr || dx == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Buffers cannot be NULL");
        const float a = miopen::ReadScale(alpha, "alpha");
        const float b = miopen::ReadScale(beta, "beta");
        miopen::OperationTimer timer(h);
        miopen::cpu::activation_backward(
            desc.GetParams(), yd.View(y), dyd.View(dy), xd.View(x), dxd.View(dx), a, b);
    });
}

// Null is accepted: MIOpen deletes the object, and deleting null is a no-op
// (miopen_destroy_object in MIOpen's object.hpp).
miopenStatus_t miopenDestroyActivationDescriptor(miopenActivationDescriptor_t activDesc)
{
    MIOPEN_LOG_FUNCTION(activDesc);
    return miopen::try_([&] { delete static_cast<miopen::ActivationDescriptor*>(activDesc); });
}

} // extern "C"
