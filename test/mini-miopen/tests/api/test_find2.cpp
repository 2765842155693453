// The Find 2.0 problem API: solutions against the legacy compute calls, the
// find options, save/load, and MIOpen's statuses (test/mini-miopen/README.md,
// "Find 2.0").
#include "common.hpp"

#include <algorithm>
#include <cstring>

namespace {

const float kOne = 1.0f, kZero = 0.0f;

// x 2x3x6x6, w 4x3x3x3, pad 1, stride 1 -> y 2x4x6x6; values are small
// integers, so every solver computes them exactly.
struct Case
{
    mmt::Tensor x{miopenFloat, {2, 3, 6, 6}};
    mmt::Tensor w{miopenFloat, {4, 3, 3, 3}};
    mmt::Tensor y{miopenFloat, {2, 4, 6, 6}};
    mmt::Conv conv{1, 1, 1};
    std::vector<float> xv, wv, yv;
    Case()
    {
        for(int i = 0; i < 216; ++i)
            xv.push_back(static_cast<float>((i * 7) % 9) - 4.0f);
        for(int i = 0; i < 108; ++i)
            wv.push_back(static_cast<float>((i * 5) % 7) - 3.0f);
        for(int i = 0; i < 288; ++i)
            yv.push_back(static_cast<float>((i * 3) % 5) - 2.0f);
    }
};

struct Problem
{
    miopenProblem_t p = nullptr;
    Problem(const Case& c, miopenProblemDirection_t dir)
    {
        EXPECT_EQ(miopenCreateConvProblem(&p, c.conv, dir), miopenStatusSuccess);
        EXPECT_EQ(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionX, c.x), miopenStatusSuccess);
        EXPECT_EQ(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionW, c.w), miopenStatusSuccess);
        EXPECT_EQ(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionY, c.y), miopenStatusSuccess);
    }
    ~Problem() { EXPECT_EQ(miopenDestroyProblem(p), miopenStatusSuccess); }
    Problem(const Problem&) = delete;
    Problem& operator=(const Problem&) = delete;
    operator miopenProblem_t() const { return p; }
};

struct Options
{
    miopenFindOptions_t o = nullptr;
    Options() { EXPECT_EQ(miopenCreateFindOptions(&o), miopenStatusSuccess); }
    ~Options() { EXPECT_EQ(miopenDestroyFindOptions(o), miopenStatusSuccess); }
    Options(const Options&) = delete;
    Options& operator=(const Options&) = delete;
    operator miopenFindOptions_t() const { return o; }
};

// The solutions a search returns, destroyed with the object.
struct Found
{
    std::vector<miopenSolution_t> s = std::vector<miopenSolution_t>(8, nullptr);
    size_t n                        = 0;
    miopenStatus_t status;
    Found(miopenHandle_t h, miopenProblem_t p, miopenFindOptions_t o, size_t max = 8)
        : status(miopenFindSolutions(h, p, o, s.data(), &n, max))
    {
    }
    ~Found()
    {
        for(size_t i = 0; i < n; ++i)
            EXPECT_EQ(miopenDestroySolution(s[i]), miopenStatusSuccess);
    }
    Found(const Found&) = delete;
    Found& operator=(const Found&) = delete;
};

template <class T>
T Get(miopenSolution_t s, miopenStatus_t (*getter)(miopenSolution_t, T*))
{
    T v{};
    EXPECT_EQ(getter(s, &v), miopenStatusSuccess);
    return v;
}

miopenConvAlgorithm_t AlgorithmOf(miopenSolution_t s)
{
    miopenConvAlgorithm_t a{};
    EXPECT_EQ(miopenGetSolverIdConvAlgorithm(Get(s, miopenGetSolutionSolverId), &a),
              miopenStatusSuccess);
    return a;
}

