// The convolution descriptor behind miopenConvolutionDescriptor_t, the
// problem description used as find-db key, and the solutions ("solvers")
// the test bed offers.
#pragma once

#include <miopen/miopen.h>
#include <miopen/object.hpp>
#include <miopen/tensor.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace miopen {

struct Handle;

enum class ConvDirection
{
    Forward,
    BackwardData,
    BackwardWeights,
};

const char* DirectionTag(ConvDirection d); // "F", "B", "W" as in MIOpen's db keys

struct ConvolutionDescriptor : miopenConvolutionDescriptor
{
    ConvolutionDescriptor();
    ConvolutionDescriptor(std::vector<int> pads,
                          std::vector<int> strides,
                          std::vector<int> dilations,
                          miopenConvolutionMode_t mode);

    int GetSpatialDim() const { return static_cast<int>(pads.size()); }
    const std::vector<int>& GetPads() const { return pads; }
    const std::vector<int>& GetStrides() const { return strides; }
    const std::vector<int>& GetDilations() const { return dilations; }
    miopenConvolutionMode_t GetMode() const { return mode; }

    int GetGroupCount() const { return group_count; }
    void SetGroupCount(int g);

    void SetAttribute(miopenConvolutionAttrib_t attr, int value);
    int GetAttribute(miopenConvolutionAttrib_t attr) const;
    // The attributes set so far (attribute -> value), for serialization.
    const std::map<int, int>& GetAttributes() const { return attributes; }

    // Find mode, MIOpen numbering: 1 Normal, 2 Fast, 3 Hybrid, 5 DynamicHybrid.
    int find_mode = 5;

    // Output tensor of a forward convolution of x with w; validates types,
    // ranks and channel counts (miopenStatusBadParm) and the mode
    // (miopenStatusNotImplemented for transposed convolutions).
    TensorDescriptor GetForwardOutputTensor(const TensorDescriptor& x,
                                            const TensorDescriptor& w) const;

    cpu::ConvParams GetParams() const;

private:
    std::vector<int> pads;
    std::vector<int> strides;
    std::vector<int> dilations;
    miopenConvolutionMode_t mode = miopenConvolution;
    int group_count              = 1;
    std::map<int, int> attributes;
};

// One convolution problem: x (input), w (weights), y (output) in forward
// naming whatever the direction, plus the descriptor.
struct ConvProblem
{
    ConvProblem(const TensorDescriptor& x_,
                const TensorDescriptor& w_,
                const TensorDescriptor& y_,
                const ConvolutionDescriptor& conv_,
                ConvDirection dir_);

    const TensorDescriptor& x;
    const TensorDescriptor& w;
    const TensorDescriptor& y;
    const ConvolutionDescriptor& conv;
    ConvDirection direction;

    // Key of the problem in the find-db, e.g.
    // "3-5x5-8-3x3-3x3-2-0x0-1x1-1x1-1-NCHW-FP32-F".
    std::string Key() const;
};

// A solution the test bed can run.
struct ConvSolver
{
    std::uint64_t id;                // MIOpen solver id
    const char* name;                // MIOpen solver name
    miopenConvAlgorithm_t algorithm; // family
    ConvDirection direction;
};

// Solvers applicable to the direction, in default (heuristic) order.
std::vector<ConvSolver> GetSolvers(ConvDirection d);
// Looks a solver up by id for the direction; miopenStatusBadParm when unknown.
const ConvSolver& GetSolver(ConvDirection d, std::uint64_t id);
// Looks a solver up by algorithm family for the direction;
// miopenStatusNotImplemented when the test bed has no such solver.
const ConvSolver& GetSolverByAlgorithm(ConvDirection d, miopenConvAlgorithm_t algo);
const ConvSolver* FindSolverByName(const std::string& name);
// A convolution solver of any direction by id, or null.
const ConvSolver* FindConvSolverById(std::uint64_t id);
std::size_t GetSolverWorkspaceSize(const ConvSolver& s, const ConvProblem& p);
// Largest workspace any solver of the problem's direction needs (what the
// *GetWorkSpaceSize calls report).
std::size_t GetMaxWorkspaceSize(const ConvProblem& p);
const char* AlgorithmName(miopenConvAlgorithm_t a); // "miopenConvolutionFwdAlgoDirect"-style, per direction

// Runs a solution. Buffers are named in forward terms for every direction:
// forward reads x, w and writes y; backward-data reads y (dy), w and writes
// x (dx); backward-weights reads y (dy), x and writes w (dw).
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
                     float beta);

// The buffer a direction writes, of x, w, y in forward naming.
inline void* ConvOutputBuffer(ConvDirection d, void* x, void* w, void* y)
{
    return d == ConvDirection::Forward ? y : d == ConvDirection::BackwardData ? x : w;
}

// Checks alpha/beta the way MIOpen does: 2-D convolutions only take the
// default scaling (alpha 1, beta 0), otherwise miopenStatusNotImplemented.
void ValidateConvAlphaBeta(const ConvProblem& p, float alpha, float beta);

} // namespace miopen

MIOPEN_DEFINE_OBJECT(miopenConvolutionDescriptor, miopen::ConvolutionDescriptor)
