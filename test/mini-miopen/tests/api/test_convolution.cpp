// Convolution entry points: hand-worked results for every direction, legacy
// and immediate APIs, Find and the user find-db, invalid arguments.
#include "common.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace {

const float kOne = 1.0f, kZero = 0.0f;

// x: 1x1x3x3 = 1..9, w: 1x1x2x2 = [1 0; 0 1]  ->  y[i][j] = x[i][j] + x[i+1][j+1].
const std::vector<float> kX = {1, 2, 3, 4, 5, 6, 7, 8, 9};
const std::vector<float> kW = {1, 0, 0, 1};
const std::vector<float> kY = {6, 8, 12, 14};
// Backward data of dy = [1 2; 3 4] through the same w: dy dropped at offset
// (0,0) plus dy dropped at offset (1,1).
const std::vector<float> kDy = {1, 2, 3, 4};
const std::vector<float> kDx = {1, 2, 0, 3, 5, 2, 0, 3, 4};
// Backward weights: dw[a][b] = sum_ij dy[i][j] * x[i+a][j+b].
const std::vector<float> kDw = {37, 47, 67, 77};

struct Problem2x2
{
    mmt::Tensor x{miopenFloat, {1, 1, 3, 3}};
    mmt::Tensor w{miopenFloat, {1, 1, 2, 2}};
    mmt::Tensor y{miopenFloat, {1, 1, 2, 2}};
    mmt::Conv conv;
};

} // namespace

TEST(Convolution, OutputDim2dAndNd)
{
    mmt::Tensor x(miopenFloat, {2, 4, 7, 9});
    mmt::Tensor w(miopenFloat, {6, 4, 3, 3});
    mmt::Conv conv(1, 2, 1);
    int n, c, h, wd;
    ASSERT_EQ(miopenGetConvolutionForwardOutputDim(conv, x, w, &n, &c, &h, &wd), miopenStatusSuccess);
    EXPECT_EQ((std::vector<int>{n, c, h, wd}), (std::vector<int>{2, 6, 4, 5}));

    miopenConvolutionDescriptor_t c3;
    ASSERT_EQ(miopenCreateConvolutionDescriptor(&c3), miopenStatusSuccess);
    const int pads[] = {0, 1, 2}, strides[] = {1, 1, 2}, dils[] = {1, 2, 1};
    ASSERT_EQ(miopenInitConvolutionNdDescriptor(c3, 3, pads, strides, dils, miopenConvolution),
              miopenStatusSuccess);
    mmt::Tensor x3(miopenFloat, {1, 2, 4, 5, 6});
    mmt::Tensor w3(miopenFloat, {3, 2, 2, 2, 3});
    int nd = 0, out[5];
    ASSERT_EQ(miopenGetConvolutionNdForwardOutputDim(c3, x3, w3, &nd, out), miopenStatusSuccess);
    EXPECT_EQ(nd, 5);
    // D: 4-2+1 = 3; H: 5+2-3+1 = 5 (dilated 2x2 -> 3); W: (6+4-3)/2+1 = 4.
    EXPECT_EQ(std::vector<int>(out, out + 5), (std::vector<int>{1, 3, 3, 5, 4}));
    int sd = 0, p[3], s[3], d[3];
    miopenConvolutionMode_t mode;
    ASSERT_EQ(miopenGetConvolutionNdDescriptor(c3, 3, &sd, p, s, d, &mode), miopenStatusSuccess);
    EXPECT_EQ(sd, 3);
    EXPECT_EQ(std::vector<int>(d, d + 3), (std::vector<int>{1, 2, 1}));
    EXPECT_EQ(miopenGetConvolutionSpatialDim(c3, &sd), miopenStatusSuccess);
    EXPECT_EQ(sd, 3);
    // 2-D only getters on a 3-D descriptor: MIOpen throws without a status -> unknown error.
    int a, b, e, f, g, hh;
    EXPECT_EQ(miopenGetConvolutionDescriptor(c3, &mode, &a, &b, &e, &f, &g, &hh),
              miopenStatusUnknownError);
    EXPECT_EQ(miopenGetConvolutionNdDescriptor(c3, 4, &sd, p, s, d, &mode), miopenStatusUnknownError);
    miopenDestroyConvolutionDescriptor(c3);
}

TEST(Convolution, DescriptorRoundTripAndAttributes)
{
    mmt::Conv conv(2, 3, 4);
    miopenConvolutionMode_t mode;
    int ph, pw, sh, sw, dh, dw;
    ASSERT_EQ(miopenGetConvolutionDescriptor(conv, &mode, &ph, &pw, &sh, &sw, &dh, &dw),
              miopenStatusSuccess);
    EXPECT_EQ(mode, miopenConvolution);
    EXPECT_EQ((std::vector<int>{ph, pw, sh, sw, dh, dw}), (std::vector<int>{2, 2, 3, 3, 4, 4}));
    int groups = 0;
    ASSERT_EQ(miopenSetConvolutionGroupCount(conv, 4), miopenStatusSuccess);
    ASSERT_EQ(miopenGetConvolutionGroupCount(conv, &groups), miopenStatusSuccess);
    EXPECT_EQ(groups, 4);
    int v = 5;
    ASSERT_EQ(miopenGetConvolutionAttribute(conv, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, &v),
              miopenStatusSuccess);
    EXPECT_EQ(v, 0);
    ASSERT_EQ(miopenSetConvolutionAttribute(conv, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 1),
              miopenStatusSuccess);
    ASSERT_EQ(miopenGetConvolutionAttribute(conv, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, &v),
              miopenStatusSuccess);
    EXPECT_EQ(v, 1);
    EXPECT_EQ(miopenSetConvolutionAttribute(conv, MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC, 7),
              miopenStatusBadParm);
    EXPECT_EQ(miopenSetConvolutionAttribute(conv, static_cast<miopenConvolutionAttrib_t>(9), 0),
              miopenStatusBadParm);
}

