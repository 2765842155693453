// Public entry points of the tensor descriptor family.
#include <miopen/errors.hpp>
#include <miopen/logger.hpp>
#include <miopen/tensor.hpp>

#include <climits>
#include <vector>

namespace {

// Copies a user array of lengths/strides, rejecting null arrays and
// non-positive values (miopenStatusBadParm).
template <class T>
std::vector<std::size_t> CopyDims(const T* values, int count, const char* what)
{
    if(count <= 0)
        MIOPEN_THROW(miopenStatusBadParm, std::string("Invalid number of dimensions for ") + what);
    if(values == nullptr)
        MIOPEN_THROW(miopenStatusBadParm, std::string("Null array: ") + what);
    std::vector<std::size_t> out(count);
    for(int i = 0; i < count; ++i)
    {
        if(values[i] <= 0)
            MIOPEN_THROW(miopenStatusBadParm, std::string("Values must be > 0: ") + what);
        out[i] = static_cast<std::size_t>(values[i]);
    }
    return out;
}

int ToInt(std::size_t v)
{
    if(v > static_cast<std::size_t>(INT_MAX))
        MIOPEN_THROW(miopenStatusBadParm, "Value does not fit in int");
    return static_cast<int>(v);
}

} // namespace

extern "C" miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t* tensorDesc)
{
    MIOPEN_LOG_FUNCTION(tensorDesc);
    return miopen::try_([&] {
        auto& out = miopen::deref(tensorDesc);
        out       = miopen::to_handle(new miopen::TensorDescriptor());
    });
}

extern "C" miopenStatus_t miopenSet4dTensorDescriptor(
    miopenTensorDescriptor_t tensorDesc, miopenDataType_t dataType, int n, int c, int h, int w)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, n, c, h, w);
    return miopen::try_([&] {
        const int lens[] = {n, c, h, w};
        miopen::deref(tensorDesc) =
            miopen::TensorDescriptor(dataType, CopyDims(lens, 4, "lengths"));
    });
}

extern "C" MIOPEN_EXPORT miopenStatus_t
miopenSetNdTensorDescriptorWithLayout(miopenTensorDescriptor_t tensorDesc,
                                      miopenDataType_t dataType,
                                      miopenTensorLayout_t tensorLayout,
                                      const int* lens,
                                      int num_lens)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, tensorLayout, lens, num_lens);
    return miopen::try_([&] {
        auto& desc = miopen::deref(tensorDesc);
        desc       = miopen::TensorDescriptor::WithLayout(
            dataType, tensorLayout, CopyDims(lens, num_lens, "lengths"));
    });
}

extern "C" miopenStatus_t miopenSet4dTensorDescriptorEx(miopenTensorDescriptor_t tensorDesc,
                                                        miopenDataType_t dataType,
                                                        int n,
                                                        int c,
                                                        int h,
                                                        int w,
                                                        int nStride,
                                                        int cStride,
                                                        int hStride,
                                                        int wStride)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, n, c, h, w, nStride, cStride, hStride, wStride);
    return miopen::try_([&] {
        const int lens[]    = {n, c, h, w};
        const int strides[] = {nStride, cStride, hStride, wStride};
        miopen::deref(tensorDesc) = miopen::TensorDescriptor(
            dataType, CopyDims(lens, 4, "lengths"), CopyDims(strides, 4, "strides"));
    });
}

extern "C" miopenStatus_t miopenGet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                      miopenDataType_t* dataType,
                                                      int* n,
                                                      int* c,
                                                      int* h,
                                                      int* w,
                                                      int* nStride,
                                                      int* cStride,
                                                      int* hStride,
                                                      int* wStride)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, n, c, h, w, nStride, cStride, hStride, wStride);
    return miopen::try_([&] {
        const auto& desc = miopen::deref(tensorDesc);
        desc.CheckSet("tensorDesc");
        if(desc.GetNumDims() != 4)
            MIOPEN_THROW(miopenStatusBadParm, "Descriptor is not 4-D");
        const auto& l = desc.GetLengths();
        const auto& s = desc.GetStrides();
        miopen::deref(dataType) = desc.GetType();
        miopen::deref(n)        = ToInt(l[0]);
        miopen::deref(c)        = ToInt(l[1]);
        miopen::deref(h)        = ToInt(l[2]);
        miopen::deref(w)        = ToInt(l[3]);
        miopen::deref(nStride)  = ToInt(s[0]);
        miopen::deref(cStride)  = ToInt(s[1]);
        miopen::deref(hStride)  = ToInt(s[2]);
        miopen::deref(wStride)  = ToInt(s[3]);
    });
}

