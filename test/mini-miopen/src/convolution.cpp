// Convolution descriptor, problem description and solutions of the mini MIOpen.
#include <miopen/convolution.hpp>
#include <miopen/handle.hpp>
#include <miopen/logger.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace miopen {

const char* DirectionTag(ConvDirection d)
{
    switch(d)
    {
    case ConvDirection::Forward: return "F";
    case ConvDirection::BackwardData: return "B";
    case ConvDirection::BackwardWeights: return "W";
    }
    return "?";
}

ConvolutionDescriptor::ConvolutionDescriptor()
    : ConvolutionDescriptor({0, 0}, {1, 1}, {1, 1}, miopenConvolution)
{
}

ConvolutionDescriptor::ConvolutionDescriptor(std::vector<int> pads_,
                                             std::vector<int> strides_,
                                             std::vector<int> dilations_,
                                             miopenConvolutionMode_t mode_)
    : pads(std::move(pads_)), strides(std::move(strides_)), dilations(std::move(dilations_)), mode(mode_)
{
    const auto sd = pads.size();
    if(sd < 1 || strides.size() != sd || dilations.size() != sd ||
       std::any_of(pads.begin(), pads.end(), [](int v) { return v < 0; }) ||
       std::any_of(strides.begin(), strides.end(), [](int v) { return v < 1; }) ||
       std::any_of(dilations.begin(), dilations.end(), [](int v) { return v < 1; }))
    {
        MIOPEN_THROW(miopenStatusBadParm,
                     "Invalid convolution parameters: need padding >= 0, stride >= 1, dilation >= 1");
    }
    // The two legacy modes are plain convolutions with a group count.
    if(mode == miopenGroupConv || mode == miopenDepthwise)
        mode = miopenConvolution;
    if(mode != miopenConvolution && mode != miopenTranspose)
        MIOPEN_THROW(miopenStatusBadParm, "Convolution mode not supported");
}

void ConvolutionDescriptor::SetGroupCount(int g)
{
    if(g < 1)
        MIOPEN_THROW(miopenStatusBadParm, "Invalid group number");
    group_count = g;
}

void ConvolutionDescriptor::SetAttribute(miopenConvolutionAttrib_t attr, int value)
{
    switch(static_cast<int>(attr))
    {
    case MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL:
        if(value < -1 || value > 1)
            MIOPEN_THROW(miopenStatusBadParm, "FP16_ALT_IMPL takes -1, 0 or 1");
        break;
    case MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC:
        if(value < 0 || value > 1)
            MIOPEN_THROW(miopenStatusBadParm, "DETERMINISTIC takes 0 or 1");
        break;
    case 2: // FP8 rounding mode (beta)
        if(value < 0 || value > 1)
            MIOPEN_THROW(miopenStatusBadParm, "Invalid FP8 rounding mode");
        break;
    default: MIOPEN_THROW(miopenStatusBadParm, "Invalid convolution attribute");
    }
    attributes[static_cast<int>(attr)] = value;
}

int ConvolutionDescriptor::GetAttribute(miopenConvolutionAttrib_t attr) const
{
    const int a = static_cast<int>(attr);
    if(a < 0 || a > 2)
        MIOPEN_THROW(miopenStatusBadParm, "Invalid convolution attribute");
    const auto it = attributes.find(a);
    if(it != attributes.end())
        return it->second;
    return a == MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL ? -1 : 0;
}

TensorDescriptor ConvolutionDescriptor::GetForwardOutputTensor(const TensorDescriptor& x,
                                                               const TensorDescriptor& w) const
{
    x.CheckSet("input");
    w.CheckSet("filter");
    if(x.GetType() != w.GetType())
        MIOPEN_THROW(miopenStatusBadParm, "Types do not match for the filter");
    const auto sd = static_cast<std::size_t>(GetSpatialDim());
    if(x.GetNumDims() != sd + 2 || w.GetNumDims() != sd + 2)
        MIOPEN_THROW(miopenStatusBadParm,
                     "Tensor dimensions do not match the convolution spatial dimension");
    if(mode == miopenTranspose)
        MIOPEN_THROW(miopenStatusNotImplemented, "Transposed convolutions are not implemented");

    const auto& xl    = x.GetLengths();
    const auto& wl    = w.GetLengths();
    const std::size_t g = static_cast<std::size_t>(group_count);
    const bool channels_ok =
        (g == 1 && xl[1] == wl[1]) ||
        (g > 1 && xl[1] % g == 0 && wl[0] % g == 0 && xl[1] / g == wl[1]);
    if(!channels_ok)
        MIOPEN_THROW(miopenStatusBadParm, "Channels do not match for the filter");

    std::vector<std::size_t> out{xl[0], wl[0]};
    for(std::size_t i = 0; i < sd; ++i)
    {
        const long long in  = static_cast<long long>(xl[i + 2]);
        const long long k   = static_cast<long long>(wl[i + 2]);
        const long long eff = static_cast<long long>(dilations[i]) * (k - 1) + 1;
        const long long o   = (in + 2LL * pads[i] - eff) / strides[i] + 1;
        if(in + 2LL * pads[i] < eff || o <= 0)
            MIOPEN_THROW(miopenStatusBadParm, "Invalid output size: the filter is larger than the padded input");
        out.push_back(static_cast<std::size_t>(o));
    }
    // The output follows the input's memory order (NCHW stays NCHW, NHWC stays NHWC).
    const auto layout = x.GetLayoutName();
    if(layout == "NHWC")
        return TensorDescriptor::WithLayout(x.GetType(), miopenTensorNHWC, out);
    if(layout == "NDHWC")
        return TensorDescriptor::WithLayout(x.GetType(), miopenTensorNDHWC, out);
    return TensorDescriptor(x.GetType(), out);
}