TEST(Convolution, ForwardLegacyHandWorked)
{
    mmt::Handle h;
    Problem2x2 p;
    for(auto algo : {miopenConvolutionFwdAlgoDirect, miopenConvolutionFwdAlgoGEMM})
    {
        size_t ws_size = 0;
        ASSERT_EQ(miopenConvolutionForwardGetWorkSpaceSize(h, p.w, p.x, p.conv, p.y, &ws_size),
                  miopenStatusSuccess);
        // GEMM's im2col buffer: (C * 2 * 2) rows x (2 * 2) columns of floats.
        EXPECT_EQ(ws_size, 16u * sizeof(float));
        std::vector<char> ws(ws_size);
        std::vector<float> y(4, -1.0f);
        ASSERT_EQ(miopenConvolutionForward(h, &kOne, p.x, kX.data(), p.w, kW.data(), p.conv, algo,
                                           &kZero, p.y, y.data(), ws.data(), ws.size()),
                  miopenStatusSuccess);
        EXPECT_EQ(y, kY) << "algo " << algo;
    }
}

TEST(Convolution, ForwardPaddingStrideDilationHandWorked)
{
    mmt::Handle h;
    mmt::Tensor x(miopenFloat, {1, 1, 3, 3});
    mmt::Tensor w(miopenFloat, {1, 1, 2, 2});
    {
        // pad 1, stride 2: windows start at -1 and 1 in each dim; with
        // w = [1 0; 0 1] only the bottom-right tap lands inside for the
        // first row/column: y = [x00, x02; x20, x11 + x22] = [1 3; 7 14].
        mmt::Conv conv(1, 2, 1);
        mmt::Tensor y(miopenFloat, {1, 1, 2, 2});
        std::vector<float> out(4);
        ASSERT_EQ(miopenConvolutionForward(h, &kOne, x, kX.data(), w, kW.data(), conv,
                                           miopenConvolutionFwdAlgoDirect, &kZero, y, out.data(),
                                           nullptr, 0),
                  miopenStatusSuccess);
        EXPECT_EQ(out, (std::vector<float>{1, 3, 7, 14}));
    }
    {
        // dilation 2: taps at the four corners, w = [1 2; 3 4]:
        // 1*1 + 2*3 + 3*7 + 4*9 = 64.
        mmt::Conv conv(0, 1, 2);
        mmt::Tensor y(miopenFloat, {1, 1, 1, 1});
        const std::vector<float> w4 = {1, 2, 3, 4};
        float out = 0;
        ASSERT_EQ(miopenConvolutionForward(h, &kOne, x, kX.data(), w, w4.data(), conv,
                                           miopenConvolutionFwdAlgoDirect, &kZero, y, &out, nullptr, 0),
                  miopenStatusSuccess);
        EXPECT_EQ(out, 64.0f);
    }
}

TEST(Convolution, BackwardDataAndWeightsLegacyHandWorked)
{
    mmt::Handle h;
    Problem2x2 p;
    std::vector<char> ws(1024);
    for(auto algo : {miopenConvolutionBwdDataAlgoDirect, miopenConvolutionBwdDataAlgoGEMM})
    {
        std::vector<float> dx(9, 7.0f);
        ASSERT_EQ(miopenConvolutionBackwardData(h, &kOne, p.y, kDy.data(), p.w, kW.data(), p.conv,
                                                algo, &kZero, p.x, dx.data(), ws.data(), ws.size()),
                  miopenStatusSuccess);
        EXPECT_EQ(dx, kDx);
    }
    for(auto algo : {miopenConvolutionBwdWeightsAlgoDirect, miopenConvolutionBwdWeightsAlgoGEMM})
    {
        std::vector<float> dw(4, 7.0f);
        ASSERT_EQ(miopenConvolutionBackwardWeights(h, &kOne, p.y, kDy.data(), p.x, kX.data(), p.conv,
                                                   algo, &kZero, p.w, dw.data(), ws.data(), ws.size()),
                  miopenStatusSuccess);
        EXPECT_EQ(dw, kDw);
    }
}

