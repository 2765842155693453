// Tensor descriptor implementation.
#include <miopen/tensor.hpp>

#include <algorithm>
#include <numeric>
#include <sstream>

namespace miopen {

bool IsValidDataType(miopenDataType_t type)
{
    switch(static_cast<int>(type))
    {
    case miopenHalf:
    case miopenFloat:
    case miopenInt32:
    case miopenInt8:
    case miopenBFloat16:
    case miopenDouble:
    case 7: // miopenFloat8 (beta)
    case 8: // miopenBFloat8 (beta)
    case miopenInt64: return true;
    default: return false;
    }
}

std::size_t GetTypeSize(miopenDataType_t type)
{
    switch(static_cast<int>(type))
    {
    case miopenHalf:
    case miopenBFloat16: return 2;
    case miopenFloat:
    case miopenInt32: return 4;
    case miopenInt8:
    case 7:
    case 8: return 1;
    case miopenDouble:
    case miopenInt64: return 8;
    default: break;
    }
    MIOPEN_THROW(miopenStatusBadParm, "Unsupported data type");
}

std::string DataTypeName(miopenDataType_t type)
{
    switch(static_cast<int>(type))
    {
    case miopenHalf: return "FP16";
    case miopenFloat: return "FP32";
    case miopenInt32: return "INT32";
    case miopenInt8: return "INT8";
    case miopenBFloat16: return "BF16";
    case miopenDouble: return "FP64";
    case 7: return "FP8";
    case 8: return "BFP8";
    case miopenInt64: return "INT64";
    default: break;
    }
    return "UNKNOWN";
}

cpu::DataType ToCpuType(miopenDataType_t type)
{
    switch(type)
    {
    case miopenFloat: return cpu::DataType::Float;
    case miopenHalf: return cpu::DataType::Half;
    case miopenBFloat16: return cpu::DataType::BFloat16;
    default: break;
    }
    MIOPEN_THROW(miopenStatusNotImplemented,
                 "Data type " + DataTypeName(type) + " is not computed by the test bed");
}

std::string LensToString(const std::vector<std::size_t>& v, char sep)
{
    std::ostringstream ss;
    for(std::size_t i = 0; i < v.size(); ++i)
    {
        if(i != 0)
            ss << sep;
        ss << v[i];
    }
    return ss.str();
}

float ReadScale(const void* p, const char* name)
{
    if(p == nullptr)
        MIOPEN_THROW(miopenStatusBadParm, std::string("Null scaling factor ") + name);
    return *static_cast<const float*>(p);
}

TensorDescriptor::TensorDescriptor(miopenDataType_t t,
                                   std::vector<std::size_t> lens_,
                                   std::vector<std::size_t> strides_)
    : type(t), lens(std::move(lens_)), strides(std::move(strides_))
{
    if(!IsValidDataType(type))
        MIOPEN_THROW(miopenStatusBadParm, "Unsupported data type");
    if(lens.empty())
        MIOPEN_THROW(miopenStatusBadParm, "Number of dimensions must be > 0");
    if(std::any_of(lens.begin(), lens.end(), [](auto l) { return l == 0; }))
        MIOPEN_THROW(miopenStatusBadParm, "Lengths must be > 0");
    if(strides.empty())
    {
        // Packed, last dimension fastest.
        strides.assign(lens.size(), 1);
        for(std::size_t i = lens.size() - 1; i > 0; --i)
            strides[i - 1] = strides[i] * lens[i];
    }
    else
    {
        if(strides.size() != lens.size())
            MIOPEN_THROW(miopenStatusBadParm, "Lengths and strides dimensions must be equal");
        if(std::any_of(strides.begin(), strides.end(), [](auto s) { return s == 0; }))
            MIOPEN_THROW(miopenStatusBadParm, "Strides must be > 0");
    }
}

TensorDescriptor TensorDescriptor::WithLayout(miopenDataType_t type,
                                              miopenTensorLayout_t layout,
                                              const std::vector<std::size_t>& lens)
{
    const auto nd = lens.size();
    switch(layout)
    {
    case miopenTensorNCHW:
    case miopenTensorNCDHW:
        if((layout == miopenTensorNCHW && nd != 4) || (layout == miopenTensorNCDHW && nd != 5))
            MIOPEN_THROW(miopenStatusBadParm, "Layout does not match the number of dimensions");
        return TensorDescriptor(type, lens);
    case miopenTensorNHWC:
    case miopenTensorNDHWC: {
        if((layout == miopenTensorNHWC && nd != 4) || (layout == miopenTensorNDHWC && nd != 5))
            MIOPEN_THROW(miopenStatusBadParm, "Layout does not match the number of dimensions");
        // Channels fastest, then the spatial dims in order, batch slowest.
        std::vector<std::size_t> strides(nd);
        strides[1]       = 1;
        std::size_t step = lens[1];
        for(std::size_t i = nd - 1; i >= 2; --i)
        {
            strides[i] = step;
            step *= lens[i];
        }
        strides[0] = step;
        return TensorDescriptor(type, lens, strides);
    }
    case miopenTensorCHWN:
    case miopenTensorNCHWc4:
    case miopenTensorNCHWc8:
    case miopenTensorCHWNc4:
    case miopenTensorCHWNc8:
        MIOPEN_THROW(miopenStatusNotImplemented, "Vectorized/CHWN layouts are not supported");
    }
    MIOPEN_THROW(miopenStatusBadParm, "Unsupported layout");
}

std::size_t TensorDescriptor::GetElementSize() const
{
    if(lens.empty())
        return 0;
    return std::accumulate(lens.begin(), lens.end(), std::size_t{1}, std::multiplies<>{});
}

std::size_t TensorDescriptor::GetElementSpace() const
{
    if(lens.empty())
        return 0;
    std::size_t span = 1;
    for(std::size_t i = 0; i < lens.size(); ++i)
        span += (lens[i] - 1) * strides[i];
    return span;
}

bool TensorDescriptor::IsPacked() const { return GetElementSpace() == GetElementSize(); }

std::string TensorDescriptor::GetLayoutName() const
{
    const auto nd = lens.size();
    if(nd == 4 || nd == 5)
    {
        const bool three_d = nd == 5;
        if(*this == TensorDescriptor(type, lens))
            return three_d ? "NCDHW" : "NCHW";
        if(*this == WithLayout(type, three_d ? miopenTensorNDHWC : miopenTensorNHWC, lens))
            return three_d ? "NDHWC" : "NHWC";
    }
    return "strided";
}

void TensorDescriptor::CheckSet(const char* what) const
{
    if(!IsSet())
        MIOPEN_THROW(miopenStatusBadParm, std::string("Tensor descriptor not set: ") + what);
}

cpu::TensorView TensorDescriptor::View(const void* data) const
{
    cpu::TensorView v{};
    v.type = ToCpuType(type);
    if(lens.size() != 4 && lens.size() != 5)
        MIOPEN_THROW(miopenStatusNotImplemented, "Only 4-D and 5-D tensors are computed");
    v.nd = static_cast<int>(lens.size());
    for(std::size_t i = 0; i < lens.size(); ++i)
    {
        v.lens[i]    = static_cast<std::int64_t>(lens[i]);
        v.strides[i] = static_cast<std::int64_t>(strides[i]);
    }
    v.data = const_cast<void*>(data);
    return v;
}

} // namespace miopen