// Runs a solution with X, W, Y bound to the case's buffers, out written.
miopenStatus_t RunOn(miopenHandle_t h, miopenSolution_t s, Case& c, std::vector<float>& out,
                   miopenProblemDirection_t dir)
{
    std::vector<float> x = c.xv, w = c.wv, y = c.yv;
    auto& target = dir == miopenProblemDirectionForward ? y : dir == miopenProblemDirectionBackward ? x : w;
    std::vector<char> ws(Get(s, miopenGetSolutionWorkspaceSize));
    const miopenTensorArgument_t args[] = {{miopenTensorConvolutionX, nullptr, x.data()},
                                           {miopenTensorConvolutionW, nullptr, w.data()},
                                           {miopenTensorConvolutionY, nullptr, y.data()}};
    const auto status = miopenRunSolution(h, s, 3, args, ws.data(), ws.size());
    out = target;
    return status;
}

// The same through the legacy compute call of the direction and algorithm.
std::vector<float> Legacy(miopenHandle_t h, Case& c, miopenProblemDirection_t dir, miopenConvAlgorithm_t a)
{
    std::vector<char> ws(4096);
    std::vector<float> out;
    switch(dir)
    {
    case miopenProblemDirectionForward:
        out.resize(c.yv.size());
        EXPECT_EQ(miopenConvolutionForward(h, &kOne, c.x, c.xv.data(), c.w, c.wv.data(), c.conv,
                                           static_cast<miopenConvFwdAlgorithm_t>(a), &kZero, c.y,
                                           out.data(), ws.data(), ws.size()),
                  miopenStatusSuccess);
        break;
    case miopenProblemDirectionBackward:
        out.resize(c.xv.size());
        EXPECT_EQ(miopenConvolutionBackwardData(h, &kOne, c.y, c.yv.data(), c.w, c.wv.data(), c.conv,
                                                static_cast<miopenConvBwdDataAlgorithm_t>(a), &kZero,
                                                c.x, out.data(), ws.data(), ws.size()),
                  miopenStatusSuccess);
        break;
    default:
        out.resize(c.wv.size());
        EXPECT_EQ(miopenConvolutionBackwardWeights(h, &kOne, c.y, c.yv.data(), c.x, c.xv.data(), c.conv,
                                                   static_cast<miopenConvBwdWeightsAlgorithm_t>(a),
                                                   &kZero, c.w, out.data(), ws.data(), ws.size()),
                  miopenStatusSuccess);
    }
    return out;
}

class Find2 : public testing::Test
{
protected:
    std::string dir = mmt::MakeTempDir("find2");
    mmt::ScopedEnv db{"MIOPEN_USER_DB_PATH", dir.c_str()};
    mmt::Handle h;
    Case c;
};

} // namespace

TEST_F(Find2, EveryDirectionsSolutionsComputeWhatTheLegacyCallsCompute)
{
    const std::pair<miopenProblemDirection_t, std::vector<uint64_t>> dirs[] = {
        {miopenProblemDirectionForward, {85, 91}},
        {miopenProblemDirectionBackward, {86, 97}},
        {miopenProblemDirectionBackwardWeights, {87, 102}}};
    for(const auto& [d, ids] : dirs)
    {
        Problem p(c, d);
        Found f(h, p, nullptr);
        ASSERT_EQ(f.status, miopenStatusSuccess);
        ASSERT_EQ(f.n, 2u) << "direction " << d;
        std::vector<uint64_t> got;
        for(size_t i = 0; i < f.n; ++i)
        {
            got.push_back(Get(f.s[i], miopenGetSolutionSolverId));
            EXPECT_GE(Get(f.s[i], miopenGetSolutionTime), 0.0f);
            const auto algo = AlgorithmOf(f.s[i]);
            EXPECT_EQ(Get(f.s[i], miopenGetSolutionWorkspaceSize) > 0, algo == miopenConvolutionAlgoGEMM);
            std::vector<float> out;
            ASSERT_EQ(RunOn(h, f.s[i], c, out, d), miopenStatusSuccess);
            EXPECT_EQ(out, Legacy(h, c, d, algo)) << "direction " << d << ", solver " << got.back();
        }
        std::sort(got.begin(), got.end());
        EXPECT_EQ(got, ids);
        // Ordered by time, the default.
        EXPECT_LE(Get(f.s[0], miopenGetSolutionTime), Get(f.s[1], miopenGetSolutionTime));
    }
}