TEST(Convolution, GroupedForwardHandWorked)
{
    // Two groups of one channel each: y0 = 10 * x0, y1 = 100 * x1.
    mmt::Handle h;
    mmt::Tensor x(miopenFloat, {1, 2, 1, 1});
    mmt::Tensor w(miopenFloat, {2, 1, 1, 1});
    mmt::Tensor y(miopenFloat, {1, 2, 1, 1});
    mmt::Conv conv;
    ASSERT_EQ(miopenSetConvolutionGroupCount(conv, 2), miopenStatusSuccess);
    const std::vector<float> xv = {2, 3}, wv = {10, 100};
    std::vector<float> out(2);
    ASSERT_EQ(miopenConvolutionForward(h, &kOne, x, xv.data(), w, wv.data(), conv,
                                       miopenConvolutionFwdAlgoDirect, &kZero, y, out.data(), nullptr, 0),
              miopenStatusSuccess);
    EXPECT_EQ(out, (std::vector<float>{20, 300}));
}

TEST(Convolution, NhwcMatchesNchw)
{
    // 1x1 conv mixing two channels: y = 1 * c0 + 10 * c1.
    mmt::Handle h;
    const int lens[] = {1, 2, 2, 2};
    mmt::Tensor x;
    ASSERT_EQ(miopenSetNdTensorDescriptorWithLayout(x, miopenFloat, miopenTensorNHWC, lens, 4),
              miopenStatusSuccess);
    mmt::Tensor w(miopenFloat, {1, 2, 1, 1});
    mmt::Tensor y(miopenFloat, {1, 1, 2, 2});
    mmt::Conv conv;
    // c0 = 1 2 3 4, c1 = 5 6 7 8, stored pixel by pixel.
    const std::vector<float> x_nhwc = {1, 5, 2, 6, 3, 7, 4, 8};
    const std::vector<float> wv     = {1, 10};
    std::vector<float> out(4);
    ASSERT_EQ(miopenConvolutionForward(h, &kOne, x, x_nhwc.data(), w, wv.data(), conv,
                                       miopenConvolutionFwdAlgoDirect, &kZero, y, out.data(), nullptr, 0),
              miopenStatusSuccess);
    EXPECT_EQ(out, (std::vector<float>{51, 62, 73, 84}));
}

TEST(Convolution, HalfAndBFloat16HandWorked)
{
    mmt::Handle h;
    mmt::Conv conv;
    for(auto type : {miopenHalf, miopenBFloat16})
    {
        auto enc = [type](float f) { return type == miopenHalf ? mmt::to_half(f) : mmt::to_bf16(f); };
        auto dec = [type](std::uint16_t b) {
            return type == miopenHalf ? mmt::from_half(b) : mmt::from_bf16(b);
        };
        mmt::Tensor x(type, {1, 1, 3, 3}), w(type, {1, 1, 2, 2}), y(type, {1, 1, 2, 2});
        std::vector<std::uint16_t> xv, wv, yv(4);
        for(float f : kX)
            xv.push_back(enc(f));
        for(float f : kW)
            wv.push_back(enc(f));
        ASSERT_EQ(miopenConvolutionForward(h, &kOne, x, xv.data(), w, wv.data(), conv,
                                           miopenConvolutionFwdAlgoDirect, &kZero, y, yv.data(),
                                           nullptr, 0),
                  miopenStatusSuccess);
        for(int i = 0; i < 4; ++i)
            EXPECT_EQ(dec(yv[i]), kY[i]) << "type " << type << " index " << i;
    }
}

TEST(Convolution, ThreeDWithAlphaBeta)
{
    // 2x2x2 input 1..8, all-ones 2x2x2 filter: conv = 36; alpha 2, beta 1 on y = 4 -> 76.
    mmt::Handle h;
    miopenConvolutionDescriptor_t conv;
    ASSERT_EQ(miopenCreateConvolutionDescriptor(&conv), miopenStatusSuccess);
    const int pads[] = {0, 0, 0}, ones[] = {1, 1, 1};
    ASSERT_EQ(miopenInitConvolutionNdDescriptor(conv, 3, pads, ones, ones, miopenConvolution),
              miopenStatusSuccess);
    mmt::Tensor x(miopenFloat, {1, 1, 2, 2, 2}), w(miopenFloat, {1, 1, 2, 2, 2}),
        y(miopenFloat, {1, 1, 1, 1, 1});
    const std::vector<float> xv = {1, 2, 3, 4, 5, 6, 7, 8}, wv(8, 1.0f);
    float out = 4.0f;
    const float alpha = 2.0f, beta = 1.0f;
    ASSERT_EQ(miopenConvolutionForward(h, &alpha, x, xv.data(), w, wv.data(), conv,
                                       miopenConvolutionFwdAlgoDirect, &beta, y, &out, nullptr, 0),
              miopenStatusSuccess);
    EXPECT_EQ(out, 76.0f);
    miopenDestroyConvolutionDescriptor(conv);
}

TEST(Convolution, TwoDOnlyTakesDefaultAlphaBeta)
{
    mmt::Handle h;
    Problem2x2 p;
    std::vector<float> y(4);
    const float two = 2.0f;
    EXPECT_EQ(miopenConvolutionForward(h, &two, p.x, kX.data(), p.w, kW.data(), p.conv,
                                       miopenConvolutionFwdAlgoDirect, &kZero, p.y, y.data(), nullptr, 0),
              miopenStatusNotImplemented);
    EXPECT_EQ(miopenConvolutionForward(h, &kOne, p.x, kX.data(), p.w, kW.data(), p.conv,
                                       miopenConvolutionFwdAlgoDirect, &kOne, p.y, y.data(), nullptr, 0),
              miopenStatusNotImplemented);
}

