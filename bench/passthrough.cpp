// Wrapper overhead on the cheapest entry point (RFC §4.3.2 measures the same
// way): `passthrough <calls>` times <calls> calls of miopenGetVersion and
// prints ns/call, the process's peak/current RSS and its page faults.
// `passthrough <calls> setter` calls miopenSet4dTensorDescriptor on one
// descriptor instead: an entry point whose routed body also reports the
// descriptor it may change (docs/forwarding.md, "Descriptor generations").
// Built twice (bench/CMakeLists.txt): against libMIOpen.so (run against the
// wrapper, the pre-wrapper baseline or the bare tail-jump shim, chosen by
// LD_LIBRARY_PATH) and, as passthrough_impl, calling miopenGetVersion_impl in
// libMIOpen_private.so directly (no hop at all).
#ifdef CALL_IMPL
#include <miopen/miopen_impl.h>
#define GET_VERSION miopenGetVersion_impl
#define SET_4D miopenSet4dTensorDescriptor_impl
#define CREATE_TENSOR miopenCreateTensorDescriptor_impl
#else
#include <miopen/miopen.h>
#define GET_VERSION miopenGetVersion
#define SET_4D miopenSet4dTensorDescriptor
#define CREATE_TENSOR miopenCreateTensorDescriptor
#endif

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

static long status_kb(const char* key)
{
    std::ifstream f("/proc/self/status");
    std::string line;
    while(std::getline(f, line))
        if(line.rfind(key, 0) == 0)
            return std::atol(line.c_str() + std::strlen(key));
    return -1;
}

int main(int argc, char** argv)
{
    long calls        = argc > 1 ? std::atol(argv[1]) : 10000000;
    const bool setter = argc > 2 && std::strcmp(argv[2], "setter") == 0;
    size_t a, b, c, sink = 0;
    GET_VERSION(&a, &b, &c); // first call: initialisation, not timed
    miopenTensorDescriptor_t d = nullptr;
    if(setter && CREATE_TENSOR(&d) != miopenStatusSuccess)
        return 1;
    auto t0 = std::chrono::steady_clock::now();
    for(long i = 0; i < calls; ++i)
    {
        if(setter)
            sink += size_t(SET_4D(d, miopenFloat, 1, 2, 3, 4));
        else
        {
            GET_VERSION(&a, &b, &c);
            sink += a;
        }
    }
    auto t1 = std::chrono::steady_clock::now();
    double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / double(calls ? calls : 1);
    rusage ru{};
    getrusage(RUSAGE_SELF, &ru);
    std::printf("calls=%ld ns_per_call=%.3f vm_rss_kb=%ld vm_hwm_kb=%ld major_faults=%ld minor_faults=%ld sink=%zu\n",
                calls, ns, status_kb("VmRSS:"), status_kb("VmHWM:"), ru.ru_majflt, ru.ru_minflt, sink);
    return 0;
}
