// The tensor descriptor behind miopenTensorDescriptor_t.
#pragma once

#include <miopen/miopen.h>
#include <miopen/object.hpp>
#include <miopen/cpu/kernels.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace miopen {

// Bytes per element; throws miopenStatusBadParm for values outside the enum.
std::size_t GetTypeSize(miopenDataType_t type);
bool IsValidDataType(miopenDataType_t type);
// Short name used in find-db keys and log text ("FP32", "FP16", "BF16", ...).
std::string DataTypeName(miopenDataType_t type);

struct TensorDescriptor : miopenTensorDescriptor
{
    TensorDescriptor() = default;
    // Packed (row-major over lens) when strides is empty.
    TensorDescriptor(miopenDataType_t type,
                     std::vector<std::size_t> lens,
                     std::vector<std::size_t> strides = {});

    // Packed tensor in one of the named layouts; lens in logical N,C,[D,]H,W order.
    static TensorDescriptor WithLayout(miopenDataType_t type,
                                       miopenTensorLayout_t layout,
                                       const std::vector<std::size_t>& lens);

    bool IsSet() const { return !lens.empty(); }
    miopenDataType_t GetType() const { return type; }
    const std::vector<std::size_t>& GetLengths() const { return lens; }
    const std::vector<std::size_t>& GetStrides() const { return strides; }
    std::size_t GetNumDims() const { return lens.size(); }
    std::size_t GetElementSize() const;  // product of lengths
    std::size_t GetElementSpace() const; // elements spanned with strides
    std::size_t GetNumBytes() const { return GetElementSpace() * GetTypeSize(type); }
    bool IsPacked() const;
    // "NCHW", "NHWC", "NCDHW", "NDHWC" for packed tensors in those orders, otherwise "strided".
    std::string GetLayoutName() const;

    void SetCastType(miopenDataType_t t) { cast_type = t; }
    std::optional<miopenDataType_t> GetCastType() const { return cast_type; }

    bool operator==(const TensorDescriptor& o) const
    {
        return type == o.type && lens == o.lens && strides == o.strides;
    }
    bool operator!=(const TensorDescriptor& o) const { return !(*this == o); }

    // Throws miopenStatusBadParm if the descriptor was never set.
    void CheckSet(const char* what) const;

    // View for the CPU kernels. Requires 4 or 5 dims and a computable type
    // (fp32, fp16, bf16), else miopenStatusNotImplemented.
    cpu::TensorView View(const void* data) const;

private:
    miopenDataType_t type = miopenFloat;
    std::vector<std::size_t> lens;
    std::vector<std::size_t> strides;
    std::optional<miopenDataType_t> cast_type;
};

cpu::DataType ToCpuType(miopenDataType_t type);
std::string LensToString(const std::vector<std::size_t>& v, char sep = 'x');

// Reads an alpha/beta scaling factor: MIOpen passes them as pointers to float.
float ReadScale(const void* p, const char* name);

} // namespace miopen

MIOPEN_DEFINE_OBJECT(miopenTensorDescriptor, miopen::TensorDescriptor)
