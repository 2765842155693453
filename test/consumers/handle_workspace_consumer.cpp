// The workspace a MIOpen handle owns for hipDNN plans MIOpen's API passes
// none to (test/forwarding/check_handle_workspace.py): a fused conv + bias +
// ReLU plan, as PyTorch builds it, executed with miopenExecuteFusionPlan
// (which has no workspace argument) several times on one handle.
//
//   --allocator registered|failing|none   what miopenSetAllocator registers
//                                         (none: no call; MIOpen's default, HIP's)
//   --executes N                          executes of the plan (default 4)
//   --handle-per-execute                  a fresh handle (and plan) for each execute
//   --skip-destroy                        the handles are never destroyed
//   --workspace-query uncompiled|compiled miopenFusionPlanGetWorkSpaceSize only
//
// Records: a `call` per execute (status, the output's sum); `workspace`
// (the size asked); `counts`: the registered allocator's and deallocator's
// calls, and the HIP stand-in's hipMalloc / hipFree calls (-1 where the HIP
// runtime is not the test bed's), read after the handles were destroyed.
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "consumer_util.hpp"

namespace {

long registered_allocations = 0;
long registered_frees       = 0;

void* counting_allocator(void*, size_t size)
{
    ++registered_allocations;
    return std::aligned_alloc(256, (size + 255) / 256 * 256);
}

void* failing_allocator(void*, size_t)
{
    ++registered_allocations;
    return nullptr;
}

void counting_deallocator(void*, void* p)
{
    ++registered_frees;
    std::free(p);
}

// The HIP stand-in's counter `name`, or -1 (another HIP runtime).
long hip_counter(const char* name)
{
    auto f = reinterpret_cast<long (*)()>(dlsym(RTLD_DEFAULT, name));
    return f == nullptr ? -1 : f();
}

struct Options
{
    std::string allocator = "registered";
    int executes          = 4;
    bool handle_per_execute = false;
    bool skip_destroy       = false;
    std::string workspace_query;
};

Options parse(int argc, char** argv)
{
    Options o;
    for(int i = 1; i < argc; ++i)
    {
        const std::string a = argv[i];
        auto value          = [&] {
            if(i + 1 >= argc)
            {
                std::fprintf(stderr, "%s needs a value\n", a.c_str());
                std::exit(2);
            }
            return std::string(argv[++i]);
        };
        if(a == "--allocator")
            o.allocator = value();
        else if(a == "--executes")
            o.executes = std::atoi(value().c_str());
        else if(a == "--handle-per-execute")
            o.handle_per_execute = true;
        else if(a == "--skip-destroy")
            o.skip_destroy = true;
        else if(a == "--workspace-query")
            o.workspace_query = value();
        else
        {
            std::fprintf(stderr, "unknown argument %s\n", a.c_str());
            std::exit(2);
        }
    }
    if(o.allocator != "registered" && o.allocator != "failing" && o.allocator != "none")
    {
        std::fprintf(stderr, "--allocator registered|failing|none\n");
        std::exit(2);
    }
    return o;
}

struct Problem
{
    consumer::Tensor x = consumer::tensor4d(2, 4, 8, 8);
    consumer::Tensor w = consumer::tensor4d(8, 4, 3, 3);
    consumer::Tensor b = consumer::tensor4d(1, 8, 1, 1);
    consumer::Tensor y = consumer::tensor4d(2, 8, 8, 8);
    consumer::ConvDescriptor conv;
    std::vector<float> xs, ws, bs, ys;

    Problem() : xs(2 * 4 * 8 * 8), ws(8 * 4 * 3 * 3), bs(8), ys(2 * 8 * 8 * 8)
    {
        CHECK(miopenCreateConvolutionDescriptor(conv.out()));
        CHECK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 1, 1, 1, 1, 1));
        std::uint32_t seed = 7;
        for(auto* v : {&xs, &ws, &bs})
            for(float& e : *v)
                e = consumer::next_eighth(seed);
    }
};

