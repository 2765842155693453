// Argument parity through the public API: for every entry point of the
// forwarding set, calls MIOpen rejects (null handles, descriptors, buffers
// and out-parameters, bad enum values, wrong dims, bad groups, mixed types,
// short workspaces, bad solution ids), each next to a valid twin.
// test/forwarding/check_parity.py runs it with forwarding disabled and
// enabled and requires, case by case, the same status and the same bytes in
// every buffer and out-parameter the call may write (all start from the same
// pattern), and in the enabled run every `valid` case forwarded and every
// other case left to MIOpen Private.
//
// One `case` record per case (consumer_util.hpp's ParityCase: direction,
// entry point, label, status, `out` the FNV-1a hash of the outputs or null
// for a valid case, whose outputs hipDNN computes when forwarded: equal within
// tolerance, not bit for bit; the differential test checks their values),
// each after its `begin` marker on stderr, so the checker can split the
// routing trace per case.
#include "consumer_util.hpp"

#include <miopen/miopen.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace {

using consumer::must;

miopenTensorDescriptor_t tensor(miopenDataType_t t, const std::vector<int>& dims)
{
    return consumer::packed_tensor(t, dims);
}

miopenConvolutionDescriptor_t convolution(int groups)
{
    miopenConvolutionDescriptor_t c;
    must(miopenCreateConvolutionDescriptor(&c), "create conv");
    must(miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 1, 1, 1, 1, 1), "init conv");
    must(miopenSetConvolutionGroupCount(c, groups), "group count");
    return c;
}

enum Dir
{
    Fwd,
    Bwd,
    Wrw
};
const char* const dir_names[] = {"fwd", "bwd", "wrw"};

// MIOpen's GEMM and Direct algorithm values, shared by the three directions' enums.
constexpr int gemm = 0, direct = 1;

// One call's arguments in forward naming (x = dx, w = dw, y = dy), plus
// what the per-direction calls below need. Cases change one field.
struct Args
{
    miopenHandle_t h;
    miopenTensorDescriptor_t x, w, y;
    miopenConvolutionDescriptor_t c;
    void *xb, *wb, *yb;
    void* ws;
    size_t ws_size;
    int algo;
    float alpha;
    uint64_t id;
    // query out-parameters
    size_t* size_out;
    int request;
    int* returned;
    miopenConvAlgoPerf_t* perf;
    size_t max;
    miopenConvSolution_t* solutions;
    // miopenConvolutionBiasActivationForward
    float alpha1;
    miopenTensorDescriptor_t z_desc, bias_desc;
    void* bias;
    void* z;
    miopenActivationDescriptor_t activation;
};

// Everything a call may write, reset to one pattern before each case.
struct Outputs
{
    std::vector<float> x, w, y, bias;
    std::vector<char> ws;
    size_t size = 0;
    int returned = 0;
    miopenConvAlgoPerf_t perf[4];
    miopenConvSolution_t solutions[4];

    void reset()
    {
        for(auto* v : {&x, &w, &y, &bias})
            for(size_t i = 0; i < v->size(); ++i)
                (*v)[i] = float(int((i * 7919u) % 17) - 8) / 8.0f;
        std::memset(ws.data(), 0x5A, ws.size());
        std::memset(&size, 0xA5, sizeof size);
        std::memset(&returned, 0xA5, sizeof returned);
        std::memset(perf, 0xA5, sizeof perf);
        std::memset(solutions, 0xA5, sizeof solutions);
    }

    std::uint64_t hash() const
    {
        std::uint64_t hv = 1469598103934665603ull;
        auto eat = [&](const void* p, size_t n) {
            for(size_t i = 0; i < n; ++i)
                hv = (hv ^ static_cast<const unsigned char*>(p)[i]) * 1099511628211ull;
        };
        for(const auto* v : {&x, &w, &y, &bias})
            eat(v->data(), v->size() * sizeof(float));
        eat(ws.data(), ws.size());
        eat(&size, sizeof size);
        eat(&returned, sizeof returned);
        eat(perf, sizeof perf);
        eat(solutions, sizeof solutions);
        return hv;
    }
};

