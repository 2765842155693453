// Find-mode helpers.
#include <miopen/find_controls.hpp>

namespace miopen {

bool IsValidFindMode(int mode)
{
    return mode >= static_cast<int>(FindMode::Normal) &&
           mode <= static_cast<int>(FindMode::DynamicHybrid);
}

} // namespace miopen
