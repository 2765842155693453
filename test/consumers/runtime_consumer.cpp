// Exercises the wrapper's first-call initialisation from a plain consumer:
//   runtime_consumer once     one call
//   runtime_consumer threads  64 threads released together make their first call
//   runtime_consumer fork     a call in the parent, then calls in a forked child
//   runtime_consumer forkfirst  fork before any call; child and parent both call
// Exit 0 when every call returned miopenStatusSuccess with the right version.
#include <miopen/miopen.h>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

static bool one_call()
{
    size_t major = 0, minor = 0, patch = 0;
    if(miopenGetVersion(&major, &minor, &patch) != miopenStatusSuccess)
        return false;
    miopenHandle_t h = nullptr;
    if(miopenCreate(&h) != miopenStatusSuccess || h == nullptr)
        return false;
    return miopenDestroy(h) == miopenStatusSuccess && (major | minor | patch) != 0;
}

static int child_then_parent()
{
    pid_t pid = fork();
    if(pid < 0)
        return 3;
    if(pid == 0)
        _exit(one_call() ? 0 : 1);
    int status = 0;
    waitpid(pid, &status, 0);
    bool child_ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if(!child_ok)
        std::fprintf(stderr, "runtime_consumer: call in forked child failed\n");
    return child_ok && one_call() ? 0 : 1;
}

int main(int argc, char** argv)
{
    const char* mode = argc > 1 ? argv[1] : "once";
    if(std::strcmp(mode, "once") == 0)
        return one_call() ? 0 : 1;
    if(std::strcmp(mode, "threads") == 0)
    {
        std::atomic<bool> go{false};
        std::atomic<int> failures{0};
        std::vector<std::thread> threads;
        for(int i = 0; i < 64; ++i)
            threads.emplace_back([&] {
                while(!go.load())
                    std::this_thread::yield();
                if(!one_call())
                    ++failures;
            });
        go = true;
        for(auto& t : threads)
            t.join();
        return failures == 0 ? 0 : 1;
    }
    if(std::strcmp(mode, "fork") == 0)
        return one_call() ? child_then_parent() : 1;
    if(std::strcmp(mode, "forkfirst") == 0)
        return child_then_parent();
    std::fprintf(stderr, "runtime_consumer: unknown mode %s\n", mode);
    return 2;
}
