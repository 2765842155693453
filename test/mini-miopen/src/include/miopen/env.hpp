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

} // namespace env
} // namespace miopen
