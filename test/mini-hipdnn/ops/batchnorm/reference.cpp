// The batchnorm operations of the mini hipDNN reference engine (test bed;
// written for this project): inference with variance, inference with
// inverse variance, training, backward, in double, registered with the engine's operation table.
#include "mini_hipdnn_batchnorm.h"
#include "reference_engine.hpp"

#include <cmath>
#include <vector>

namespace
{

using ref::nextIndex;
using ref::offsetIn;
using ref::storable;
using ref::View;

// Batchnorm inference: x and y of one shape (rank 3 to 5), every statistic
// and affine tensor (1, C, 1, ...); any storable type.
bool validBnInference(const miniHipdnnGraph_t& g, const miniHipdnnOp_t& op)
{
    for(int32_t t : {op.slot[MINI_HIPDNN_BN_X], op.slot[MINI_HIPDNN_BN_Y], op.slot[MINI_HIPDNN_BN_MEAN], op.slot[MINI_HIPDNN_BN_VARIANCE], op.slot[MINI_HIPDNN_BN_SCALE], op.slot[MINI_HIPDNN_BN_BIAS]})
    {
        if(t < 0 || t >= g.numTensors || !storable(g.tensors[t].dataType))
        {
            return false;
        }
    }
    const auto& x = g.tensors[op.slot[MINI_HIPDNN_BN_X]];
    const auto& y = g.tensors[op.slot[MINI_HIPDNN_BN_Y]];
    if(x.nbDims < 3 || x.nbDims > 5 || y.nbDims != x.nbDims)
    {
        return false;
    }
    for(int d = 0; d < x.nbDims; ++d)
    {
        if(x.dims[d] != y.dims[d])
        {
            return false;
        }
    }
    for(int32_t t : {op.slot[MINI_HIPDNN_BN_MEAN], op.slot[MINI_HIPDNN_BN_VARIANCE], op.slot[MINI_HIPDNN_BN_SCALE], op.slot[MINI_HIPDNN_BN_BIAS]})
    {
        const auto& p = g.tensors[t];
        if(p.nbDims != x.nbDims)
        {
            return false;
        }
        for(int d = 0; d < x.nbDims; ++d)
        {
            if(p.dims[d] != (d == 1 ? x.dims[1] : 1))
            {
                return false;
            }
        }
    }
    return true;
}

// Batchnorm training / backward: the io tensors of x's shape (rank 3 to 5),
// the per-channel ones (1, C, 1, ...), the optional saved statistics both or
// neither; running statistics are not run by the test bed's engines.
bool validBnPass(const miniHipdnnGraph_t& g, const miniHipdnnOp_t& op)
{
    const bool training = op.kind == MINI_HIPDNN_OP_BN_TRAINING;
    const std::vector<int32_t> io = training ? std::vector<int32_t>{op.slot[MINI_HIPDNN_BN_X], op.slot[MINI_HIPDNN_BN_Y]} : std::vector<int32_t>{op.slot[MINI_HIPDNN_BN_X], op.slot[MINI_HIPDNN_BN_DY], op.slot[MINI_HIPDNN_BN_DX]};
    std::vector<int32_t> params = training ? std::vector<int32_t>{op.slot[MINI_HIPDNN_BN_SCALE], op.slot[MINI_HIPDNN_BN_BIAS]}
                                           : std::vector<int32_t>{op.slot[MINI_HIPDNN_BN_SCALE], op.slot[MINI_HIPDNN_BN_DSCALE], op.slot[MINI_HIPDNN_BN_DBIAS]};
    if(op.flag[MINI_HIPDNN_BN_RUNNING] != 0 || (op.slot[MINI_HIPDNN_BN_MEAN] < 0) != (op.slot[MINI_HIPDNN_BN_VARIANCE] < 0))
    {
        return false;
    }
    if(op.slot[MINI_HIPDNN_BN_MEAN] >= 0)
    {
        params.push_back(op.slot[MINI_HIPDNN_BN_MEAN]);
        params.push_back(op.slot[MINI_HIPDNN_BN_VARIANCE]);
    }
    for(int32_t t : io)
    {
        if(t < 0 || t >= g.numTensors || !storable(g.tensors[t].dataType))
            return false;
    }
    const auto& x = g.tensors[op.slot[MINI_HIPDNN_BN_X]];
    if(x.nbDims < 3 || x.nbDims > 5)
        return false;
    for(int32_t t : io)
        for(int d = 0; d < x.nbDims; ++d)
            if(g.tensors[t].nbDims != x.nbDims || g.tensors[t].dims[d] != x.dims[d])
                return false;
    for(int32_t t : params)
    {
        if(t < 0 || t >= g.numTensors || !storable(g.tensors[t].dataType) || g.tensors[t].nbDims != x.nbDims)
            return false;
        for(int d = 0; d < x.nbDims; ++d)
            if(g.tensors[t].dims[d] != (d == 1 ? x.dims[1] : 1))
                return false;
    }
    return true;
}

// y = scale * (x - mean) / sqrt(variance + epsilon) + bias, per channel, in double.
void bnInference(const miniHipdnnOp_t& op, const std::vector<View>& v)
{
    const View& x = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_X])];
    const View& y = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_Y])];
    const View* p[4] = {&v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_MEAN])], &v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_VARIANCE])],
                        &v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_SCALE])], &v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_BIAS])]};
    int64_t idx[MINI_HIPDNN_MAX_DIMS] = {};
    do
    {
        const int64_t c = idx[1];
        const double mean = p[0]->load(c * p[0]->strides[1]);
        const double var = p[1]->load(c * p[1]->strides[1]);
        const double scale = p[2]->load(c * p[2]->strides[1]);
        const double bias = p[3]->load(c * p[3]->strides[1]);
        int64_t xo = 0, yo = 0;
        for(int d = 0; d < x.nb; ++d)
        {
            xo += idx[d] * x.strides[d];
            yo += idx[d] * y.strides[d];
        }
        const double out = scale * (x.load(xo) - mean) / std::sqrt(var + op.scalar[MINI_HIPDNN_BN_EPSILON]) + bias;
        y.store(yo, static_cast<float>(out));
    } while(nextIndex(idx, x.dims, x.nb));
}

