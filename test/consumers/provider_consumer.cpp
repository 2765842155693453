// Provider-link smoke (RFC §8): a consumer that links MIOpen_private and calls
// the _impl API only, like the rewired hipDNN MIOpen provider. Runs a small
// hand-checked convolution through the private names.
#include "consumer_util.hpp"

#include <miopen/miopen_impl.h>

#include <cmath>
#include <cstdio>

int main()
{
    miopenHandle_t h;
    CHECK(miopenCreate_impl(&h));
    miopenTensorDescriptor_t xd, wd, yd;
    CHECK(miopenCreateTensorDescriptor_impl(&xd));
    CHECK(miopenCreateTensorDescriptor_impl(&wd));
    CHECK(miopenCreateTensorDescriptor_impl(&yd));
    CHECK(miopenSet4dTensorDescriptor_impl(xd, miopenFloat, 1, 1, 3, 3));
    CHECK(miopenSet4dTensorDescriptor_impl(wd, miopenFloat, 1, 1, 2, 2));
    CHECK(miopenSet4dTensorDescriptor_impl(yd, miopenFloat, 1, 1, 2, 2));
    miopenConvolutionDescriptor_t cd;
    CHECK(miopenCreateConvolutionDescriptor_impl(&cd));
    CHECK(miopenInitConvolutionDescriptor_impl(cd, miopenConvolution, 0, 0, 1, 1, 1, 1));
    // x = 1..9 row-major, w = [[1,0],[0,-1]]: y[i][j] = x[i][j] - x[i+1][j+1] = -4 everywhere.
    float x[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    float w[4] = {1, 0, 0, -1};
    float y[4] = {0, 0, 0, 0};
    const float alpha = 1.0f, beta = 0.0f;
    CHECK(miopenConvolutionForward_impl(h, &alpha, xd, x, wd, w, cd, miopenConvolutionFwdAlgoDirect, &beta,
                                        yd, y, nullptr, 0));
    for(float v : y)
        if(std::fabs(v + 4.0f) > 1e-6f)
        {
            std::fprintf(stderr, "provider_consumer: got %f, expected -4\n", v);
            return 1;
        }
    CHECK(miopenDestroyConvolutionDescriptor_impl(cd));
    CHECK(miopenDestroyTensorDescriptor_impl(xd));
    CHECK(miopenDestroyTensorDescriptor_impl(wd));
    CHECK(miopenDestroyTensorDescriptor_impl(yd));
    CHECK(miopenDestroy_impl(h));
    std::printf("provider_consumer: _impl API conv ok\n");
    return 0;
}