TEST_F(Find2, ResultsOrderMaxSolutionsAndOutputs)
{
    Problem p(c, miopenProblemDirectionForward);
    Options o;
    ASSERT_EQ(miopenSetFindOptionResultsOrder(o, miopenFindResultsOrderByWorkspaceSize), miopenStatusSuccess);
    {
        Found f(h, p, o);
        ASSERT_EQ(f.n, 2u);
        EXPECT_EQ(Get(f.s[0], miopenGetSolutionWorkspaceSize), 0u);
        EXPECT_GT(Get(f.s[1], miopenGetSolutionWorkspaceSize), 0u);
    }
    {
        Found f(h, p, o, 1);
        EXPECT_EQ(f.n, 1u);
    }
    // No solutions wanted: nothing is written, not even through a null array.
    size_t n = 99;
    EXPECT_EQ(miopenFindSolutions(h, p, o, nullptr, &n, 0), miopenStatusSuccess);
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(miopenFindSolutions(h, p, o, nullptr, &n, 2), miopenStatusBadParm);
    miopenSolution_t one = nullptr;
    ASSERT_EQ(miopenFindSolutions(h, p, nullptr, &one, nullptr, 1), miopenStatusSuccess);
    EXPECT_NE(one, nullptr);
    EXPECT_EQ(miopenDestroySolution(one), miopenStatusSuccess);
    // Any order value is stored; the search refuses an unknown one.
    ASSERT_EQ(miopenSetFindOptionResultsOrder(o, static_cast<miopenFindResultsOrder_t>(7)),
              miopenStatusSuccess);
    Found bad(h, p, o);
    EXPECT_EQ(bad.status, miopenStatusNotImplemented);
    EXPECT_EQ(bad.n, 0u);
}

// The GEMM solvers need a workspace; the search skips them when it may not
// have one, and a find-db record (written by the first search) is returned
// whatever the limit, as in MIOpen.
TEST_F(Find2, WorkspaceLimitAndPreallocatedWorkspace)
{
    Problem p(c, miopenProblemDirectionForward);
    {
        Options o;
        ASSERT_EQ(miopenSetFindOptionWorkspaceLimit(o, 0), miopenStatusSuccess);
        Found f(h, p, o);
        ASSERT_EQ(f.n, 1u);
        EXPECT_EQ(AlgorithmOf(f.s[0]), miopenConvolutionAlgoDirect);
    }
    {
        const auto other = mmt::MakeTempDir("find2-prealloc");
        mmt::ScopedEnv fresh("MIOPEN_USER_DB_PATH", other.c_str());
        Options o;
        std::vector<char> small(8);
        ASSERT_EQ(miopenSetFindOptionPreallocatedWorkspace(o, small.data(), small.size()),
                  miopenStatusSuccess);
        Found f(h, p, o);
        ASSERT_EQ(f.n, 1u);
        EXPECT_EQ(AlgorithmOf(f.s[0]), miopenConvolutionAlgoDirect);
    }
    Options unlimited;
    Found recorded(h, p, unlimited);
    EXPECT_EQ(recorded.n, 1u) << "the first search recorded the direct solver only";
}