extern "C" miopenStatus_t miopenSetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                    miopenDataType_t dataType,
                                                    int nbDims,
                                                    const int* dimsA,
                                                    const int* stridesA)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, nbDims, dimsA, stridesA);
    return miopen::try_([&] {
        auto& desc = miopen::deref(tensorDesc);
        // A null stride array asks for a packed tensor.
        if(stridesA == nullptr)
            desc = miopen::TensorDescriptor(dataType, CopyDims(dimsA, nbDims, "dimsA"));
        else
            desc = miopen::TensorDescriptor(dataType,
                                            CopyDims(dimsA, nbDims, "dimsA"),
                                            CopyDims(stridesA, nbDims, "stridesA"));
    });
}

extern "C" MIOPEN_EXPORT miopenStatus_t miopenSetTensorDescriptorV2(miopenTensorDescriptor_t tensorDesc,
                                                                   miopenDataType_t dataType,
                                                                   int nbDims,
                                                                   const size_t* dimsA,
                                                                   const size_t* stridesA)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, nbDims, dimsA, stridesA);
    return miopen::try_([&] {
        auto& desc = miopen::deref(tensorDesc);
        if(stridesA == nullptr)
            desc = miopen::TensorDescriptor(dataType, CopyDims(dimsA, nbDims, "dimsA"));
        else
            desc = miopen::TensorDescriptor(dataType,
                                            CopyDims(dimsA, nbDims, "dimsA"),
                                            CopyDims(stridesA, nbDims, "stridesA"));
    });
}

extern "C" miopenStatus_t miopenSetTensorCastType(miopenTensorDescriptor_t tensorDesc,
                                                  miopenDataType_t cast_type)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, cast_type);
    return miopen::try_([&] {
        if(!miopen::IsValidDataType(cast_type))
            MIOPEN_THROW(miopenStatusBadParm, "Unsupported cast type");
        miopen::deref(tensorDesc).SetCastType(cast_type);
    });
}

extern "C" miopenStatus_t miopenGetTensorDescriptorSize(miopenTensorDescriptor_t tensorDesc,
                                                        int* size)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, size);
    return miopen::try_([&] {
        miopen::deref(size) = static_cast<int>(miopen::deref(tensorDesc).GetNumDims());
    });
}

extern "C" miopenStatus_t miopenGetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                                    miopenDataType_t* dataType,
                                                    int* dimsA,
                                                    int* stridesA)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, dataType, dimsA, stridesA);
    return miopen::try_([&] {
        const auto& desc = miopen::deref(tensorDesc);
        desc.CheckSet("tensorDesc");
        // Each output is optional, as in MIOpen.
        if(dataType != nullptr)
            *dataType = desc.GetType();
        for(std::size_t i = 0; i < desc.GetNumDims(); ++i)
        {
            if(dimsA != nullptr)
                dimsA[i] = ToInt(desc.GetLengths()[i]);
            if(stridesA != nullptr)
                stridesA[i] = ToInt(desc.GetStrides()[i]);
        }
    });
}

// Null is accepted: MIOpen deletes the object, and deleting null is a no-op
// (miopen_destroy_object in MIOpen's object.hpp).
extern "C" miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t tensorDesc)
{
    MIOPEN_LOG_FUNCTION(tensorDesc);
    return miopen::try_([&] { delete static_cast<miopen::TensorDescriptor*>(tensorDesc); });
}

extern "C" miopenStatus_t miopenGetTensorNumBytes(miopenTensorDescriptor_t tensorDesc,
                                                  size_t* numBytes)
{
    MIOPEN_LOG_FUNCTION(tensorDesc, numBytes);
    return miopen::try_([&] { miopen::deref(numBytes) = miopen::deref(tensorDesc).GetNumBytes(); });
}
