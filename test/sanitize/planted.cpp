// The sanitizer run's own negative control: each mode is one defect the
// instrumented tree must report (scripts/sanitize.sh fails when it does not).
//   planted heap-overflow | undefined | race
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "";
    if(std::strcmp(mode, "heap-overflow") == 0)
    {
        std::vector<int> v(argc + 7);
        volatile int* p = v.data();
        return p[v.size()]; // one past the end
    }
    if(std::strcmp(mode, "undefined") == 0)
    {
        volatile int big = 0x7fffffff;
        return (big + argc) == 0; // signed overflow
    }
    if(std::strcmp(mode, "race") == 0)
    {
        static int shared = 0;
        std::thread a([] { for(int i = 0; i < 100000; ++i) ++shared; });
        std::thread b([] { for(int i = 0; i < 100000; ++i) ++shared; });
        a.join();
        b.join();
        std::printf("%d\n", shared);
        return 0;
    }
    std::fprintf(stderr, "usage: planted heap-overflow | undefined | race\n");
    return 2;
}