// The forwarding set's calls of one direction, in forward naming.
miopenStatus_t compute(Dir d, const Args& a)
{
    const float beta = 0.0f;
    switch(d)
    {
    case Fwd:
        return miopenConvolutionForward(a.h, &a.alpha, a.x, a.xb, a.w, a.wb, a.c, miopenConvFwdAlgorithm_t(a.algo),
                                        &beta, a.y, a.yb, a.ws, a.ws_size);
    case Bwd:
        return miopenConvolutionBackwardData(a.h, &a.alpha, a.y, a.yb, a.w, a.wb, a.c,
                                             miopenConvBwdDataAlgorithm_t(a.algo), &beta, a.x, a.xb, a.ws, a.ws_size);
    case Wrw:
        return miopenConvolutionBackwardWeights(a.h, &a.alpha, a.y, a.yb, a.x, a.xb, a.c,
                                                miopenConvBwdWeightsAlgorithm_t(a.algo), &beta, a.w, a.wb, a.ws,
                                                a.ws_size);
    }
    return miopenStatusUnknownError;
}

miopenStatus_t immediate(Dir d, const Args& a)
{
    switch(d)
    {
    case Fwd:
        return miopenConvolutionForwardImmediate(a.h, a.w, a.wb, a.x, a.xb, a.c, a.y, a.yb, a.ws, a.ws_size, a.id);
    case Bwd:
        return miopenConvolutionBackwardDataImmediate(a.h, a.y, a.yb, a.w, a.wb, a.c, a.x, a.xb, a.ws, a.ws_size,
                                                      a.id);
    case Wrw:
        return miopenConvolutionBackwardWeightsImmediate(a.h, a.y, a.yb, a.x, a.xb, a.c, a.w, a.wb, a.ws,
                                                         a.ws_size, a.id);
    }
    return miopenStatusUnknownError;
}

miopenStatus_t find(Dir d, const Args& a)
{
    switch(d)
    {
    case Fwd:
        return miopenFindConvolutionForwardAlgorithm(a.h, a.x, a.xb, a.w, a.wb, a.c, a.y, a.yb, a.request,
                                                     a.returned, a.perf, a.ws, a.ws_size, false);
    case Bwd:
        return miopenFindConvolutionBackwardDataAlgorithm(a.h, a.y, a.yb, a.w, a.wb, a.c, a.x, a.xb, a.request,
                                                          a.returned, a.perf, a.ws, a.ws_size, false);
    case Wrw:
        return miopenFindConvolutionBackwardWeightsAlgorithm(a.h, a.y, a.yb, a.x, a.xb, a.c, a.w, a.wb, a.request,
                                                             a.returned, a.perf, a.ws, a.ws_size, false);
    }
    return miopenStatusUnknownError;
}

// The five queries take (a, b, c) = fwd (w, x, y), bwd (dy, w, dx), wrw (dy, x, dw).
struct QueryOrder
{
    miopenTensorDescriptor_t a, b, c;
};

QueryOrder order(Dir d, const Args& a)
{
    switch(d)
    {
    case Fwd: return {a.w, a.x, a.y};
    case Bwd: return {a.y, a.w, a.x};
    case Wrw: return {a.y, a.x, a.w};
    }
    return {};
}

miopenStatus_t workspace_size(Dir d, const Args& a)
{
    const auto q = order(d, a);
    switch(d)
    {
    case Fwd: return miopenConvolutionForwardGetWorkSpaceSize(a.h, q.a, q.b, a.c, q.c, a.size_out);
    case Bwd: return miopenConvolutionBackwardDataGetWorkSpaceSize(a.h, q.a, q.b, a.c, q.c, a.size_out);
    case Wrw: return miopenConvolutionBackwardWeightsGetWorkSpaceSize(a.h, q.a, q.b, a.c, q.c, a.size_out);
    }
    return miopenStatusUnknownError;
}