cpu::ConvParams ConvolutionDescriptor::GetParams() const
{
    cpu::ConvParams p{};
    p.spatial_dims = GetSpatialDim();
    if(p.spatial_dims < 2 || p.spatial_dims > 3)
        MIOPEN_THROW(miopenStatusNotImplemented, "Only 2-D and 3-D convolutions are computed");
    for(int i = 0; i < p.spatial_dims; ++i)
    {
        p.pads[i]      = pads[i];
        p.strides[i]   = strides[i];
        p.dilations[i] = dilations[i];
    }
    p.group_count = group_count;
    return p;
}

ConvProblem::ConvProblem(const TensorDescriptor& x_,
                         const TensorDescriptor& w_,
                         const TensorDescriptor& y_,
                         const ConvolutionDescriptor& conv_,
                         ConvDirection dir_)
    : x(x_), w(w_), y(y_), conv(conv_), direction(dir_)
{
    y.CheckSet("output");
    const auto expected = conv.GetForwardOutputTensor(x, w);
    if(y.GetType() != x.GetType())
        MIOPEN_THROW(miopenStatusBadParm, "Types do not match for the output");
    if(y.GetLengths() != expected.GetLengths())
        MIOPEN_THROW(miopenStatusBadParm,
                     "Output tensor lengths " + LensToString(y.GetLengths()) +
                         " do not match the convolution result " +
                         LensToString(expected.GetLengths()));
    // Only here to reject unsupported spatial ranks and element types early.
    (void)conv.GetParams();
    (void)ToCpuType(x.GetType());
}

std::string ConvProblem::Key() const
{
    const auto& xl = x.GetLengths();
    const auto& wl = w.GetLengths();
    const auto& yl = y.GetLengths();
    auto spatial   = [](const std::vector<std::size_t>& v) {
        return LensToString(std::vector<std::size_t>(v.begin() + 2, v.end()));
    };
    auto ints = [](const std::vector<int>& v) {
        return LensToString(std::vector<std::size_t>(v.begin(), v.end()));
    };
    std::ostringstream ss;
    ss << xl[1] << "-" << spatial(xl) << "-" << wl[0] << "-" << spatial(wl) << "-" << spatial(yl)
       << "-" << xl[0] << "-" << ints(conv.GetPads()) << "-" << ints(conv.GetStrides()) << "-"
       << ints(conv.GetDilations()) << "-" << conv.GetGroupCount() << "-" << x.GetLayoutName()
       << "-" << DataTypeName(x.GetType()) << "-" << DirectionTag(direction);
    return ss.str();
}

namespace {

// Solver ids are MIOpen's: the naive direct solvers and the generic GEMM solvers.
const std::vector<ConvSolver>& AllSolvers()
{
    static const std::vector<ConvSolver> solvers = {
        {85, "ConvDirectNaiveConvFwd", miopenConvolutionAlgoDirect, ConvDirection::Forward},
        {91, "GemmFwdRest", miopenConvolutionAlgoGEMM, ConvDirection::Forward},
        {86, "ConvDirectNaiveConvBwd", miopenConvolutionAlgoDirect, ConvDirection::BackwardData},
        {97, "GemmBwdRest", miopenConvolutionAlgoGEMM, ConvDirection::BackwardData},
        {87, "ConvDirectNaiveConvWrw", miopenConvolutionAlgoDirect, ConvDirection::BackwardWeights},
        {102, "GemmWrwUniversal", miopenConvolutionAlgoGEMM, ConvDirection::BackwardWeights},
    };
    return solvers;
}

} // namespace

std::vector<ConvSolver> GetSolvers(ConvDirection d)
{
    std::vector<ConvSolver> out;
    for(const auto& s : AllSolvers())
        if(s.direction == d)
            out.push_back(s);
    return out;
}

const ConvSolver& GetSolver(ConvDirection d, std::uint64_t id)
{
    for(const auto& s : AllSolvers())
        if(s.direction == d && s.id == id)
            return s;
    MIOPEN_THROW(miopenStatusBadParm,
                 "Invalid solution id " + std::to_string(id) + " for this direction");
}

