// The damaged-blob measurement (issue 34): a saved Find 2.0 solution, loaded
// back after one mutation, and run as a framework that trusts its cache would
// run it: with the workspace the loaded solution reports and no descriptors.
//
//   blob_mutation save DIR   search one forward convolution, save its solution
//                            to DIR/solution.bin and its result to DIR/y.bin
//   blob_mutation run BLOB DIR
//                            load BLOB and run it on the problem's own buffers
//                            (each allocated at exactly the problem's size);
//                            prints one verdict line
//
// The verdicts (check_blob_mutations.py counts them; a process killed by a
// signal is a crash): LOAD_REFUSED <status>, ABSURD_WORKSPACE <bytes>,
// RUN_REFUSED <status>, CORRECT, WRONG.
#include <miopen/miopen.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace {

// x 2x3x9x9, w 4x3x3x3, pad 1, stride 1: y 2x4x9x9 (fp32, packed NCHW).
constexpr int N = 2, C = 3, H = 9, W = 9, K = 4, R = 3;
constexpr size_t X_ELEMS = size_t(N) * C * H * W, W_ELEMS = size_t(K) * C * R * R, Y_ELEMS = size_t(N) * K * H * W;
// More than any plan of this problem could need: a reported workspace above
// it is absurd (the caller would be asked to allocate it).
constexpr size_t ABSURD = size_t(1) << 30;

void must(miopenStatus_t s, const char* what)
{
    if(s != miopenStatusSuccess)
    {
        std::fprintf(stderr, "blob_mutation: %s failed: %d\n", what, int(s));
        std::exit(2);
    }
}

miopenTensorDescriptor_t tensor(int n, int c, int h, int w)
{
    miopenTensorDescriptor_t d;
    must(miopenCreateTensorDescriptor(&d), "miopenCreateTensorDescriptor");
    must(miopenSet4dTensorDescriptor(d, miopenFloat, n, c, h, w), "miopenSet4dTensorDescriptor");
    return d;
}

// Each buffer its own heap block of exactly the problem's size, so a run
// that strays past one touches memory it was not given.
struct Buffers
{
    std::unique_ptr<float[]> x{new float[X_ELEMS]}, w{new float[W_ELEMS]}, y{new float[Y_ELEMS]};
    Buffers()
    {
        for(size_t i = 0; i < X_ELEMS; ++i)
            x[i] = float((i * 7) % 13) / 13.0f - 0.5f;
        for(size_t i = 0; i < W_ELEMS; ++i)
            w[i] = float((i * 5) % 11) / 11.0f - 0.5f;
        std::fill(y.get(), y.get() + Y_ELEMS, 0.0f);
    }
};

void write_file(const std::string& path, const void* data, size_t size)
{
    std::ofstream f(path, std::ios::binary);
    f.write(static_cast<const char*>(data), std::streamsize(size));
    if(!f)
    {
        std::fprintf(stderr, "blob_mutation: cannot write %s\n", path.c_str());
        std::exit(2);
    }
}

