// Db stress on the db layer itself (miopen::PlainTextDb, compiled in):
// <threads> threads store <per-thread> keys of their own, "key<i>" from
// <first> up, each twice: "first<i>" (a new line) then "second<i>" (a
// rewrite of that line). check_db_stress.py starts several at once and checks
// that every key ends with its second value. Built twice: with the lock, and
// with MINI_MIOPEN_DB_TEST_UNLOCKED (the negative control).
#include <miopen/db.hpp>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

int main(int argc, char** argv)
{
    if(argc != 5)
    {
        std::fprintf(stderr, "usage: %s <db file> <threads> <keys per thread> <first key>\n", argv[0]);
        return 2;
    }
    const std::string db = argv[1];
    const int threads = std::atoi(argv[2]), per_thread = std::atoi(argv[3]), first = std::atoi(argv[4]);
    std::atomic<int> failed{0};
    std::vector<std::thread> ts;
    for(int t = 0; t < threads; ++t)
        ts.emplace_back([&, t] {
            miopen::PlainTextDb store(db);
            for(int k = 0; k < per_thread; ++k)
            {
                const std::string i = std::to_string(first + t * per_thread + k);
                for(const char* value : {"first", "second"})
                    if(!store.StoreRecord("key" + i, value + i))
                        ++failed;
            }
        });
    for(auto& t : ts)
        t.join();
    std::printf("db_stress: %d stores, %d failed\n", 2 * threads * per_thread, failed.load());
    return failed.load() == 0 ? 0 : 1;
}