miopenStatus_t solution_count(Dir d, const Args& a)
{
    const auto q = order(d, a);
    switch(d)
    {
    case Fwd: return miopenConvolutionForwardGetSolutionCount(a.h, q.a, q.b, a.c, q.c, a.size_out);
    case Bwd: return miopenConvolutionBackwardDataGetSolutionCount(a.h, q.a, q.b, a.c, q.c, a.size_out);
    case Wrw: return miopenConvolutionBackwardWeightsGetSolutionCount(a.h, q.a, q.b, a.c, q.c, a.size_out);
    }
    return miopenStatusUnknownError;
}

miopenStatus_t solutions(Dir d, const Args& a)
{
    const auto q = order(d, a);
    switch(d)
    {
    case Fwd: return miopenConvolutionForwardGetSolution(a.h, q.a, q.b, a.c, q.c, a.max, a.size_out, a.solutions);
    case Bwd:
        return miopenConvolutionBackwardDataGetSolution(a.h, q.a, q.b, a.c, q.c, a.max, a.size_out, a.solutions);
    case Wrw:
        return miopenConvolutionBackwardWeightsGetSolution(a.h, q.a, q.b, a.c, q.c, a.max, a.size_out,
                                                           a.solutions);
    }
    return miopenStatusUnknownError;
}

miopenStatus_t solution_workspace(Dir d, const Args& a)
{
    const auto q = order(d, a);
    switch(d)
    {
    case Fwd: return miopenConvolutionForwardGetSolutionWorkspaceSize(a.h, q.a, q.b, a.c, q.c, a.id, a.size_out);
    case Bwd:
        return miopenConvolutionBackwardDataGetSolutionWorkspaceSize(a.h, q.a, q.b, a.c, q.c, a.id, a.size_out);
    case Wrw:
        return miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(a.h, q.a, q.b, a.c, q.c, a.id,
                                                                        a.size_out);
    }
    return miopenStatusUnknownError;
}

miopenStatus_t compile(Dir d, const Args& a)
{
    const auto q = order(d, a);
    switch(d)
    {
    case Fwd: return miopenConvolutionForwardCompileSolution(a.h, q.a, q.b, a.c, q.c, a.id);
    case Bwd: return miopenConvolutionBackwardDataCompileSolution(a.h, q.a, q.b, a.c, q.c, a.id);
    case Wrw: return miopenConvolutionBackwardWeightsCompileSolution(a.h, q.a, q.b, a.c, q.c, a.id);
    }
    return miopenStatusUnknownError;
}

miopenStatus_t bias_activation(Dir, const Args& a)
{
    const float alpha2 = 1.0f;
    return miopenConvolutionBiasActivationForward(a.h, &a.alpha1, a.x, a.xb, a.w, a.wb, a.c,
                                                  miopenConvFwdAlgorithm_t(a.algo), a.ws, a.ws_size, &alpha2, a.z_desc,
                                                  a.z, a.bias_desc, a.bias, a.activation, a.y, a.yb);
}

using Call   = miopenStatus_t (*)(Dir, const Args&);
using Change = std::function<void(Args&)>;

struct Case
{
    std::string label; // "valid..." cases must be forwarded; the others declined
    Change change;
};

// The problem every case starts from: fp32 NCHW, N=2, C=K=4, 6x6, 3x3 filter, pad 1.
struct Fixture
{
    miopenHandle_t h;
    miopenTensorDescriptor_t x, w, y, y_wrong, w_half, bias_desc, bias_wrong;
    miopenConvolutionDescriptor_t c, c_groups3;
    miopenActivationDescriptor_t relu, clipped_relu;
    Outputs out;
    // MIOpen's solution ids per direction: naive direct, GEMM (test/mini-miopen's numbering, MIOpen's own)
    const uint64_t direct_id[3] = {85, 86, 87};
    const uint64_t gemm_id[3]   = {91, 97, 102};