TEST(Convolution, ForwardBiasAddsPerChannel)
{
    mmt::Handle h;
    mmt::Tensor y(miopenFloat, {1, 2, 1, 2}), b(miopenFloat, {1, 2, 1, 1});
    std::vector<float> yv = {1, 2, 3, 4};
    const std::vector<float> bv = {10, 20};
    ASSERT_EQ(miopenConvolutionForwardBias(h, &kOne, b, bv.data(), &kZero, y, yv.data()),
              miopenStatusSuccess);
    EXPECT_EQ(yv, (std::vector<float>{11, 12, 23, 24}));
    mmt::Tensor yb(miopenBFloat16, {1, 2, 1, 2}), bb(miopenBFloat16, {1, 2, 1, 1});
    EXPECT_EQ(miopenConvolutionForwardBias(h, &kOne, bb, bv.data(), &kZero, yb, yv.data()),
              miopenStatusNotImplemented);
    mmt::Tensor bad_b(miopenFloat, {1, 3, 1, 1});
    EXPECT_EQ(miopenConvolutionForwardBias(h, &kOne, bad_b, bv.data(), &kZero, y, yv.data()),
              miopenStatusBadParm);
}

TEST(Convolution, ImmediateApiAllDirections)
{
    mmt::Handle h;
    Problem2x2 p;
    // forward
    size_t count = 0;
    ASSERT_EQ(miopenConvolutionForwardGetSolutionCount(h, p.w, p.x, p.conv, p.y, &count),
              miopenStatusSuccess);
    ASSERT_EQ(count, 2u);
    std::vector<miopenConvSolution_t> sols(count);
    size_t got = 0;
    ASSERT_EQ(miopenConvolutionForwardGetSolution(h, p.w, p.x, p.conv, p.y, count, &got, sols.data()),
              miopenStatusSuccess);
    ASSERT_EQ(got, 2u);
    std::vector<uint64_t> ids;
    for(const auto& s : sols)
    {
        ids.push_back(s.solution_id);
        size_t ws = 1;
        ASSERT_EQ(miopenConvolutionForwardGetSolutionWorkspaceSize(h, p.w, p.x, p.conv, p.y,
                                                                   s.solution_id, &ws),
                  miopenStatusSuccess);
        EXPECT_EQ(ws, s.workspace_size);
        EXPECT_EQ(ws, s.algorithm == miopenConvolutionAlgoGEMM ? 64u : 0u);
        ASSERT_EQ(miopenConvolutionForwardCompileSolution(h, p.w, p.x, p.conv, p.y, s.solution_id),
                  miopenStatusSuccess);
        std::vector<char> wsbuf(ws);
        std::vector<float> y(4);
        ASSERT_EQ(miopenConvolutionForwardImmediate(h, p.w, kW.data(), p.x, kX.data(), p.conv, p.y,
                                                    y.data(), wsbuf.data(), ws, s.solution_id),
                  miopenStatusSuccess);
        EXPECT_EQ(y, kY) << "solution " << s.solution_id;
    }
    // ConvDirectNaiveConvFwd and GemmFwdRest.
    EXPECT_EQ(ids, (std::vector<uint64_t>{85, 91}));
    EXPECT_EQ(sols[0].algorithm, miopenConvolutionAlgoDirect);

    // backward data
    ASSERT_EQ(miopenConvolutionBackwardDataGetSolutionCount(h, p.y, p.w, p.conv, p.x, &count),
              miopenStatusSuccess);
    ASSERT_EQ(count, 2u);
    ASSERT_EQ(miopenConvolutionBackwardDataGetSolution(h, p.y, p.w, p.conv, p.x, 1, &got, sols.data()),
              miopenStatusSuccess);
    ASSERT_EQ(got, 1u);
    EXPECT_EQ(sols[0].solution_id, 86u);
    size_t ws = 0;
    ASSERT_EQ(miopenConvolutionBackwardDataGetSolutionWorkspaceSize(h, p.y, p.w, p.conv, p.x, 97, &ws),
              miopenStatusSuccess);
    EXPECT_GT(ws, 0u);
    ASSERT_EQ(miopenConvolutionBackwardDataCompileSolution(h, p.y, p.w, p.conv, p.x, 86),
              miopenStatusSuccess);
    std::vector<float> dx(9);
    ASSERT_EQ(miopenConvolutionBackwardDataImmediate(h, p.y, kDy.data(), p.w, kW.data(), p.conv, p.x,
                                                     dx.data(), nullptr, 0, 86),
              miopenStatusSuccess);
    EXPECT_EQ(dx, kDx);

    // backward weights
    ASSERT_EQ(miopenConvolutionBackwardWeightsGetSolutionCount(h, p.y, p.x, p.conv, p.w, &count),
              miopenStatusSuccess);
    ASSERT_EQ(count, 2u);
    ASSERT_EQ(miopenConvolutionBackwardWeightsGetSolution(h, p.y, p.x, p.conv, p.w, 2, &got, sols.data()),
              miopenStatusSuccess);
    EXPECT_EQ(sols[0].solution_id, 87u);
    EXPECT_EQ(sols[1].solution_id, 102u);
    ASSERT_EQ(miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize(h, p.y, p.x, p.conv, p.w, 102, &ws),
              miopenStatusSuccess);
    ASSERT_EQ(miopenConvolutionBackwardWeightsCompileSolution(h, p.y, p.x, p.conv, p.w, 102),
              miopenStatusSuccess);
    std::vector<char> wsbuf(ws);
    std::vector<float> dw(4);
    ASSERT_EQ(miopenConvolutionBackwardWeightsImmediate(h, p.y, kDy.data(), p.x, kX.data(), p.conv, p.w,
                                                        dw.data(), wsbuf.data(), ws, 102),
              miopenStatusSuccess);
    EXPECT_EQ(dw, kDw);
}

