// MIOpenDriver for the convolution family: `MIOpenDriver conv|convfp16|convbfp16
// <MIOpen conv driver flags>`. A plain consumer of the installed libMIOpen.so
// (the pre-wrapper library or the hipDNN forwarding wrapper, whichever the
// loader finds). Runs the directions --forw asks for through the Find API
// (-S < 0) or immediate mode (-S >= 0), -i times each, verifies each against
// the driver's own double-precision reference (-V 1), and says where the
// convolution calls went.
//
// Exit status: 0 all passed; 1/2/4 (or their sum) the directions (fwd, bwd,
// wrw, as in --forw) that failed to run or to verify; 16 a usage error (an
// unknown or unsupported flag, named on stderr); 17 a setup call failed.
#include "flags.hpp"
#include "problem.hpp"
#include "run.hpp"

#include <miopen/miopen.h>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

constexpr int usage_error = 16;

int usage(const std::string& what)
{
    std::fprintf(stderr, "MIOpenDriver: %s\n", what.c_str());
    return usage_error;
}

bool base_type(const std::string& base, driver::Type& t)
{
    if(base == "conv")
        t = driver::Type::fp32;
    else if(base == "convfp16")
        t = driver::Type::fp16;
    else if(base == "convbfp16")
        t = driver::Type::bf16;
    else
        return false;
    return true;
}

// The routing is printed by the wrapper itself at exit (its exit summary:
// entry point x decision x calls); against the pre-wrapper library there is
// no wrapper to ask, which the driver says.
void announce_routing()
{
    setenv("MIOPEN_HIPDNN_EXIT_SUMMARY", "1", 0); // a caller's own setting wins
    const bool wrapper = dlsym(RTLD_DEFAULT, "miopenGetLastForwardedError") != nullptr;
    const char* fwd    = std::getenv("MIOPEN_HIPDNN_FORWARDING");
    if(wrapper)
        std::printf("Library: MIOpen hipDNN forwarding wrapper (MIOPEN_HIPDNN_FORWARDING=%s); routing of every "
                    "call: the wrapper's exit summary on stderr\n",
                    fwd != nullptr ? fwd : "unset: disabled");
    else
        std::printf("Library: pre-wrapper MIOpen (no forwarding wrapper in this process); routing: every call "
                    "runs in this libMIOpen\n");
}

int version()
{
    size_t major = 0, minor = 0, patch = 0;
    miopenGetVersion(&major, &minor, &patch);
    std::printf("MIOpen (version: %zu.%zu.%zu)\n", major, minor, patch);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if(argc < 2)
        return usage("usage: MIOpenDriver conv|convfp16|convbfp16 [flags] (--help lists them)");
    const std::string base = argv[1];
    if(base == "--version")
        return version();
    driver::Type type{};
    if(!base_type(base, type))
        return usage("unsupported base command '" + base + "': this driver runs conv, convfp16 and convbfp16");

    std::printf("MIOpenDriver");
    for(int i = 1; i < argc; ++i)
        std::printf(" %s", argv[i]);
    std::printf("\n");

    driver::Flags flags;
    std::string error;
    if(!flags.parse(argc, argv, error))
        return usage(error);
    if(flags.help_requested())
    {
        flags.print_help();
        return 0;
    }
    driver::Problem problem;
    if(!driver::make_problem(flags, type, problem, error))
        return usage(error);
    announce_routing();
    return driver::run_all(flags, problem);
}