    Fixture()
    {
        must(miopenCreate(&h), "create handle");
        x          = tensor(miopenFloat, {2, 4, 6, 6});
        w          = tensor(miopenFloat, {4, 4, 3, 3});
        y          = tensor(miopenFloat, {2, 4, 6, 6});
        y_wrong    = tensor(miopenFloat, {2, 4, 5, 5});
        w_half     = tensor(miopenHalf, {4, 4, 3, 3});
        bias_desc  = tensor(miopenFloat, {1, 4, 1, 1});
        bias_wrong = tensor(miopenFloat, {1, 5, 1, 1});
        c          = convolution(1);
        c_groups3  = convolution(3);
        must(miopenCreateActivationDescriptor(&relu), "create activation");
        must(miopenSetActivationDescriptor(relu, miopenActivationRELU, 0.0, 0.0, 0.0), "set activation");
        must(miopenCreateActivationDescriptor(&clipped_relu), "create activation");
        must(miopenSetActivationDescriptor(clipped_relu, miopenActivationCLIPPEDRELU, 6.0, 0.0, 0.0),
             "set activation");
        out.x.resize(2 * 4 * 6 * 6);
        out.w.resize(4 * 4 * 3 * 3);
        out.y.resize(2 * 4 * 6 * 6);
        out.bias.resize(4);
    }
    Fixture(const Fixture&)            = delete;
    Fixture& operator=(const Fixture&) = delete;
    // Everything it created is destroyed (the sanitizer tree's LeakSanitizer
    // fails a process that leaks).
    ~Fixture()
    {
        for(auto* t : {x, w, y, y_wrong, w_half, bias_desc, bias_wrong})
            miopenDestroyTensorDescriptor(t);
        miopenDestroyConvolutionDescriptor(c);
        miopenDestroyConvolutionDescriptor(c_groups3);
        miopenDestroyActivationDescriptor(relu);
        miopenDestroyActivationDescriptor(clipped_relu);
        miopenDestroy(h);
    }

    Args valid()
    {
        Args a{};
        a.h = h, a.x = x, a.w = w, a.y = y, a.c = c;
        a.xb = out.x.data(), a.wb = out.w.data(), a.yb = out.y.data();
        a.ws = nullptr, a.ws_size = 0, a.algo = direct, a.alpha = 1.0f;
        a.size_out = &out.size, a.request = 4, a.returned = &out.returned, a.perf = out.perf;
        a.max = 4, a.solutions = out.solutions;
        a.alpha1 = 1.0f, a.z_desc = y, a.bias_desc = bias_desc, a.bias = out.bias.data(), a.z = nullptr;
        a.activation = relu;
        return a;
    }

    // The workspace MIOpen's GEMM solution needs for the problem (asked of the
    // library under test, so both runs use the answer they get).
    // The workspace MIOpen documents for miopenConvolutionBiasActivationForward.
    size_t forward_workspace()
    {
        Args a      = valid();
        size_t size = 0;
        a.size_out  = &size;
        must(workspace_size(Fwd, a), "forward workspace size");
        return size;
    }

    size_t gemm_need(Dir d)
    {
        Args a      = valid();
        size_t need = 0;
        a.id = gemm_id[d], a.size_out = &need;
        must(solution_workspace(d, a), "GEMM solution workspace");
        return need;
    }
};

// Cases shared by every entry point: the descriptors.
std::vector<Case> descriptor_cases(const Fixture& f)
{
    return {
        {"null handle", [](Args& a) { a.h = nullptr; }},
        {"null xDesc", [](Args& a) { a.x = nullptr; }},
        {"wrong y dims", [&f](Args& a) { a.y = f.y_wrong; }},
        {"groups 3 of 4 channels", [&f](Args& a) { a.c = f.c_groups3; }},
        {"fp16 w with fp32 x, y", [&f](Args& a) { a.w = f.w_half; }},
    };
}