TEST(Convolution, ImmediateApiInvalidArguments)
{
    mmt::Handle h;
    Problem2x2 p;
    std::vector<float> y(4);
    // Unknown id, and a backward-data id given to forward.
    EXPECT_EQ(miopenConvolutionForwardImmediate(h, p.w, kW.data(), p.x, kX.data(), p.conv, p.y, y.data(),
                                                nullptr, 0, 12345),
              miopenStatusBadParm);
    EXPECT_EQ(miopenConvolutionForwardCompileSolution(h, p.w, p.x, p.conv, p.y, 86), miopenStatusBadParm);
    // GEMM without its workspace.
    EXPECT_EQ(miopenConvolutionForwardImmediate(h, p.w, kW.data(), p.x, kX.data(), p.conv, p.y, y.data(),
                                                nullptr, 0, 91),
              miopenStatusBadParm);
    size_t count = 0;
    miopenConvSolution_t sol;
    EXPECT_EQ(miopenConvolutionForwardGetSolution(h, p.w, p.x, p.conv, p.y, 0, &count, &sol),
              miopenStatusBadParm);
    EXPECT_EQ(miopenConvolutionForwardGetSolution(h, p.w, p.x, p.conv, p.y, 1, &count, nullptr),
              miopenStatusBadParm);
    EXPECT_EQ(miopenConvolutionForwardGetSolutionCount(nullptr, p.w, p.x, p.conv, p.y, &count),
              miopenStatusBadParm);
    EXPECT_EQ(miopenConvolutionForwardGetSolutionCount(h, p.w, p.x, nullptr, p.y, &count),
              miopenStatusBadParm);
}

TEST(Convolution, LegacyInvalidArguments)
{
    mmt::Handle h;
    Problem2x2 p;
    std::vector<float> y(4);
    auto fwd = [&](miopenHandle_t hh, miopenTensorDescriptor_t xd, miopenTensorDescriptor_t wd,
                   miopenConvolutionDescriptor_t cd, miopenTensorDescriptor_t yd,
                   miopenConvFwdAlgorithm_t algo = miopenConvolutionFwdAlgoDirect) {
        return miopenConvolutionForward(hh, &kOne, xd, kX.data(), wd, kW.data(), cd, algo, &kZero, yd,
                                        y.data(), nullptr, 0);
    };
    EXPECT_EQ(fwd(nullptr, p.x, p.w, p.conv, p.y), miopenStatusBadParm);
    EXPECT_EQ(fwd(h, nullptr, p.w, p.conv, p.y), miopenStatusBadParm);
    EXPECT_EQ(fwd(h, p.x, nullptr, p.conv, p.y), miopenStatusBadParm);
    EXPECT_EQ(fwd(h, p.x, p.w, nullptr, p.y), miopenStatusBadParm);
    EXPECT_EQ(fwd(h, p.x, p.w, p.conv, nullptr), miopenStatusBadParm);
    // Mismatched data types between input and filter.
    mmt::Tensor w_half(miopenHalf, {1, 1, 2, 2});
    EXPECT_EQ(fwd(h, p.x, w_half, p.conv, p.y), miopenStatusBadParm);
    // Output of the wrong size.
    mmt::Tensor y_big(miopenFloat, {1, 1, 3, 3});
    EXPECT_EQ(fwd(h, p.x, p.w, p.conv, y_big), miopenStatusBadParm);
    // Filter larger than the padded input.
    mmt::Tensor w_big(miopenFloat, {1, 1, 4, 4});
    EXPECT_EQ(fwd(h, p.x, w_big, p.conv, p.y), miopenStatusBadParm);
    // Algorithms the test bed does not have, and an invalid enum value.
    EXPECT_EQ(fwd(h, p.x, p.w, p.conv, p.y, miopenConvolutionFwdAlgoWinograd), miopenStatusNotImplemented);
    EXPECT_EQ(fwd(h, p.x, p.w, p.conv, p.y, static_cast<miopenConvFwdAlgorithm_t>(42)),
              miopenStatusBadParm);
    // GEMM without workspace.
    EXPECT_EQ(fwd(h, p.x, p.w, p.conv, p.y, miopenConvolutionFwdAlgoGEMM), miopenStatusBadParm);
    // Null alpha and null buffers.
    EXPECT_EQ(miopenConvolutionForward(h, nullptr, p.x, kX.data(), p.w, kW.data(), p.conv,
                                       miopenConvolutionFwdAlgoDirect, &kZero, p.y, y.data(), nullptr, 0),
              miopenStatusBadParm);
    EXPECT_EQ(miopenConvolutionForward(h, &kOne, p.x, nullptr, p.w, kW.data(), p.conv,
                                       miopenConvolutionFwdAlgoDirect, &kZero, p.y, y.data(), nullptr, 0),
              miopenStatusBadParm);
    // Element types the test bed does not compute.
    mmt::Tensor xi(miopenInt8, {1, 1, 3, 3}), wi(miopenInt8, {1, 1, 2, 2}), yi(miopenInt8, {1, 1, 2, 2});
    EXPECT_EQ(fwd(h, xi, wi, p.conv, yi), miopenStatusNotImplemented);
    EXPECT_EQ(miopenConvolutionBackwardData(h, &kOne, p.y, kDy.data(), p.w, kW.data(), p.conv,
                                            miopenTransposeBwdDataAlgoGEMM, &kZero, p.x, y.data(),
                                            nullptr, 0),
              miopenStatusNotImplemented);
}

