// Small helpers for reading MIOPEN_* environment variables.
#pragma once

#include <optional>
#include <string>

namespace miopen {
namespace env {

// Value of the variable, or nullopt when it is unset.
std::optional<std::string> value(const char* name);
// Numeric value; `fallback` when unset or not a number.
long long numeric(const char* name, long long fallback);
// MIOpen's env::disabled of a boolean switch (src/include/miopen/env.hpp
// @2d1fd99): set to 0 or, in any case, disable(d) / no / off / false. Unset,
// 1 or an on spelling is not; any other value (the empty one too) throws
// miopenStatusInvalidValue, as MIOpen's parse does.
bool disabled(const char* name);

} // namespace env
} // namespace miopen