// Workspace cases for a call that runs MIOpen's GEMM solver (`need` > 0 bytes).
std::vector<Case> workspace_cases(Fixture& f, size_t need, Change gemm)
{
    auto ws = f.out.ws.data();
    return {
        {"valid GEMM, exact workspace", [=](Args& a) { gemm(a), a.ws = ws, a.ws_size = need; }},
        {"GEMM, workspace 1 byte short", [=](Args& a) { gemm(a), a.ws = ws, a.ws_size = need - 1; }},
        {"GEMM, null workspace of size 0", [=](Args& a) { gemm(a), a.ws = nullptr, a.ws_size = 0; }},
        {"GEMM, null workspace of the size", [=](Args& a) { gemm(a), a.ws = nullptr, a.ws_size = need; }},
    };
}

void append(std::vector<Case>& to, std::vector<Case> more)
{
    for(auto& c : more)
        to.push_back(std::move(c));
}

int run_cases(Fixture& f, Dir d, const char* entry, Call call, std::vector<Case> cases)
{
    int invalid_succeeded = 0;
    for(const auto& c : cases)
    {
        const consumer::ParityCase pc(dir_names[d], entry, c.label);
        f.out.reset();
        Args a = f.valid();
        c.change(a);
        const miopenStatus_t s = call(d, a);
        invalid_succeeded += pc.report(s, f.out.hash()) ? 1 : 0;
    }
    return invalid_succeeded;
}

} // namespace