struct Fused
{
    miopenFusionPlanDescriptor_t plan;
    miopenFusionOpDescriptor_t conv_op, bias_op, activ_op;
    miopenOperatorArgs_t args;

    explicit Fused(Problem& p)
    {
        CHECK(miopenCreateFusionPlan(&plan, miopenVerticalFusion, p.x));
        CHECK(miopenCreateOpConvForward(plan, &conv_op, p.conv, p.w));
        CHECK(miopenCreateOpBiasForward(plan, &bias_op, p.b));
        CHECK(miopenCreateOpActivationForward(plan, &activ_op, miopenActivationRELU));
        const float alpha = 1.0f, beta = 0.0f;
        CHECK(miopenCreateOperatorArgs(&args));
        CHECK(miopenSetOpArgsConvForward(args, conv_op, &alpha, &beta, p.ws.data()));
        CHECK(miopenSetOpArgsBiasForward(args, bias_op, &alpha, &beta, p.bs.data()));
        CHECK(miopenSetOpArgsActivForward(args, activ_op, &alpha, &beta, 0.0, 0.0, 0.0));
    }
    ~Fused()
    {
        miopenDestroyOperatorArgs(args);
        miopenDestroyFusionPlan(plan);
    }
};

miopenHandle_t handle_for(const Options& o)
{
    miopenHandle_t h;
    CHECK(miopenCreate(&h));
    if(o.allocator == "registered")
        CHECK(miopenSetAllocator(h, counting_allocator, counting_deallocator, nullptr));
    else if(o.allocator == "failing")
        CHECK(miopenSetAllocator(h, failing_allocator, counting_deallocator, nullptr));
    return h;
}

void query_workspace(Problem& p, const Options& o)
{
    miopenHandle_t h = handle_for(o);
    Fused f(p);
    if(o.workspace_query == "compiled")
        CHECK(miopenCompileFusionPlan(h, f.plan));
    size_t size     = 12345;
    miopenStatus_t s = miopenFusionPlanGetWorkSpaceSize(h, f.plan, &size, miopenConvolutionFwdAlgoDirect);
    protocol::Record("workspace")
        .field("plan", o.workspace_query)
        .field("status", static_cast<int>(s))
        .field("size", static_cast<long long>(size))
        .emit();
    miopenDestroy(h);
}

} // namespace

int main(int argc, char** argv)
{
    const Options o = parse(argc, argv);
    Problem p;
    if(!o.workspace_query.empty())
    {
        query_workspace(p, o);
        protocol::Record("done").emit();
        return 0;
    }
    std::vector<miopenHandle_t> handles;
    Fused* fused = nullptr;
    for(int i = 0; i < o.executes; ++i)
    {
        if(handles.empty() || o.handle_per_execute)
        {
            delete fused;
            handles.push_back(handle_for(o));
            fused = new Fused(p);
            CHECK(miopenCompileFusionPlan(handles.back(), fused->plan));
        }
        std::fill(p.ys.begin(), p.ys.end(), -100.0f);
        const miopenStatus_t s =
            miopenExecuteFusionPlan(handles.back(), fused->plan, p.x, p.xs.data(), p.y, p.ys.data(), fused->args);
        double sum = 0;
        for(float v : p.ys)
            sum += v;
        consumer::report_call("execute " + std::to_string(i), s, sum);
    }
    delete fused;
    if(!o.skip_destroy)
        for(auto h : handles)
            CHECK(miopenDestroy(h));
    protocol::Record("counts")
        .field("handles", static_cast<long long>(handles.size()))
        .field("registered_allocations", static_cast<long long>(registered_allocations))
        .field("registered_frees", static_cast<long long>(registered_frees))
        .field("hip_mallocs", static_cast<long long>(hip_counter("hipStandInMallocCalls")))
        .field("hip_frees", static_cast<long long>(hip_counter("hipStandInFreeCalls")))
        .emit();
    protocol::Record("done").emit();
    return 0;
}
