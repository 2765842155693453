#include <miopen/convolution.hpp>
#include <miopen/driver_arguments.hpp>
#include <miopen/logger.hpp>
#include <miopen/tensor.hpp>

#include <algorithm>
#include <numeric>
#include <sstream>
#include <tuple>

namespace miopen {
namespace debug {

// MIOpen's layout name of a 4-D / 5-D tensor: the NC(D)HW labels ordered by
// stride (then length), largest first, so any NCHW-ordered tensor is "NCHW"
// whether packed or not.
std::string LayoutByStrides(const TensorDescriptor& t)
{
    const auto& lens    = t.GetLengths();
    const auto& strides = t.GetStrides();
    const std::string labels = lens.size() == 5 ? "NCDHW" : "NCHW";
    if(lens.size() != labels.size())
        return "UNKNOWN";
    std::vector<std::size_t> order(lens.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::make_tuple(strides[a], lens[a]) > std::make_tuple(strides[b], lens[b]);
    });
    std::string out;
    for(auto i : order)
        out += labels[i];
    return out;
}

namespace {


// "conv", "convfp16", "convbfp16" or "convint8", after the input's type.
const char* DriverName(miopenDataType_t type)
{
    switch(type)
    {
    case miopenHalf: return "convfp16";
    case miopenBFloat16: return "convbfp16";
    case miopenInt8: return "convint8";
    default: return "conv";
    }
}

void Layouts(std::ostream& os,
             const TensorDescriptor& x,
             const TensorDescriptor& w,
             const TensorDescriptor& y,
             const std::string& plain)
{
    const std::pair<const char*, const TensorDescriptor*> tensors[] = {
        {" --in_layout ", &x}, {" --fil_layout ", &w}, {" --out_layout ", &y}};
    for(const auto& [flag, t] : tensors)
    {
        const auto layout = LayoutByStrides(*t);
        if(layout != plain)
            os << flag << layout;
    }
}

void Dims2d(std::ostream& os,
            const TensorDescriptor& x,
            const TensorDescriptor& w,
            const ConvolutionDescriptor& conv,
            std::size_t k)
{
    const auto &xl = x.GetLengths(), &wl = w.GetLengths();
    const auto &p = conv.GetPads(), &s = conv.GetStrides(), &d = conv.GetDilations();
    os << " -n " << xl[0] << " -c " << xl[1] << " -H " << xl[2] << " -W " << xl[3] << " -k " << k
       << " -y " << wl[2] << " -x " << wl[3] << " -p " << p[0] << " -q " << p[1] << " -u " << s[0]
       << " -v " << s[1] << " -l " << d[0] << " -j " << d[1];
}

void Dims3d(std::ostream& os,
            const TensorDescriptor& x,
            const TensorDescriptor& w,
            const ConvolutionDescriptor& conv,
            std::size_t k)
{
    const auto &xl = x.GetLengths(), &wl = w.GetLengths();
    const auto &p = conv.GetPads(), &s = conv.GetStrides(), &d = conv.GetDilations();
    os << " -n " << xl[0] << " -c " << xl[1] << " --in_d " << xl[2] << " -H " << xl[3] << " -W "
       << xl[4] << " -k " << k << " --fil_d " << wl[2] << " -y " << wl[3] << " -x " << wl[4]
       << " --pad_d " << p[0] << " -p " << p[1] << " -q " << p[2] << " --conv_stride_d " << s[0]
       << " -u " << s[1] << " -v " << s[2] << " --dilation_d " << d[0] << " -l " << d[1] << " -j "
       << d[2] << " --spatial_dim 3";
}

bool AnyNull(miopenTensorDescriptor_t x,
             miopenTensorDescriptor_t w,
             miopenConvolutionDescriptor_t conv,
             miopenTensorDescriptor_t y)
{
    return x == nullptr || w == nullptr || conv == nullptr || y == nullptr;
}

} // namespace

DriverConvDirection ToDriverDirection(ConvDirection d)
{
    switch(d)
    {
    case ConvDirection::Forward: return DriverConvDirection::Fwd;
    case ConvDirection::BackwardData: return DriverConvDirection::Bwd;
    case ConvDirection::BackwardWeights: return DriverConvDirection::WrW;
    }
    return DriverConvDirection::Fwd;
}

std::string ConvArgsForMIOpenDriver(const TensorDescriptor& x,
                                    const TensorDescriptor& w,
                                    const ConvolutionDescriptor& conv,
                                    const TensorDescriptor& y,
                                    DriverConvDirection dir,
                                    std::optional<std::uint64_t> solver_id,
                                    bool print_for_conv_driver)
{
    std::ostringstream ss;
    if(print_for_conv_driver)
        ss << DriverName(x.GetType());
    const bool transposed = conv.GetMode() == miopenTranspose;
    const auto& wl        = w.GetLengths();
    const int spatial     = conv.GetSpatialDim();
    if(spatial == 2 && x.GetNumDims() == 4 && wl.size() == 4)
    {
        Dims2d(ss, x, w, conv, transposed ? wl[1] : wl[0]);
        Layouts(ss, x, w, y, "NCHW");
    }
    else if(spatial == 3 && x.GetNumDims() == 5 && wl.size() == 5)
    {
        Dims3d(ss, x, w, conv, transposed ? wl[1] : wl[0]);
        Layouts(ss, x, w, y, "NCDHW");
    }
    if(print_for_conv_driver)
        ss << " -m " << (transposed ? "trans" : "conv");
    ss << " -g " << conv.GetGroupCount();
    if(print_for_conv_driver)
        ss << " -F " << static_cast<int>(dir) << " -t 1";
    if(solver_id.has_value())
        ss << " -S " << *solver_id;
    return ss.str();
}

void LogCmdConvolution(const TensorDescriptor& x,
                       const TensorDescriptor& w,
                       const ConvolutionDescriptor& conv,
                       const TensorDescriptor& y,
                       DriverConvDirection dir,
                       std::optional<std::uint64_t> solver_id)
{
    if(IsLoggingCmd())
        MIOPEN_LOG_DRIVER_CMD(ConvArgsForMIOpenDriver(x, w, conv, y, dir, solver_id, true));
}

void LogCmdConvolution(miopenTensorDescriptor_t x,
                       miopenTensorDescriptor_t w,
                       miopenConvolutionDescriptor_t conv,
                       miopenTensorDescriptor_t y,
                       DriverConvDirection dir,
                       bool immediate)
{
    if(!IsLoggingCmd() || AnyNull(x, w, conv, y))
        return;
    LogCmdConvolution(deref(x),
                      deref(w),
                      deref(conv),
                      deref(y),
                      dir,
                      immediate ? std::optional<std::uint64_t>{0} : std::nullopt);
}

// Its own body, not a call to LogCmdConvolution: the driver line is tagged
// with the logging function's name ([LogCmdFindConvolution]), as MIOpen's is.
void LogCmdFindConvolution(const TensorDescriptor& x,
                           const TensorDescriptor& w,
                           const ConvolutionDescriptor& conv,
                           const TensorDescriptor& y,
                           DriverConvDirection dir,
                           std::optional<std::uint64_t> solver_id)
{
    if(IsLoggingCmd())
        MIOPEN_LOG_DRIVER_CMD(ConvArgsForMIOpenDriver(x, w, conv, y, dir, solver_id, true));
}

void LogCmdFindConvolution(miopenTensorDescriptor_t x,
                           miopenTensorDescriptor_t w,
                           miopenConvolutionDescriptor_t conv,
                           miopenTensorDescriptor_t y,
                           DriverConvDirection dir)
{
    if(!IsLoggingCmd() || AnyNull(x, w, conv, y))
        return;
    LogCmdFindConvolution(deref(x), deref(w), deref(conv), deref(y), dir, std::nullopt);
}

} // namespace debug
} // namespace miopen
