// Wrapper overhead on the cheapest entry point (RFC §4.3.2 measures the same
// way): `passthrough <calls>` times <calls> calls of miopenGetVersion and
// prints ns/call and the process's peak/current RSS. Run against the
// baseline (LD_LIBRARY_PATH) and the wrapper by bench/run.sh.
#include <miopen/miopen.h>

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
    long calls = argc > 1 ? std::atol(argv[1]) : 10000000;
    size_t a, b, c, sink = 0;
    miopenGetVersion(&a, &b, &c); // first call: initialisation, not timed
    auto t0 = std::chrono::steady_clock::now();
    for(long i = 0; i < calls; ++i)
    {
        miopenGetVersion(&a, &b, &c);
        sink += a;
    }
    auto t1 = std::chrono::steady_clock::now();
    double ns = std::chrono::duration<double, std::nano>(t1 - t0).count() / double(calls);
    std::printf("calls=%ld ns_per_call=%.3f vm_rss_kb=%ld vm_hwm_kb=%ld sink=%zu\n", calls, ns,
                status_kb("VmRSS:"), status_kb("VmHWM:"), sink);
    return 0;
}
