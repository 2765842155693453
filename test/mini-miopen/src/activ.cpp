// Activation descriptor implementation.
#include <miopen/activ.hpp>

namespace miopen {

bool IsValidActivationMode(miopenActivationMode_t mode)
{
    const int m = static_cast<int>(mode);
    return m >= miopenActivationPASTHRU && m <= miopenActivationCLAMP;
}

cpu::ActivationMode ToCpuActivationMode(miopenActivationMode_t mode)
{
    switch(mode)
    {
    case miopenActivationPASTHRU: return cpu::ActivationMode::PassThru;
    case miopenActivationLOGISTIC: return cpu::ActivationMode::Logistic;
    case miopenActivationTANH: return cpu::ActivationMode::Tanh;
    case miopenActivationRELU: return cpu::ActivationMode::Relu;
    case miopenActivationSOFTRELU: return cpu::ActivationMode::SoftRelu;
    case miopenActivationABS: return cpu::ActivationMode::Abs;
    case miopenActivationPOWER: return cpu::ActivationMode::Power;
    case miopenActivationCLIPPEDRELU: return cpu::ActivationMode::ClippedRelu;
    case miopenActivationLEAKYRELU: return cpu::ActivationMode::LeakyRelu;
    case miopenActivationELU: return cpu::ActivationMode::Elu;
    case miopenActivationCLAMP: return cpu::ActivationMode::Clamp;
    }
    MIOPEN_THROW(miopenStatusBadParm, "Invalid activation mode");
}

ActivationDescriptor::ActivationDescriptor(miopenActivationMode_t m, double a, double b, double g)
    : mode(m), alpha(a), beta(b), gamma(g)
{
    if(!IsValidActivationMode(m))
        MIOPEN_THROW(miopenStatusBadParm, "Invalid activation mode");
}

cpu::ActivationParams ActivationDescriptor::GetParams() const
{
    return {ToCpuActivationMode(mode), alpha, beta, gamma};
}

} // namespace miopen