TEST(Convolution, DescriptorInvalidArguments)
{
    EXPECT_EQ(miopenCreateConvolutionDescriptor(nullptr), miopenStatusBadParm);
    mmt::Conv conv;
    EXPECT_EQ(miopenInitConvolutionDescriptor(conv, miopenConvolution, -1, 0, 1, 1, 1, 1),
              miopenStatusBadParm);
    EXPECT_EQ(miopenInitConvolutionDescriptor(conv, miopenConvolution, 0, 0, 0, 1, 1, 1),
              miopenStatusBadParm);
    EXPECT_EQ(miopenInitConvolutionDescriptor(conv, static_cast<miopenConvolutionMode_t>(9), 0, 0,
                                              1, 1, 1, 1),
              miopenStatusBadParm);
    EXPECT_EQ(miopenInitConvolutionNdDescriptor(conv, 3, nullptr, nullptr, nullptr, miopenConvolution),
              miopenStatusBadParm);
    EXPECT_EQ(miopenSetConvolutionGroupCount(conv, 0), miopenStatusBadParm);
    EXPECT_EQ(miopenSetConvolutionGroupCount(nullptr, 2), miopenStatusBadParm);
    int g;
    EXPECT_EQ(miopenGetConvolutionGroupCount(conv, nullptr), miopenStatusBadParm);
    EXPECT_EQ(miopenGetConvolutionGroupCount(nullptr, &g), miopenStatusBadParm);

    // Group count that does not divide the channels.
    mmt::Tensor x(miopenFloat, {1, 3, 4, 4}), w(miopenFloat, {4, 1, 3, 3});
    ASSERT_EQ(miopenSetConvolutionGroupCount(conv, 2), miopenStatusSuccess);
    int n, c, hh, ww;
    EXPECT_EQ(miopenGetConvolutionForwardOutputDim(conv, x, w, &n, &c, &hh, &ww), miopenStatusBadParm);
    // Channels do not match the filter without groups.
    ASSERT_EQ(miopenSetConvolutionGroupCount(conv, 1), miopenStatusSuccess);
    EXPECT_EQ(miopenGetConvolutionForwardOutputDim(conv, x, w, &n, &c, &hh, &ww), miopenStatusBadParm);
    // Rank that does not match the 2-D descriptor.
    mmt::Tensor x5(miopenFloat, {1, 1, 2, 2, 2}), w5(miopenFloat, {1, 1, 1, 1, 1});
    EXPECT_EQ(miopenGetConvolutionForwardOutputDim(conv, x5, w5, &n, &c, &hh, &ww), miopenStatusBadParm);
    // Transposed convolutions are described but not implemented.
    ASSERT_EQ(miopenInitConvolutionDescriptor(conv, miopenTranspose, 0, 0, 1, 1, 1, 1), miopenStatusSuccess);
    mmt::Tensor w3(miopenFloat, {4, 3, 3, 3});
    EXPECT_EQ(miopenGetConvolutionForwardOutputDim(conv, x, w3, &n, &c, &hh, &ww),
              miopenStatusNotImplemented);
}

TEST(Convolution, HiddenFindModeControls)
{
    mmt::Conv conv;
    int mode = 0;
    ASSERT_EQ(miopenHiddenGetConvolutionFindMode(conv, &mode), miopenStatusSuccess);
    EXPECT_EQ(mode, 5); // DynamicHybrid by default
    ASSERT_EQ(miopenHiddenSetConvolutionFindMode(conv, 1), miopenStatusSuccess);
    ASSERT_EQ(miopenHiddenGetConvolutionFindMode(conv, &mode), miopenStatusSuccess);
    EXPECT_EQ(mode, 1);
    EXPECT_EQ(miopenHiddenSetConvolutionFindMode(conv, 99), miopenStatusBadParm);
    EXPECT_EQ(miopenHiddenSetConvolutionFindMode(nullptr, 1), miopenStatusBadParm);
    EXPECT_EQ(miopenHiddenGetConvolutionFindMode(conv, nullptr), miopenStatusBadParm);
}