std::vector<char> read_file(const std::string& path)
{
    std::ifstream f(path, std::ios::binary);
    if(!f)
    {
        std::fprintf(stderr, "blob_mutation: cannot read %s\n", path.c_str());
        std::exit(2);
    }
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

miopenStatus_t run_solution(miopenHandle_t h, miopenSolution_t s, Buffers& b, void* ws, size_t ws_size)
{
    const miopenTensorArgument_t args[3] = {{miopenTensorConvolutionX, nullptr, b.x.get()},
                                            {miopenTensorConvolutionW, nullptr, b.w.get()},
                                            {miopenTensorConvolutionY, nullptr, b.y.get()}};
    return miopenRunSolution(h, s, 3, args, ws, ws_size);
}

int save(const std::string& dir, miopenHandle_t h)
{
    miopenConvolutionDescriptor_t conv;
    must(miopenCreateConvolutionDescriptor(&conv), "miopenCreateConvolutionDescriptor");
    must(miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 1, 1, 1, 1, 1), "miopenInitConvolutionDescriptor");
    miopenProblem_t problem;
    must(miopenCreateConvProblem(&problem, conv, miopenProblemDirectionForward), "miopenCreateConvProblem");
    must(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionX, tensor(N, C, H, W)), "x");
    must(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionW, tensor(K, C, R, R)), "w");
    must(miopenSetProblemTensorDescriptor(problem, miopenTensorConvolutionY, tensor(N, K, H, W)), "y");
    Buffers b;
    std::vector<char> ws(1 << 20);
    miopenFindOptions_t options;
    must(miopenCreateFindOptions(&options), "miopenCreateFindOptions");
    must(miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionX, b.x.get()), "prealloc x");
    must(miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionW, b.w.get()), "prealloc w");
    must(miopenSetFindOptionPreallocatedTensor(options, miopenTensorConvolutionY, b.y.get()), "prealloc y");
    must(miopenSetFindOptionPreallocatedWorkspace(options, ws.data(), ws.size()), "prealloc workspace");
    miopenSolution_t s;
    size_t found = 0;
    must(miopenFindSolutions(h, problem, options, &s, &found, 1), "miopenFindSolutions");
    size_t need = 0;
    must(miopenGetSolutionWorkspaceSize(s, &need), "miopenGetSolutionWorkspaceSize");
    std::vector<char> run_ws(need + 1);
    must(run_solution(h, s, b, run_ws.data(), need), "miopenRunSolution");
    size_t size = 0;
    must(miopenGetSolutionSize(s, &size), "miopenGetSolutionSize");
    std::vector<char> blob(size);
    must(miopenSaveSolution(s, blob.data()), "miopenSaveSolution");
    write_file(dir + "/solution.bin", blob.data(), blob.size());
    write_file(dir + "/y.bin", b.y.get(), Y_ELEMS * sizeof(float));
    std::printf("saved %zu bytes, workspace %zu\n", size, need);
    return 0;
}

int run(const std::string& blob_path, const std::string& dir, miopenHandle_t h)
{
    const std::vector<char> blob = read_file(blob_path);
    const std::vector<char> expected = read_file(dir + "/y.bin");
    miopenSolution_t s = nullptr;
    const miopenStatus_t loaded = miopenLoadSolution(&s, blob.data(), blob.size());
    if(loaded != miopenStatusSuccess)
    {
        std::printf("LOAD_REFUSED %d\n", int(loaded));
        return 0;
    }
    size_t need = 0;
    const miopenStatus_t asked = miopenGetSolutionWorkspaceSize(s, &need);
    if(asked != miopenStatusSuccess)
    {
        std::printf("RUN_REFUSED %d (workspace size)\n", int(asked));
        return 0;
    }
    if(need > ABSURD)
    {
        std::printf("ABSURD_WORKSPACE %zu\n", need);
        return 0;
    }
    Buffers b;
    std::unique_ptr<char[]> ws(need ? new char[need] : nullptr);
    const miopenStatus_t ran = run_solution(h, s, b, ws.get(), need);
    if(ran != miopenStatusSuccess)
    {
        std::printf("RUN_REFUSED %d\n", int(ran));
        return 0;
    }
    const float* want = reinterpret_cast<const float*>(expected.data());
    for(size_t i = 0; i < Y_ELEMS; ++i)
    {
        if(!(std::fabs(b.y[i] - want[i]) <= 1e-4f * (1.0f + std::fabs(want[i]))))
        {
            std::printf("WRONG at %zu\n", i);
            return 0;
        }
    }
    std::printf("CORRECT\n");
    miopenDestroySolution(s);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "";
    if(!((mode == "save" && argc == 3) || (mode == "run" && argc == 4)))
    {
        std::fprintf(stderr, "usage: blob_mutation save DIR | run BLOB DIR\n");
        return 2;
    }
    miopenHandle_t h;
    must(miopenCreate(&h), "miopenCreate");
    const int rc = mode == "save" ? save(argv[2], h) : run(argv[2], argv[3], h);
    miopenDestroy(h);
    return rc;
}
