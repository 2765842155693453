// Several threads, one handle each, as frameworks call hipDNN (one handle per
// stream): each builds its own graph and plan and executes it many times,
// with the results right, and each thread's last error stays its own (hipDNN
// keeps it thread_local). Built with -fsanitize=thread (README) the suite
// also checks that the backend shares nothing unsynchronised.
#include "test_util.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace
{

constexpr int kThreads = 8;
constexpr int kCalls = 25;

// Spins until every thread has arrived (C++17 has no std::barrier).
void arriveAndWait(std::atomic<int>& arrived)
{
    ++arrived;
    while(arrived.load() < kThreads)
    {
        std::this_thread::yield();
    }
}

// Thread t: y = x * (t + 1) through a 1x1 convolution on the reference engine.
std::string convolveOnOwnHandle(int t)
{
    hipdnnHandle_t h = nullptr;
    tu::check(hipdnnCreate(&h), "hipdnnCreate");
    const std::vector<int64_t> img = {1, 1, 2, 2}, flt = {1, 1, 1, 1};
    std::vector<hipdnnBackendDescriptor_t> ds = {tu::tensor(1, HIPDNN_DATA_FLOAT, img, tu::packedStrides(img)),
                                                 tu::tensor(2, HIPDNN_DATA_FLOAT, flt, tu::packedStrides(flt)),
                                                 tu::tensor(3, HIPDNN_DATA_FLOAT, img, tu::packedStrides(img))};
    tu::ConvParams p{{0, 0}, {0, 0}, {1, 1}, {1, 1}};
    ds.push_back(tu::convOp(HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR, ds[0], ds[1], ds[2], p));
    ds.push_back(tu::graph(h, {ds[3]}));
    const tu::PlanInfo plan = tu::plan(ds[4]);
    ds.push_back(plan.plan);
    std::string wrong;
    for(int k = 0; k < kCalls && wrong.empty(); ++k)
    {
        std::vector<float> x = {1.0f + k, 2.0f, 3.0f, 4.0f}, w = {float(t + 1)}, y(4, -1.0f);
        tu::execute(h, plan, {1, 2, 3}, {x.data(), w.data(), y.data()});
        for(size_t i = 0; i < y.size(); ++i)
        {
            if(y[i] != x[i] * float(t + 1))
            {
                wrong = "thread " + std::to_string(t) + " call " + std::to_string(k) + ": y[" + std::to_string(i)
                        + "] = " + std::to_string(y[i]);
            }
        }
    }
    tu::destroyAll(ds);
    hipdnnDestroy(h);
    return wrong;
}

} // namespace

TEST(Threads, OneHandlePerThreadComputesItsOwnGraph)
{
    std::vector<std::string> outcome(kThreads);
    std::vector<std::thread> ts;
    for(int t = 0; t < kThreads; ++t)
    {
        ts.emplace_back([t, &outcome] {
            try
            {
                outcome[size_t(t)] = convolveOnOwnHandle(t);
            }
            catch(const std::exception& e)
            {
                outcome[size_t(t)] = e.what();
            }
        });
    }
    for(auto& t : ts)
    {
        t.join();
    }
    for(int t = 0; t < kThreads; ++t)
    {
        EXPECT_EQ(outcome[size_t(t)], "") << "thread " << t;
    }
}

TEST(Threads, EachThreadKeepsItsOwnLastError)
{
    // Even threads fail with a null array, odd ones by finalizing twice; after
    // all have failed, each still reads its own message.
    std::atomic<int> arrived{0};
    std::vector<std::string> before(kThreads), after(kThreads);
    std::vector<std::thread> ts;
    for(int t = 0; t < kThreads; ++t)
    {
        ts.emplace_back([t, &arrived, &before, &after] {
            char cleared[HIPDNN_ERROR_STRING_MAX_LENGTH];
            hipdnnGetLastErrorString(cleared, sizeof(cleared));
            hipdnnBackendDescriptor_t d = nullptr;
            hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &d);
            if(t % 2 == 0)
            {
                hipdnnBackendSetAttribute(d, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 1, nullptr);
            }
            else
            {
                const int64_t uid = 1;
                void* ptr = &arrived;
                hipdnnBackendSetAttribute(d, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64, 1, &uid);
                hipdnnBackendSetAttribute(d, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR, 1, &ptr);
                hipdnnBackendFinalize(d);
                hipdnnBackendFinalize(d);
            }
            before[size_t(t)] = tu::lastError();
            arriveAndWait(arrived);
            after[size_t(t)] = tu::lastError();
            hipdnnBackendDestroyDescriptor(d);
        });
    }
    for(auto& t : ts)
    {
        t.join();
    }
    for(int t = 0; t < kThreads; ++t)
    {
        EXPECT_FALSE(before[size_t(t)].empty()) << t;
        EXPECT_EQ(after[size_t(t)], before[size_t(t)]) << t;
        EXPECT_NE(before[size_t(t)], before[size_t(t) ^ 1u]) << "threads " << t << " and " << (t ^ 1);
    }
}
