// What the MIOpen provider's plans share (test bed).
#pragma once

#include "HipdnnDataType.h"

#include <miopen/miopen_impl.h>

#include <cstdint>
#include <string>

namespace provider
{

// hipDNN's element type as MIOpen's; false for a type the provider does not take.
inline bool toMiopenType(int32_t dt, miopenDataType_t& out)
{
    switch(dt)
    {
    case HIPDNN_DATA_FLOAT: out = miopenFloat; return true;
    case HIPDNN_DATA_HALF: out = miopenHalf; return true;
    case HIPDNN_DATA_BFLOAT16: out = miopenBFloat16; return true;
    default: return false;
    }
}

// True for success; otherwise `error` names the call and MIOpen's status.
inline bool succeeded(miopenStatus_t s, const char* what, std::string& error)
{
    if(s == miopenStatusSuccess)
    {
        return true;
    }
    error = std::string("MIOpen provider: ") + what + " failed: " + miopenGetErrorString_impl(s);
    return false;
}

} // namespace provider
