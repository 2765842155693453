// The activation descriptor behind miopenActivationDescriptor_t.
#pragma once

#include <miopen/miopen.h>
#include <miopen/object.hpp>
#include <miopen/cpu/kernels.hpp>

namespace miopen {

bool IsValidActivationMode(miopenActivationMode_t mode);
cpu::ActivationMode ToCpuActivationMode(miopenActivationMode_t mode);

struct ActivationDescriptor : miopenActivationDescriptor
{
    ActivationDescriptor() = default;
    ActivationDescriptor(miopenActivationMode_t m, double a, double b, double g);

    miopenActivationMode_t GetMode() const { return mode; }
    double GetAlpha() const { return alpha; }
    double GetBeta() const { return beta; }
    double GetGamma() const { return gamma; }
    cpu::ActivationParams GetParams() const;

private:
    miopenActivationMode_t mode = miopenActivationPASTHRU;
    double alpha                = 0.0;
    double beta                 = 0.0;
    double gamma                = 0.0;
};

} // namespace miopen

MIOPEN_DEFINE_OBJECT(miopenActivationDescriptor, miopen::ActivationDescriptor)