namespace {

std::string ReadFile(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

const char* kDbFile = "cpu_ref.HIP.ufdb.txt";

} // namespace

TEST(Convolution, FindAllDirectionsRecordsAndRunsTheResult)
{
    const auto dir = mmt::MakeTempDir("find");
    mmt::ScopedEnv db("MIOPEN_USER_DB_PATH", dir.c_str());
    mmt::Handle h;
    Problem2x2 p;
    std::vector<char> ws(64);
    miopenConvAlgoPerf_t perf[4];
    int n = 0;
    std::vector<float> y(4);
    ASSERT_EQ(miopenFindConvolutionForwardAlgorithm(h, p.x, kX.data(), p.w, kW.data(), p.conv, p.y,
                                                    y.data(), 4, &n, perf, ws.data(), ws.size(), false),
              miopenStatusSuccess);
    ASSERT_EQ(n, 2);
    for(int i = 0; i < n; ++i)
    {
        EXPECT_TRUE(perf[i].fwd_algo == miopenConvolutionFwdAlgoDirect ||
                    perf[i].fwd_algo == miopenConvolutionFwdAlgoGEMM);
        EXPECT_EQ(perf[i].memory, perf[i].fwd_algo == miopenConvolutionFwdAlgoGEMM ? 64u : 0u);
        EXPECT_GE(perf[i].time, 0.0f);
        std::vector<float> out(4);
        ASSERT_EQ(miopenConvolutionForward(h, &kOne, p.x, kX.data(), p.w, kW.data(), p.conv,
                                           perf[i].fwd_algo, &kZero, p.y, out.data(), ws.data(), ws.size()),
                  miopenStatusSuccess);
        EXPECT_EQ(out, kY);
    }
    EXPECT_LE(perf[0].time, perf[1].time);

    // Without a workspace only the direct solver can be benchmarked.
    std::vector<float> dx(9), dw(4);
    ASSERT_EQ(miopenFindConvolutionBackwardDataAlgorithm(h, p.y, kDy.data(), p.w, kW.data(), p.conv, p.x,
                                                         dx.data(), 4, &n, perf, nullptr, 0, false),
              miopenStatusSuccess);
    ASSERT_EQ(n, 1);
    EXPECT_EQ(perf[0].bwd_data_algo, miopenConvolutionBwdDataAlgoDirect);
    ASSERT_EQ(miopenFindConvolutionBackwardWeightsAlgorithm(h, p.y, kDy.data(), p.x, kX.data(), p.conv,
                                                            p.w, dw.data(), 1, &n, perf, ws.data(),
                                                            ws.size(), false),
              miopenStatusSuccess);
    ASSERT_EQ(n, 1);
    EXPECT_TRUE(perf[0].bwd_weights_algo == miopenConvolutionBwdWeightsAlgoDirect ||
                perf[0].bwd_weights_algo == miopenConvolutionBwdWeightsAlgoGEMM);

    const auto text = ReadFile(dir + "/" + kDbFile);
    // One line per problem; the order inside a line depends on measured times.
    EXPECT_NE(text.find("1-3x3-1-2x2-2x2-1-0x0-1x1-1x1-1-NCHW-FP32-F="), std::string::npos) << text;
    EXPECT_NE(text.find("ConvDirectNaiveConvFwd:"), std::string::npos) << text;
    EXPECT_NE(text.find("-NCHW-FP32-B=ConvDirectNaiveConvBwd:"), std::string::npos) << text;
    EXPECT_NE(text.find("-NCHW-FP32-W="), std::string::npos) << text;
    EXPECT_NE(text.find("GemmFwdRest:"), std::string::npos) << text;

    // Invalid Find arguments.
    EXPECT_EQ(miopenFindConvolutionForwardAlgorithm(h, p.x, kX.data(), p.w, kW.data(), p.conv, p.y,
                                                    y.data(), 0, &n, perf, nullptr, 0, false),
              miopenStatusBadParm);
    EXPECT_EQ(miopenFindConvolutionForwardAlgorithm(h, p.x, kX.data(), p.w, kW.data(), p.conv, p.y,
                                                    y.data(), 1, nullptr, perf, nullptr, 0, false),
              miopenStatusBadParm);
    EXPECT_EQ(miopenFindConvolutionForwardAlgorithm(h, p.x, nullptr, p.w, kW.data(), p.conv, p.y,
                                                    y.data(), 1, &n, perf, nullptr, 0, false),
              miopenStatusBadParm);
    EXPECT_EQ(miopenFindConvolutionForwardAlgorithm(nullptr, p.x, kX.data(), p.w, kW.data(), p.conv,
                                                    p.y, y.data(), 1, &n, perf, nullptr, 0, false),
              miopenStatusBadParm);
    std::filesystem::remove_all(dir);
}

TEST(Convolution, FindDbIsReadBackByAnotherHandleAndProcess)
{
    const auto dir = mmt::MakeTempDir("finddb");
    mmt::ScopedEnv db("MIOPEN_USER_DB_PATH", dir.c_str());
    Problem2x2 p;
    std::vector<char> ws(64);
    std::vector<float> y(4);
    miopenConvAlgoPerf_t perf[2];
    int n = 0;
    {
        mmt::Handle h1;
        ASSERT_EQ(miopenFindConvolutionForwardAlgorithm(h1, p.x, kX.data(), p.w, kW.data(), p.conv, p.y,
                                                        y.data(), 2, &n, perf, ws.data(), ws.size(), false),
                  miopenStatusSuccess);
    }
    const std::string path = dir + "/" + kDbFile;
    const std::string key  = "1-3x3-1-2x2-2x2-1-0x0-1x1-1x1-1-NCHW-FP32-F";
    ASSERT_NE(ReadFile(path).find(key + "="), std::string::npos);

    // Rewrite the record with times no benchmark would produce: if a later
    // Find returns them, it read the db instead of searching.
    {
        std::ofstream out(path, std::ios::trunc);
        out << key << "=GemmFwdRest:0.25,64,91;ConvDirectNaiveConvFwd:9.5,0,85\n";
    }
    {
        mmt::Handle h2;
        ASSERT_EQ(miopenFindConvolutionForwardAlgorithm(h2, p.x, kX.data(), p.w, kW.data(), p.conv, p.y,
                                                        y.data(), 2, &n, perf, ws.data(), ws.size(), false),
                  miopenStatusSuccess);
        ASSERT_EQ(n, 2);
        EXPECT_EQ(perf[0].fwd_algo, miopenConvolutionFwdAlgoGEMM);
        EXPECT_FLOAT_EQ(perf[0].time, 0.25f);
        EXPECT_EQ(perf[1].fwd_algo, miopenConvolutionFwdAlgoDirect);
        EXPECT_FLOAT_EQ(perf[1].time, 9.5f);
        // The solution API ranks by the recorded times too.
        miopenConvSolution_t sols[2];
        size_t got = 0;
        ASSERT_EQ(miopenConvolutionForwardGetSolution(h2, p.w, p.x, p.conv, p.y, 2, &got, sols),
                  miopenStatusSuccess);
        ASSERT_EQ(got, 2u);
        EXPECT_EQ(sols[0].solution_id, 91u);
        EXPECT_FLOAT_EQ(sols[0].time, 0.25f);
    }

    // A second process sees the same record.
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if(pid == 0)
    {
        close(fds[0]);
        miopenHandle_t h = nullptr;
        float t          = -1.0f;
        if(miopenCreate(&h) == miopenStatusSuccess)
        {
            miopenConvAlgoPerf_t r[2];
            int cnt = 0;
            if(miopenFindConvolutionForwardAlgorithm(h, p.x, kX.data(), p.w, kW.data(), p.conv, p.y,
                                                     y.data(), 2, &cnt, r, ws.data(), ws.size(),
                                                     false) == miopenStatusSuccess &&
               cnt > 0)
                t = r[0].time;
            miopenDestroy(h);
        }
        const ssize_t wr = write(fds[1], &t, sizeof t);
        _exit(wr == static_cast<ssize_t>(sizeof t) ? 0 : 1);
    }
    close(fds[1]);
    float child_time = -2.0f;
    ASSERT_EQ(read(fds[0], &child_time, sizeof child_time), static_cast<ssize_t>(sizeof child_time));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_FLOAT_EQ(child_time, 0.25f);
    std::filesystem::remove_all(dir);
}

TEST(Convolution, FastFindModeDoesNotWriteTheDb)
{
    const auto dir = mmt::MakeTempDir("fast");
    mmt::ScopedEnv db("MIOPEN_USER_DB_PATH", dir.c_str());
    mmt::Handle h;
    Problem2x2 p;
    ASSERT_EQ(miopenHiddenSetConvolutionFindMode(p.conv, 2), miopenStatusSuccess);
    std::vector<float> y(4);
    miopenConvAlgoPerf_t perf[2];
    int n = 0;
    ASSERT_EQ(miopenFindConvolutionForwardAlgorithm(h, p.x, kX.data(), p.w, kW.data(), p.conv, p.y,
                                                    y.data(), 2, &n, perf, nullptr, 0, false),
              miopenStatusSuccess);
    EXPECT_EQ(n, 2);
    EXPECT_FALSE(std::filesystem::exists(dir + "/" + kDbFile));
    std::filesystem::remove_all(dir);
}

TEST(Convolution, ProfilingReportsKernelTime)
{
    mmt::Handle h;
    Problem2x2 p;
    ASSERT_EQ(miopenEnableProfiling(h, true), miopenStatusSuccess);
    std::vector<float> y(4);
    ASSERT_EQ(miopenConvolutionForward(h, &kOne, p.x, kX.data(), p.w, kW.data(), p.conv,
                                       miopenConvolutionFwdAlgoDirect, &kZero, p.y, y.data(), nullptr, 0),
              miopenStatusSuccess);
    float t = -1.0f;
    ASSERT_EQ(miopenGetKernelTime(h, &t), miopenStatusSuccess);
    EXPECT_GE(t, 0.0f);
}
