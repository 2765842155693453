// Find-mode controls. The two functions below are exported by the library
// but deliberately absent from the public header, mirroring MIOpen's hidden
// find-mode entry points (tools and tests declare them themselves).
#pragma once

#include <miopen/miopen.h>

extern "C" miopenStatus_t miopenHiddenSetConvolutionFindMode(miopenConvolutionDescriptor_t convDesc,
                                                             int findMode);
extern "C" miopenStatus_t miopenHiddenGetConvolutionFindMode(miopenConvolutionDescriptor_t convDesc,
                                                             int* findMode);

namespace miopen {

// MIOpen's find-mode numbering.
enum class FindMode
{
    Normal        = 1,
    Fast          = 2,
    Hybrid        = 3,
    DeprecatedFastHybrid = 4,
    DynamicHybrid = 5,
};

bool IsValidFindMode(int mode);

} // namespace miopen