const ConvSolver& GetSolverByAlgorithm(ConvDirection d, miopenConvAlgorithm_t algo)
{
    for(const auto& s : AllSolvers())
        if(s.direction == d && s.algorithm == algo)
            return s;
    switch(static_cast<int>(algo))
    {
    case miopenConvolutionAlgoGEMM:
    case miopenConvolutionAlgoDirect:
    case miopenConvolutionAlgoFFT:
    case miopenConvolutionAlgoWinograd:
    case miopenConvolutionAlgoImplicitGEMM:
        MIOPEN_THROW(miopenStatusNotImplemented,
                     std::string("Algorithm not available in the test bed: ") + AlgorithmName(algo));
    default: break;
    }
    MIOPEN_THROW(miopenStatusBadParm, "Invalid convolution algorithm");
}

const ConvSolver* FindSolverByName(const std::string& name)
{
    for(const auto& s : AllSolvers())
        if(name == s.name)
            return &s;
    return nullptr;
}

const ConvSolver* FindConvSolverById(std::uint64_t id)
{
    for(const auto& s : AllSolvers())
        if(s.id == id)
            return &s;
    return nullptr;
}

const char* AlgorithmName(miopenConvAlgorithm_t a)
{
    switch(a)
    {
    case miopenConvolutionAlgoGEMM: return "GEMM";
    case miopenConvolutionAlgoDirect: return "Direct";
    case miopenConvolutionAlgoFFT: return "FFT";
    case miopenConvolutionAlgoWinograd: return "Winograd";
    case miopenConvolutionAlgoImplicitGEMM: return "ImplicitGEMM";
    }
    return "Unknown";
}

std::size_t GetSolverWorkspaceSize(const ConvSolver& s, const ConvProblem& p)
{
    if(s.algorithm != miopenConvolutionAlgoGEMM)
        return 0;
    // GEMM solvers stage an im2col buffer: one column per output pixel of one
    // image, (C * filter volume) rows.
    const auto& xl = p.x.GetLengths();
    const auto& wl = p.w.GetLengths();
    const auto& yl = p.y.GetLengths();
    std::size_t rows = xl[1];
    std::size_t cols = 1;
    for(std::size_t i = 2; i < wl.size(); ++i)
    {
        rows *= wl[i];
        cols *= yl[i];
    }
    return rows * cols * GetTypeSize(p.x.GetType());
}

std::size_t GetMaxWorkspaceSize(const ConvProblem& p)
{
    std::size_t ws = 0;
    for(const auto& s : GetSolvers(p.direction))
        ws = std::max(ws, GetSolverWorkspaceSize(s, p));
    return ws;
}

void ValidateConvAlphaBeta(const ConvProblem& p, float alpha, float beta)
{
    if(p.conv.GetSpatialDim() == 2 && (alpha != 1.0f || beta != 0.0f))
        MIOPEN_THROW(miopenStatusNotImplemented, "Only alpha=1 and beta=0 is supported for 2D cases.");
}

void RunConvSolution(Handle& handle,
                     const ConvSolver& s,
                     const ConvProblem& p,
                     const void* x,
                     const void* w,
                     const void* y,
                     void* out,
                     void* workspace,
                     std::size_t workspace_size,
                     float alpha,
                     float beta)
{
    if(s.direction != p.direction)
        MIOPEN_THROW(miopenStatusBadParm, "Solution does not match the convolution direction");
    const auto needed = GetSolverWorkspaceSize(s, p);
    if(needed > 0 && (workspace == nullptr || workspace_size < needed))
        MIOPEN_THROW(miopenStatusBadParm,
                     std::string(s.name) + " needs a workspace of " + std::to_string(needed) +
                         " bytes, got " + std::to_string(workspace == nullptr ? 0 : workspace_size));
    ValidateConvAlphaBeta(p, alpha, beta);

    MIOPEN_LOG_I2("running solver " << s.name << " (id " << s.id << ") for " << p.Key());
    OperationTimer timer(handle);
    const auto params = p.conv.GetParams();
    // The GEMM and direct solvers compute the same thing on the CPU; only
    // their bookkeeping (ids, workspace) differs.
    switch(p.direction)
    {
    case ConvDirection::Forward:
        if(x == nullptr || w == nullptr || out == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Null buffer in forward convolution");
        cpu::conv_forward(params, p.x.View(x), p.w.View(w), p.y.View(out), alpha, beta);
        break;
    case ConvDirection::BackwardData:
        if(y == nullptr || w == nullptr || out == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Null buffer in backward-data convolution");
        cpu::conv_backward_data(params, p.y.View(y), p.w.View(w), p.x.View(out), alpha, beta);
        break;
    case ConvDirection::BackwardWeights:
        if(y == nullptr || x == nullptr || out == nullptr)
            MIOPEN_THROW(miopenStatusBadParm, "Null buffer in backward-weights convolution");
        cpu::conv_backward_weights(params, p.y.View(y), p.x.View(x), p.w.View(out), alpha, beta);
        break;
    }
}

} // namespace miopen