int main()
{
    Fixture f;
    size_t largest = 0;
    size_t need[3];
    for(Dir d : {Fwd, Bwd, Wrw})
        largest = std::max(largest, need[d] = f.gemm_need(d));
    if(largest == 0)
    {
        std::fprintf(stderr, "parity_consumer: the GEMM solutions need no workspace; the workspace cases test nothing\n");
        return 2;
    }
    const size_t fused_ws = f.forward_workspace();
    f.out.ws.resize(std::max(largest, fused_ws));
    int bad = 0;
    for(Dir d : {Fwd, Bwd, Wrw})
    {
        const uint64_t gemm_id = f.gemm_id[d], direct_id = f.direct_id[d], other_id = f.direct_id[(d + 1) % 3];
        auto use_gemm          = [](Args& a) { a.algo = gemm; };
        auto use_gemm_id       = [gemm_id](Args& a) { a.id = gemm_id; };
        auto with_direct_id    = [direct_id](Args& a) { a.id = direct_id; };

        std::vector<Case> cases = {
            {"valid", [](Args&) {}},
            {"algo 99", [](Args& a) { a.algo = 99; }},
            {"algo FFT (not available)", [](Args& a) { a.algo = 2; }},
            {"null x buffer", [](Args& a) { a.xb = nullptr; }},
            {"null w buffer", [](Args& a) { a.wb = nullptr; }},
            {"null y buffer", [](Args& a) { a.yb = nullptr; }},
            {"alpha 2 on a 2-D problem", [](Args& a) { a.alpha = 2.0f; }},
        };
        append(cases, workspace_cases(f, need[d], use_gemm));
        append(cases, descriptor_cases(f));
        bad += run_cases(f, d, "legacy", compute, cases);

        cases = {
            {"valid", with_direct_id},
            {"solution id 12345", [](Args& a) { a.id = 12345; }},
            {"another direction's solution id", [other_id](Args& a) { a.id = other_id; }},
            {"null y buffer", [direct_id](Args& a) { a.id = direct_id, a.yb = nullptr; }},
        };
        append(cases, workspace_cases(f, need[d], use_gemm_id));
        for(auto& c : descriptor_cases(f))
            cases.push_back({c.label, [=](Args& a) { a.id = direct_id, c.change(a); }});
        bad += run_cases(f, d, "Immediate", immediate, cases);

        cases = {{"valid", [](Args&) {}}, {"null out", [](Args& a) { a.size_out = nullptr; }}};
        append(cases, descriptor_cases(f));
        bad += run_cases(f, d, "GetWorkSpaceSize", workspace_size, cases);
        bad += run_cases(f, d, "GetSolutionCount", solution_count, cases);

        cases = {
            {"valid", [](Args&) {}},
            {"requestAlgoCount 0", [](Args& a) { a.request = 0; }},
            {"null returnedAlgoCount", [](Args& a) { a.returned = nullptr; }},
            {"null perfResults", [](Args& a) { a.perf = nullptr; }},
            {"null x buffer", [](Args& a) { a.xb = nullptr; }},
            {"null y buffer", [](Args& a) { a.yb = nullptr; }},
        };
        append(cases, descriptor_cases(f));
        bad += run_cases(f, d, "Find", find, cases);

        cases = {
            {"valid", [](Args&) {}},
            {"maxSolutionCount 0", [](Args& a) { a.max = 0; }},
            {"null solutions", [](Args& a) { a.solutions = nullptr; }},
            {"null solutionCount", [](Args& a) { a.size_out = nullptr; }},
        };
        append(cases, descriptor_cases(f));
        bad += run_cases(f, d, "GetSolution", solutions, cases);

        for(auto [entry, call] : {std::pair<const char*, Call>{"GetSolutionWorkspaceSize", solution_workspace},
                                  std::pair<const char*, Call>{"CompileSolution", compile}})
        {
            cases = {
                {"valid", with_direct_id},
                {"solution id 12345", [](Args& a) { a.id = 12345; }},
                {"another direction's solution id", [other_id](Args& a) { a.id = other_id; }},
            };
            if(call == solution_workspace)
                cases.push_back({"null out", [direct_id](Args& a) { a.id = direct_id, a.size_out = nullptr; }});
            for(auto& c : descriptor_cases(f))
                cases.push_back({c.label, [=](Args& a) { a.id = direct_id, c.change(a); }});
            bad += run_cases(f, d, entry, call, cases);
        }
    }

    auto* ws_data           = f.out.ws.data();
    std::vector<Case> cases = {
        {"valid, the forward workspace size", [=](Args& a) { a.ws = ws_data, a.ws_size = fused_ws; }},
        {"activation CLIPPEDRELU (MIOpen: RELU only)", [&f](Args& a) { a.activation = f.clipped_relu; }},
        {"null zDesc (z null too)", [](Args& a) { a.z_desc = nullptr; }},
        {"null biasDesc and bias", [](Args& a) { a.bias_desc = nullptr, a.bias = nullptr; }},
        {"algo 99", [](Args& a) { a.algo = 99; }},
        {"algo FFT (not available)", [](Args& a) { a.algo = 2; }},
        {"alpha1 2", [](Args& a) { a.alpha1 = 2.0f; }},
        {"bias of 5 channels for 4", [&f](Args& a) { a.bias_desc = f.bias_wrong; }},
        {"null biasDesc with a bias", [](Args& a) { a.bias_desc = nullptr; }},
        {"null activationDesc", [](Args& a) { a.activation = nullptr; }},
        {"null x buffer", [](Args& a) { a.xb = nullptr; }},
        {"declined: z given (y += z: MIOpen computes it)", [](Args& a) { a.z = a.xb; }},
    };
    append(cases, workspace_cases(f, need[Fwd], [](Args& a) { a.algo = gemm; }));
    append(cases, descriptor_cases(f));
    // MIOpen runs the one-call form as a plan with a z addition, which no
    // fused solver without Composable Kernel takes (UnsupportedOp); hipDNN
    // runs it (check_parity.py's NO_KERNEL).
    const std::string valid = "valid";
    for(auto& c : cases)
        if(c.label.compare(0, valid.size(), valid) == 0)
        {
            const auto rest = c.label.substr(valid.size());
            c.label = "valid where MIOpen has no kernel," + (rest.rfind(',', 0) == 0 ? rest.substr(1) : rest);
        }
    bad += run_cases(f, Fwd, "ConvolutionBiasActivation", bias_activation, cases);

    if(bad > 0)
        std::fprintf(stderr, "parity_consumer: %d case(s) meant to be invalid succeeded\n", bad);
    return bad > 0 ? 1 : 0;
}