// Inference with mean and inverse variance (type 17):
// y = scale * (x - mean) * inv_variance + bias, per channel, in double.
void bnInferenceInv(const miniHipdnnOp_t& op, const std::vector<View>& v)
{
    const View& x = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_X])];
    const View& y = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_Y])];
    const View* p[4] = {&v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_MEAN])], &v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_VARIANCE])],
                        &v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_SCALE])], &v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_BIAS])]};
    int64_t idx[MINI_HIPDNN_MAX_DIMS] = {};
    do
    {
        const int64_t c = idx[1];
        const double mean = p[0]->load(c * p[0]->strides[1]);
        const double inv = p[1]->load(c * p[1]->strides[1]);
        const double scale = p[2]->load(c * p[2]->strides[1]);
        const double bias = p[3]->load(c * p[3]->strides[1]);
        const double out = scale * (x.load(offsetIn(x, idx)) - mean) * inv + bias;
        y.store(offsetIn(y, idx), static_cast<float>(out));
    } while(nextIndex(idx, x.dims, x.nb));
}

// Per-channel mean and biased variance of x, in double (two passes).
void channelMoments(const View& x, std::vector<double>& mean, std::vector<double>& var)
{
    const int64_t C = x.dims[1];
    int64_t m = 1;
    for(int d = 0; d < x.nb; ++d)
        m *= d == 1 ? 1 : x.dims[d];
    mean.assign(static_cast<size_t>(C), 0.0);
    var.assign(static_cast<size_t>(C), 0.0);
    int64_t idx[MINI_HIPDNN_MAX_DIMS] = {};
    do
        mean[static_cast<size_t>(idx[1])] += x.load(offsetIn(x, idx));
    while(nextIndex(idx, x.dims, x.nb));
    for(auto& v : mean)
        v /= static_cast<double>(m);
    int64_t jdx[MINI_HIPDNN_MAX_DIMS] = {};
    do
    {
        const double e = x.load(offsetIn(x, jdx)) - mean[static_cast<size_t>(jdx[1])];
        var[static_cast<size_t>(jdx[1])] += e * e;
    } while(nextIndex(jdx, x.dims, x.nb));
    for(auto& v : var)
        v /= static_cast<double>(m);
}