// The search runs on the caller's buffers when given: the output is written.
TEST_F(Find2, PreallocatedTensorsAreUsedBySearch)
{
    Problem p(c, miopenProblemDirectionForward);
    Options o;
    std::vector<float> y(c.yv.size(), 12345.0f), other(c.yv.size(), 0.0f);
    const std::pair<miopenTensorArgumentId_t, void*> buffers[] = {{miopenTensorConvolutionX, c.xv.data()},
                                                                  {miopenTensorConvolutionW, c.wv.data()},
                                                                  {miopenTensorConvolutionY, y.data()}};
    for(const auto& [id, buffer] : buffers)
        ASSERT_EQ(miopenSetFindOptionPreallocatedTensor(o, id, buffer), miopenStatusSuccess);
    // The first buffer given for an id stays.
    ASSERT_EQ(miopenSetFindOptionPreallocatedTensor(o, miopenTensorConvolutionY, other.data()),
              miopenStatusSuccess);
    ASSERT_EQ(miopenSetFindOptionTuning(o, 1), miopenStatusSuccess);
    ASSERT_EQ(miopenSetFindOptionAttachBinaries(o, 1), miopenStatusSuccess);
    Found f(h, p, o);
    ASSERT_EQ(f.status, miopenStatusSuccess);
    EXPECT_EQ(y, Legacy(h, c, miopenProblemDirectionForward, miopenConvolutionAlgoDirect));
    EXPECT_EQ(other, std::vector<float>(c.yv.size(), 0.0f));
}

TEST_F(Find2, ProblemErrors)
{
    miopenProblem_t p = nullptr;
    EXPECT_EQ(miopenCreateConvProblem(nullptr, c.conv, miopenProblemDirectionForward), miopenStatusBadParm);
    // MIOpen writes the new problem out before it reads the descriptor.
    EXPECT_EQ(miopenCreateConvProblem(&p, nullptr, miopenProblemDirectionForward), miopenStatusBadParm);
    EXPECT_NE(p, nullptr);
    EXPECT_EQ(miopenDestroyProblem(p), miopenStatusSuccess);
    EXPECT_EQ(miopenDestroyProblem(nullptr), miopenStatusSuccess);

    ASSERT_EQ(miopenCreateConvProblem(&p, c.conv, miopenProblemDirectionForward), miopenStatusSuccess);
    EXPECT_EQ(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionX, c.x), miopenStatusSuccess);
    EXPECT_EQ(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionX, c.y), miopenStatusBadParm);
    EXPECT_EQ(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionW, nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenSetProblemTensorDescriptor(nullptr, miopenTensorConvolutionW, c.w), miopenStatusBadParm);
    EXPECT_EQ(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionW, c.w), miopenStatusSuccess);
    {
        Found missing_y(h, p, nullptr);
        EXPECT_EQ(missing_y.status, miopenStatusInvalidValue);
    }
    // A fourth descriptor, of any id, is one too many.
    ASSERT_EQ(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionY, c.y), miopenStatusSuccess);
    ASSERT_EQ(miopenSetProblemTensorDescriptor(p, miopenTensorMhaK, c.y), miopenStatusSuccess);
    {
        Found four(h, p, nullptr);
        EXPECT_EQ(four.status, miopenStatusInvalidValue);
    }
    EXPECT_EQ(miopenDestroyProblem(p), miopenStatusSuccess);

    // Shapes that do not make a convolution; a direction that is none.
    mmt::Tensor wrong_y(miopenFloat, {2, 4, 5, 5});
    ASSERT_EQ(miopenCreateConvProblem(&p, c.conv, miopenProblemDirectionBackwardWeights),
              miopenStatusSuccess);
    ASSERT_EQ(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionX, c.x), miopenStatusSuccess);
    ASSERT_EQ(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionW, c.w), miopenStatusSuccess);
    ASSERT_EQ(miopenSetProblemTensorDescriptor(p, miopenTensorConvolutionY, wrong_y), miopenStatusSuccess);
    {
        Found bad(h, p, nullptr);
        EXPECT_EQ(bad.status, miopenStatusBadParm);
    }
    EXPECT_EQ(miopenDestroyProblem(p), miopenStatusSuccess);
    Problem inference(c, static_cast<miopenProblemDirection_t>(4));
    Found none(h, inference, nullptr);
    EXPECT_EQ(none.status, miopenStatusNotImplemented);
    EXPECT_EQ(miopenFindSolutions(nullptr, inference, nullptr, none.s.data(), nullptr, 1),
              miopenStatusBadParm);
    EXPECT_EQ(miopenFindSolutions(h, nullptr, nullptr, none.s.data(), nullptr, 1), miopenStatusBadParm);
}

