// Runs and verifies the directions a problem asks for.
#pragma once

#include "flags.hpp"
#include "problem.hpp"

namespace driver {

// Returns the process exit status (see main.cpp).
int run_all(const Flags& flags, const Problem& p);

} // namespace driver