double perChannel(const View& p, int64_t c) { return p.load(c * p.strides[1]); }

// Training: batch statistics, y = scale * (x - mean) / sqrt(var + eps) + bias;
// the saved mean and inverse standard deviation when the graph has them.
void bnTraining(const miniHipdnnOp_t& op, const std::vector<View>& v)
{
    const View& x = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_X])];
    const View& y = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_Y])];
    const View& scale = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_SCALE])];
    const View& bias = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_BIAS])];
    std::vector<double> mean, var;
    channelMoments(x, mean, var);
    int64_t idx[MINI_HIPDNN_MAX_DIMS] = {};
    do
    {
        const int64_t c = idx[1];
        const double inv = 1.0 / std::sqrt(var[static_cast<size_t>(c)] + op.scalar[MINI_HIPDNN_BN_EPSILON]);
        const double out = perChannel(scale, c) * (x.load(offsetIn(x, idx)) - mean[static_cast<size_t>(c)]) * inv
                           + perChannel(bias, c);
        y.store(offsetIn(y, idx), static_cast<float>(out));
    } while(nextIndex(idx, x.dims, x.nb));
    if(op.slot[MINI_HIPDNN_BN_MEAN] < 0)
        return;
    const View& sm = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_MEAN])];
    const View& si = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_VARIANCE])];
    for(int64_t c = 0; c < x.dims[1]; ++c)
    {
        sm.store(c * sm.strides[1], static_cast<float>(mean[static_cast<size_t>(c)]));
        si.store(c * si.strides[1], static_cast<float>(1.0 / std::sqrt(var[static_cast<size_t>(c)] + op.scalar[MINI_HIPDNN_BN_EPSILON])));
    }
}

// hipDNN's backward has no epsilon: without saved statistics they are
// recomputed with hipDNN's default (BATCHNORM_DEFAULT_EPSILON).
constexpr double kBatchnormDefaultEpsilon = 1e-5;

