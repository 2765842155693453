// What the spatial and per-activation batchnorm kernel tests share: their
// parameterisation (x type and parameter type, layout) and the check of a
// training call's statistics of one group.
#pragma once

#include "test_util.hpp"

#include <miopen/cpu/batchnorm.hpp>

#include <tuple>
#include <utility>

namespace kt {

// (data type, parameter type), layout
using BnParam = std::tuple<std::pair<DataType, DataType>, Layout>;

inline auto bn_type_layouts()
{
    return ::testing::Combine(::testing::Values(std::make_pair(DataType::Float, DataType::Float),
                                                std::make_pair(DataType::Half, DataType::Float),
                                                std::make_pair(DataType::BFloat16, DataType::Float),
                                                std::make_pair(DataType::Half, DataType::Half),
                                                std::make_pair(DataType::BFloat16, DataType::BFloat16)),
                              ::testing::Values(Layout::Packed, Layout::ChannelsLast, Layout::Padded));
}

inline std::string bn_param_name(const ::testing::TestParamInfo<BnParam>& info)
{
    return std::string(type_name(std::get<0>(info.param).first)) + "_params_" +
           type_name(std::get<0>(info.param).second) + "_" + layout_name(std::get<1>(info.param));
}

// The running mean and variance, saved mean and inverse std-dev a training
// call left at parameter element `at`, against their reference values, each
// within the parameter type's rounding (`up`, its unit roundoff).
struct TrainingStats
{
    double running_mean, running_var, saved_mean, saved_inv;
};
inline void expect_training_stats(const Tensor& rmean,
                                  const Tensor& rvar,
                                  const Tensor& smean,
                                  const Tensor& sinv,
                                  std::int64_t at,
                                  const TrainingStats& want,
                                  double up)
{
    EXPECT_NEAR(rmean.at_linear(at), want.running_mean, 1.001 * up * std::fabs(want.running_mean) + 1e-6) << at;
    EXPECT_NEAR(rvar.at_linear(at), want.running_var, 1.001 * up * std::fabs(want.running_var) + 1e-6) << at;
    EXPECT_NEAR(smean.at_linear(at), want.saved_mean, 1.001 * up * std::fabs(want.saved_mean) + 1e-6) << at;
    EXPECT_NEAR(sinv.at_linear(at), want.saved_inv, 1.001 * up * want.saved_inv + 1e-6 * want.saved_inv) << at;
}

} // namespace kt
