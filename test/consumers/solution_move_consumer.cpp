// A Find 2.0 solution saved in one process and loaded in another, as a
// MIGraphX program compiled on one install and run on another
// (test/forwarding/check_solution_move.py).
//
//   save FILE   search (buffers given, so a forwarded search is hipDNN's),
//               write the first solution's blob to FILE and its workspace to FILE.ws
//   load FILE   load the blob, ask its workspace, run it with that much
//   load FILE --saved-workspace   ... run it with the workspace the saving
//               process reported instead (what a solution that lied would make a caller pass)
//
// Records: `saved` (workspace); `loaded` (the load's status, the workspace
// reported, its status); `call` (the run's status, the output's sum).
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "consumer_util.hpp"

namespace {

struct Conv
{
    consumer::Tensor x = consumer::tensor4d(2, 4, 9, 9);
    consumer::Tensor w = consumer::tensor4d(8, 4, 3, 3);
    consumer::Tensor y = consumer::tensor4d(2, 8, 9, 9);
    consumer::ConvDescriptor desc;
    std::vector<float> xs, ws, ys;

    Conv() : xs(2 * 4 * 9 * 9), ws(8 * 4 * 3 * 3), ys(2 * 8 * 9 * 9)
    {
        CHECK(miopenCreateConvolutionDescriptor(desc.out()));
        CHECK(miopenInitConvolutionDescriptor(desc, miopenConvolution, 1, 1, 1, 1, 1, 1));
        std::uint32_t seed = 11;
        for(auto* v : {&xs, &ws})
            for(float& e : *v)
                e = consumer::next_eighth(seed);
    }
};

int save(const std::string& file)
{
    Conv c;
    miopenHandle_t h;
    CHECK(miopenCreate(&h));
    miopenProblem_t problem;
    CHECK(miopenCreateConvProblem(&problem, c.desc, miopenProblemDirectionForward));
    CHECK(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionX, c.x));
    CHECK(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionW, c.w));
    CHECK(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionY, c.y));
    miopenFindOptions_t options;
    CHECK(miopenCreateFindOptions(&options));
    CHECK(miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionX, c.xs.data()));
    CHECK(miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionW, c.ws.data()));
    CHECK(miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionY, c.ys.data()));
    // Room for either engine's plan: a search that could not time its plan
    // in the workspace given would be MIOpen's.
    std::vector<char> room(1 << 20);
    CHECK(miopenSetFindOptionPreallocatedWorkspace(options, room.data(), room.size()));
    miopenSolution_t solution;
    size_t found = 0;
    CHECK(miopenFindSolutions(h, problem, options, &solution, &found, 1));
    size_t workspace = 0, size = 0;
    CHECK(miopenGetSolutionWorkspaceSize(solution, &workspace));
    CHECK(miopenGetSolutionSize(solution, &size));
    std::vector<char> blob(size);
    CHECK(miopenSaveSolution(solution, blob.data()));
    std::ofstream(file, std::ios::binary).write(blob.data(), std::streamsize(blob.size()));
    std::ofstream(file + ".ws") << workspace;
    protocol::Record("saved").field("workspace", static_cast<long long>(workspace)).emit();
    miopenDestroySolution(solution);
    miopenDestroyFindOptions(options);
    miopenDestroyProblem(problem);
    miopenDestroy(h);
    return 0;
}

int load(const std::string& file, bool saved_workspace)
{
    Conv c;
    std::ifstream in(file, std::ios::binary);
    const std::vector<char> blob((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    miopenSolution_t solution;
    const miopenStatus_t loaded = miopenLoadSolution(&solution, blob.data(), blob.size());
    size_t workspace            = 0;
    const miopenStatus_t asked =
        loaded == miopenStatusSuccess ? miopenGetSolutionWorkspaceSize(solution, &workspace) : loaded;
    protocol::Record("loaded")
        .field("status", static_cast<int>(loaded))
        .field("workspace_status", static_cast<int>(asked))
        .field("workspace", static_cast<long long>(workspace))
        .emit();
    if(loaded != miopenStatusSuccess || asked != miopenStatusSuccess)
    {
        protocol::Record("done").emit();
        return 0;
    }
    if(saved_workspace)
        std::ifstream(file + ".ws") >> workspace;
    miopenHandle_t h;
    CHECK(miopenCreate(&h));
    std::vector<char> ws(workspace);
    const miopenTensorArgument_t args[3] = {{miopenTensorConvolutionX, nullptr, c.xs.data()},
                                            {miopenTensorConvolutionW, nullptr, c.ws.data()},
                                            {miopenTensorConvolutionY, nullptr, c.ys.data()}};
    const miopenStatus_t s = miopenRunSolution(h, solution, 3, args, ws.empty() ? nullptr : ws.data(), workspace);
    double sum = 0;
    for(float v : c.ys)
        sum += v;
    consumer::report_call("miopenRunSolution", s, sum);
    miopenDestroySolution(solution);
    miopenDestroy(h);
    protocol::Record("done").emit();
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    if(argc >= 3 && std::strcmp(argv[1], "save") == 0)
    {
        const int r = save(argv[2]);
        protocol::Record("done").emit();
        return r;
    }
    if(argc >= 3 && std::strcmp(argv[1], "load") == 0)
        return load(argv[2], argc >= 4 && std::strcmp(argv[3], "--saved-workspace") == 0);
    std::fprintf(stderr, "usage: %s save|load FILE [--saved-workspace]\n", argv[0]);
    return 2;
}