TEST_F(Find2, OptionErrors)
{
    EXPECT_EQ(miopenCreateFindOptions(nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenDestroyFindOptions(nullptr), miopenStatusSuccess);
    EXPECT_EQ(miopenSetFindOptionTuning(nullptr, 1), miopenStatusBadParm);
    EXPECT_EQ(miopenSetFindOptionResultsOrder(nullptr, miopenFindResultsOrderByTime), miopenStatusBadParm);
    EXPECT_EQ(miopenSetFindOptionWorkspaceLimit(nullptr, 1), miopenStatusBadParm);
    EXPECT_EQ(miopenSetFindOptionPreallocatedWorkspace(nullptr, nullptr, 0), miopenStatusBadParm);
    EXPECT_EQ(miopenSetFindOptionPreallocatedTensor(nullptr, miopenTensorConvolutionX, nullptr),
              miopenStatusBadParm);
    EXPECT_EQ(miopenSetFindOptionAttachBinaries(nullptr, 0), miopenStatusBadParm);
}

TEST_F(Find2, RunSolutionArguments)
{
    Problem p(c, miopenProblemDirectionForward);
    Options o;
    ASSERT_EQ(miopenSetFindOptionResultsOrder(o, miopenFindResultsOrderByWorkspaceSize), miopenStatusSuccess);
    Found f(h, p, o);
    ASSERT_EQ(f.n, 2u);
    miopenSolution_t gemm = f.s[1];
    const auto needed     = Get(gemm, miopenGetSolutionWorkspaceSize);
    std::vector<float> y(c.yv.size());
    std::vector<char> ws(needed);
    miopenTensorArgument_t args[] = {{miopenTensorConvolutionX, nullptr, c.xv.data()},
                                     {miopenTensorConvolutionW, nullptr, c.wv.data()},
                                     {miopenTensorConvolutionY, nullptr, y.data()}};
    EXPECT_EQ(miopenRunSolution(h, gemm, 3, args, ws.data(), needed - 1), miopenStatusBadParm);
    EXPECT_EQ(miopenRunSolution(h, gemm, 2, args, ws.data(), needed), miopenStatusInvalidValue);
    EXPECT_EQ(miopenRunSolution(h, gemm, 3, nullptr, ws.data(), needed), miopenStatusBadParm);
    EXPECT_EQ(miopenRunSolution(h, gemm, 0, nullptr, ws.data(), needed), miopenStatusInvalidValue);
    EXPECT_EQ(miopenRunSolution(nullptr, gemm, 3, args, ws.data(), needed), miopenStatusBadParm);
    EXPECT_EQ(miopenRunSolution(h, nullptr, 3, args, ws.data(), needed), miopenStatusBadParm);
    ASSERT_EQ(miopenRunSolution(h, gemm, 3, args, ws.data(), needed), miopenStatusSuccess);
    EXPECT_EQ(y, Legacy(h, c, miopenProblemDirectionForward, miopenConvolutionAlgoGEMM));

    // Descriptors given with the arguments replace the problem's: half the batch.
    mmt::Tensor x1(miopenFloat, {1, 3, 6, 6}), y1(miopenFloat, {1, 4, 6, 6});
    miopenTensorDescriptor_t xd = x1, yd = y1;
    std::vector<float> half_y(y.size() / 2, -1.0f);
    miopenTensorArgument_t smaller[] = {{miopenTensorConvolutionX, &xd, c.xv.data()},
                                        {miopenTensorConvolutionW, nullptr, c.wv.data()},
                                        {miopenTensorConvolutionY, &yd, half_y.data()},
                                        {miopenTensorConvolutionY, nullptr, y.data()}};
    ASSERT_EQ(miopenRunSolution(h, f.s[0], 4, smaller, nullptr, 0), miopenStatusSuccess);
    EXPECT_EQ(half_y, std::vector<float>(y.begin(), y.begin() + static_cast<long>(half_y.size())));
    miopenTensorDescriptor_t null_desc = nullptr;
    smaller[0].descriptor              = &null_desc;
    EXPECT_EQ(miopenRunSolution(h, f.s[0], 3, smaller, nullptr, 0), miopenStatusBadParm);
}

TEST_F(Find2, SaveAndLoad)
{
    Problem p(c, miopenProblemDirectionBackwardWeights);
    Found f(h, p, nullptr);
    ASSERT_EQ(f.n, 2u);
    for(size_t i = 0; i < f.n; ++i)
    {
        size_t size = 0;
        ASSERT_EQ(miopenGetSolutionSize(f.s[i], &size), miopenStatusSuccess);
        ASSERT_GT(size, 16u);
        std::vector<char> blob(size);
        ASSERT_EQ(miopenSaveSolution(f.s[i], blob.data()), miopenStatusSuccess);
        miopenSolution_t loaded = nullptr;
        ASSERT_EQ(miopenLoadSolution(&loaded, blob.data(), blob.size()), miopenStatusSuccess);
        EXPECT_EQ(Get(loaded, miopenGetSolutionSolverId), Get(f.s[i], miopenGetSolutionSolverId));
        EXPECT_EQ(Get(loaded, miopenGetSolutionWorkspaceSize), Get(f.s[i], miopenGetSolutionWorkspaceSize));
        EXPECT_EQ(Get(loaded, miopenGetSolutionTime), Get(f.s[i], miopenGetSolutionTime));
        std::vector<float> original, again;
        ASSERT_EQ(RunOn(h, f.s[i], c, original, miopenProblemDirectionBackwardWeights), miopenStatusSuccess);
        ASSERT_EQ(RunOn(h, loaded, c, again, miopenProblemDirectionBackwardWeights), miopenStatusSuccess);
        EXPECT_EQ(again, original);
        // A loaded solution saves to the same bytes.
        size_t size2 = 0;
        ASSERT_EQ(miopenGetSolutionSize(loaded, &size2), miopenStatusSuccess);
        std::vector<char> blob2(size2);
        ASSERT_EQ(miopenSaveSolution(loaded, blob2.data()), miopenStatusSuccess);
        EXPECT_EQ(blob2, blob);
        EXPECT_EQ(miopenDestroySolution(loaded), miopenStatusSuccess);
    }
}

TEST_F(Find2, SaveAndLoadErrors)
{
    Problem p(c, miopenProblemDirectionForward);
    Found f(h, p, nullptr, 1);
    ASSERT_EQ(f.n, 1u);
    size_t size = 0;
    ASSERT_EQ(miopenGetSolutionSize(f.s[0], &size), miopenStatusSuccess);
    std::vector<char> blob(size);
    ASSERT_EQ(miopenSaveSolution(f.s[0], blob.data()), miopenStatusSuccess);
    EXPECT_EQ(miopenSaveSolution(f.s[0], nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenSaveSolution(nullptr, blob.data()), miopenStatusBadParm);
    EXPECT_EQ(miopenGetSolutionSize(f.s[0], nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenGetSolutionSize(nullptr, &size), miopenStatusBadParm);

    miopenSolution_t loaded = nullptr;
    EXPECT_EQ(miopenLoadSolution(&loaded, nullptr, size), miopenStatusBadParm);
    EXPECT_EQ(miopenLoadSolution(nullptr, blob.data(), size), miopenStatusBadParm);
    // Not parseable: MIOpen's MessagePack parser throws (unknown error).
    EXPECT_EQ(miopenLoadSolution(&loaded, blob.data(), 8), miopenStatusUnknownError);
    auto garbage = blob;
    std::memset(garbage.data() + 16, '#', garbage.size() - 16);
    EXPECT_EQ(miopenLoadSolution(&loaded, garbage.data(), garbage.size()), miopenStatusUnknownError);
    // The header: validation number, then the format version.
    auto invalid = blob;
    invalid[0] ^= 1;
    EXPECT_EQ(miopenLoadSolution(&loaded, invalid.data(), invalid.size()), miopenStatusInvalidValue);
    auto other_version = blob;
    other_version[8] = 2;
    EXPECT_EQ(miopenLoadSolution(&loaded, other_version.data(), other_version.size()),
              miopenStatusVersionMismatch);
    EXPECT_EQ(loaded, nullptr);
}

TEST_F(Find2, GettersAndSolverIds)
{
    Problem p(c, miopenProblemDirectionForward);
    Found f(h, p, nullptr, 1);
    ASSERT_EQ(f.n, 1u);
    EXPECT_EQ(miopenGetSolutionWorkspaceSize(f.s[0], nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenGetSolutionTime(f.s[0], nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenGetSolutionSolverId(f.s[0], nullptr), miopenStatusBadParm);
    size_t ws;
    float t;
    uint64_t id;
    EXPECT_EQ(miopenGetSolutionWorkspaceSize(nullptr, &ws), miopenStatusBadParm);
    EXPECT_EQ(miopenGetSolutionTime(nullptr, &t), miopenStatusBadParm);
    EXPECT_EQ(miopenGetSolutionSolverId(nullptr, &id), miopenStatusBadParm);
    EXPECT_EQ(miopenDestroySolution(nullptr), miopenStatusSuccess);

    miopenConvAlgorithm_t a;
    const std::pair<uint64_t, miopenConvAlgorithm_t> known[] = {
        {85, miopenConvolutionAlgoDirect}, {86, miopenConvolutionAlgoDirect},
        {87, miopenConvolutionAlgoDirect}, {91, miopenConvolutionAlgoGEMM},
        {97, miopenConvolutionAlgoGEMM},   {102, miopenConvolutionAlgoGEMM}};
    for(const auto& [solver, algo] : known)
    {
        ASSERT_EQ(miopenGetSolverIdConvAlgorithm(solver, &a), miopenStatusSuccess) << solver;
        EXPECT_EQ(a, algo) << solver;
    }
    // 0 is no solver; 12 is a fused solver, not a convolution one.
    EXPECT_EQ(miopenGetSolverIdConvAlgorithm(0, &a), miopenStatusInvalidValue);
    EXPECT_EQ(miopenGetSolverIdConvAlgorithm(12, &a), miopenStatusInvalidValue);
    EXPECT_EQ(miopenGetSolverIdConvAlgorithm(85, nullptr), miopenStatusBadParm);
}

namespace {

std::string FindThenRun()
{
    mmt::Handle h;
    Case c;
    Problem p(c, miopenProblemDirectionBackward);
    Found f(h, p, nullptr, 1);
    if(f.status != miopenStatusSuccess || f.n != 1)
        return "miopenFindSolutions failed";
    std::vector<float> out;
    return RunOn(h, f.s[0], c, out, miopenProblemDirectionBackward) == miopenStatusSuccess
               ? ""
               : "miopenRunSolution failed";
}

} // namespace

// The MIOpenDriver lines MIOpen logs: the search with -S 0, a run with its solver.
TEST(Find2Logging, DriverLinesOfSearchAndRun)
{
    const auto dir = mmt::MakeTempDir("find2-log");
    mmt::ScopedEnv db("MIOPEN_USER_DB_PATH", dir.c_str());
    const std::string dims = " -n 2 -c 3 -H 6 -W 6 -k 4 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1"
                             " -m conv -g 1 -F 2 -t 1";
    const std::string prefix = "MIOpen(HIP): Command [";
    const std::string driver = "] ./bin/MIOpenDriver conv" + dims + " -S ";
    const auto check = [&](const std::string& err) {
        const std::string find = prefix + "LogCmdFindConvolution" + driver + "0\n";
        if(err.find(find) == std::string::npos)
            return "no search line: " + find;
        const std::string run = prefix + "LogCmdConvolution" + driver;
        const auto at         = err.find(run);
        if(at == std::string::npos)
            return "no run line: " + run;
        const auto id = err.substr(at + run.size(), 2);
        return id == "86" || id == "97" ? std::string() : "run line names solver " + id;
    };
    mmt::ExpectStderrInFreshProcess("MIOPEN_ENABLE_LOGGING_CMD", "1", FindThenRun, check);
}