// Backward: dbias = sum(dy), dscale = sum(dy * xhat),
// dx = scale * inv / m * (m * dy - dbias - xhat * dscale), per channel.
void bnBackward(const miniHipdnnOp_t& op, const std::vector<View>& v)
{
    const View& x = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_X])];
    const View& dy = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_DY])];
    const View& dx = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_DX])];
    const View& scale = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_SCALE])];
    const int64_t C = x.dims[1];
    std::vector<double> mean, inv;
    if(op.slot[MINI_HIPDNN_BN_MEAN] >= 0)
    {
        for(int64_t c = 0; c < C; ++c)
        {
            mean.push_back(perChannel(v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_MEAN])], c));
            inv.push_back(perChannel(v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_VARIANCE])], c));
        }
    }
    else
    {
        channelMoments(x, mean, inv);
        for(auto& s : inv)
            s = 1.0 / std::sqrt(s + kBatchnormDefaultEpsilon);
    }
    std::vector<double> sumDy(static_cast<size_t>(C), 0.0), sumDyXhat(static_cast<size_t>(C), 0.0);
    int64_t m = 1;
    for(int d = 0; d < x.nb; ++d)
        m *= d == 1 ? 1 : x.dims[d];
    int64_t idx[MINI_HIPDNN_MAX_DIMS] = {};
    do
    {
        const auto c = static_cast<size_t>(idx[1]);
        const double g = dy.load(offsetIn(dy, idx));
        sumDy[c] += g;
        sumDyXhat[c] += g * (x.load(offsetIn(x, idx)) - mean[c]) * inv[c];
    } while(nextIndex(idx, x.dims, x.nb));
    int64_t jdx[MINI_HIPDNN_MAX_DIMS] = {};
    do
    {
        const auto c = static_cast<size_t>(jdx[1]);
        const double xhat = (x.load(offsetIn(x, jdx)) - mean[c]) * inv[c];
        const double g = dy.load(offsetIn(dy, jdx));
        const double k = perChannel(scale, jdx[1]) * inv[c] / static_cast<double>(m);
        dx.store(offsetIn(dx, jdx), static_cast<float>(k * (static_cast<double>(m) * g - sumDy[c] - xhat * sumDyXhat[c])));
    } while(nextIndex(jdx, x.dims, x.nb));
    const View& ds = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_DSCALE])];
    const View& db = v[static_cast<size_t>(op.slot[MINI_HIPDNN_BN_DBIAS])];
    for(int64_t c = 0; c < C; ++c)
    {
        ds.store(c * ds.strides[1], static_cast<float>(sumDyXhat[static_cast<size_t>(c)]));
        db.store(c * db.strides[1], static_cast<float>(sumDy[static_cast<size_t>(c)]));
    }
}

// The tensors each reads (the saved statistics and the parameter gradients
// it also writes are read by no other operation).
void inferenceIO(const miniHipdnnOp_t& op, std::vector<int32_t>& in, int32_t& out)
{
    in = {op.slot[MINI_HIPDNN_BN_X], op.slot[MINI_HIPDNN_BN_MEAN], op.slot[MINI_HIPDNN_BN_VARIANCE],
          op.slot[MINI_HIPDNN_BN_SCALE], op.slot[MINI_HIPDNN_BN_BIAS]};
    out = op.slot[MINI_HIPDNN_BN_Y];
}

void trainingIO(const miniHipdnnOp_t& op, std::vector<int32_t>& in, int32_t& out)
{
    in = {op.slot[MINI_HIPDNN_BN_X], op.slot[MINI_HIPDNN_BN_SCALE], op.slot[MINI_HIPDNN_BN_BIAS]};
    out = op.slot[MINI_HIPDNN_BN_Y];
}

void backwardIO(const miniHipdnnOp_t& op, std::vector<int32_t>& in, int32_t& out)
{
    in = {op.slot[MINI_HIPDNN_BN_X], op.slot[MINI_HIPDNN_BN_DY], op.slot[MINI_HIPDNN_BN_SCALE]};
    if(op.slot[MINI_HIPDNN_BN_MEAN] >= 0)
    {
        in.push_back(op.slot[MINI_HIPDNN_BN_MEAN]);
        in.push_back(op.slot[MINI_HIPDNN_BN_VARIANCE]);
    }
    out = op.slot[MINI_HIPDNN_BN_DX];
}

const ref::Operation kInference{MINI_HIPDNN_OP_BN_INFERENCE, validBnInference, inferenceIO, bnInference};
const ref::Operation kTraining{MINI_HIPDNN_OP_BN_TRAINING, validBnPass, trainingIO, bnTraining};
const ref::Operation kBackward{MINI_HIPDNN_OP_BN_BACKWARD, validBnPass, backwardIO, bnBackward};
const ref::Operation kInferenceInv{MINI_HIPDNN_OP_BN_INFERENCE_INV, validBnInference, inferenceIO, bnInferenceInv};
const ref::OperationRegistration kRegistered[] = {ref::OperationRegistration(kInferenceInv),
                                                  ref::OperationRegistration(kInference),
                                                  ref::OperationRegistration(kTraining),
                                                  ref::OperationRegistration(kBackward)};

} // namespace
