// mini-hipdnn attribute marshalling: what every descriptor's set / get /
// finalize use (the shared descriptors here and each op folder's, ops/<op>/).
#pragma once

#include "backend_internal.hpp"

#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace mh
{

inline std::string attrName(hipdnnBackendAttributeName_t n)
{
    return "attribute " + std::to_string(static_cast<int>(n));
}

inline void checkSetArgs(hipdnnBackendAttributeType_t expected,
                  hipdnnBackendAttributeType_t actual,
                  const void* elements,
                  const char* what)
{
    failIf(actual != expected, HIPDNN_STATUS_BAD_PARAM, std::string(what) + ": wrong attribute type");
    failIf(elements == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(what) + ": arrayOfElements is null");
}

template <typename T>
inline void setScalar(T& target,
               hipdnnBackendAttributeType_t expected,
               hipdnnBackendAttributeType_t actual,
               int64_t count,
               const void* elements,
               const char* what)
{
    checkSetArgs(expected, actual, elements, what);
    failIf(count != 1, HIPDNN_STATUS_BAD_PARAM, std::string(what) + ": elementCount must be 1");
    std::memcpy(&target, elements, sizeof(T));
}

inline void setInt64Vector(std::vector<int64_t>& target,
                    hipdnnBackendAttributeType_t actual,
                    int64_t count,
                    const void* elements,
                    const char* what)
{
    checkSetArgs(HIPDNN_TYPE_INT64, actual, elements, what);
    failIf(count <= 0, HIPDNN_STATUS_BAD_PARAM, std::string(what) + ": elementCount must be positive");
    const auto* p = static_cast<const int64_t*>(elements);
    target.assign(p, p + count);
}

// Shared read-side rule: with no output buffer (or a zero request) only the
// element count is reported.
inline bool countOnly(int64_t requested, int64_t* count, void* elements, int64_t available, const char* what)
{
    if(elements == nullptr || requested == 0)
    {
        failIf(count == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(what) + ": elementCount is null");
        *count = available;
        return true;
    }
    failIf(requested < 0, HIPDNN_STATUS_BAD_PARAM, std::string(what) + ": negative requestedElementCount");
    return false;
}

template <typename T>
inline void getScalar(const T& source,
               hipdnnBackendAttributeType_t expected,
               hipdnnBackendAttributeType_t actual,
               int64_t requested,
               int64_t* count,
               void* elements,
               const char* what)
{
    failIf(actual != expected, HIPDNN_STATUS_BAD_PARAM, std::string(what) + ": wrong attribute type");
    if(countOnly(requested, count, elements, 1, what))
    {
        return;
    }
    std::memcpy(elements, &source, sizeof(T));
    if(count != nullptr)
    {
        *count = 1;
    }
}

inline void getInt64Vector(const std::vector<int64_t>& source,
                    hipdnnBackendAttributeType_t actual,
                    int64_t requested,
                    int64_t* count,
                    void* elements,
                    const char* what)
{
    failIf(actual != HIPDNN_TYPE_INT64, HIPDNN_STATUS_BAD_PARAM, std::string(what) + ": wrong attribute type");
    if(countOnly(requested, count, elements, static_cast<int64_t>(source.size()), what))
    {
        return;
    }
    auto n = std::min<int64_t>(requested, static_cast<int64_t>(source.size()));
    std::memcpy(elements, source.data(), static_cast<size_t>(n) * sizeof(int64_t));
    if(count != nullptr)
    {
        *count = n;
    }
}

// Reads one descriptor handle from arrayOfElements, checking kind and state.
template <typename T>
inline std::shared_ptr<T> takeDesc(hipdnnBackendAttributeType_t actual,
                            int64_t count,
                            const void* elements,
                            hipdnnBackendDescriptorType_t wantType,
                            const char* what,
                            hipdnnBackendDescriptorType_t altType = HIPDNN_INVALID_TYPE_EXT)
{
    checkSetArgs(HIPDNN_TYPE_BACKEND_DESCRIPTOR, actual, elements, what);
    failIf(count != 1, HIPDNN_STATUS_BAD_PARAM, std::string(what) + ": elementCount must be 1");
    auto handle = *static_cast<const hipdnnBackendDescriptor_t*>(elements);
    auto d = lookup(handle);
    failIf(d == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, std::string(what) + ": descriptor is null or invalid");
    failIf(d->type != wantType && (altType == HIPDNN_INVALID_TYPE_EXT || d->type != altType),
           HIPDNN_STATUS_BAD_PARAM,
           std::string(what) + ": descriptor has the wrong type");
    failIf(!d->finalized, HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED, std::string(what) + ": descriptor is not finalized");
    return std::static_pointer_cast<T>(d);
}

inline void giveDesc(const std::shared_ptr<Desc>& d,
              hipdnnBackendAttributeType_t actual,
              int64_t requested,
              int64_t* count,
              void* elements,
              const char* what)
{
    failIf(actual != HIPDNN_TYPE_BACKEND_DESCRIPTOR, HIPDNN_STATUS_BAD_PARAM, std::string(what) + ": wrong attribute type");
    if(countOnly(requested, count, elements, d ? 1 : 0, what))
    {
        return;
    }
    if(count != nullptr)
    {
        *count = d ? 1 : 0;
    }
    if(d)
    {
        *static_cast<hipdnnBackendDescriptor_t*>(elements) = pack(d);
    }
}

inline void requireFinalizedForGet(const Desc& d, const char* what)
{
    failIf(!d.finalized, HIPDNN_STATUS_NOT_INITIALIZED, std::string(what) + ": descriptor is not finalized");
}

inline void requireOpenForSet(const Desc& d, const char* what)
{
    failIf(d.finalized, HIPDNN_STATUS_NOT_INITIALIZED, std::string(what) + ": descriptor is already finalized");
}

// The older revision's CONV_MODE value (the data SDK's ConvMode, UNSET = 0;
// the order of the other two is the test bed's assumption, see README).
inline hipdnnConvolutionMode_t convModeFromSdk(int64_t sdk)
{
    failIf(sdk != 1 && sdk != 2, HIPDNN_STATUS_BAD_PARAM, "invalid ConvMode value");
    return sdk == 1 ? HIPDNN_CONVOLUTION : HIPDNN_CROSS_CORRELATION;
}

inline void setChars(std::string& target, hipdnnBackendAttributeType_t t, int64_t c, const void* e, const char* what)
{
    checkSetArgs(HIPDNN_TYPE_CHAR, t, e, what);
    failIf(c < 0, HIPDNN_STATUS_BAD_PARAM, std::string(what) + ": negative elementCount");
    target.assign(static_cast<const char*>(e), static_cast<size_t>(c));
}

[[noreturn]] inline void unknownAttr(hipdnnBackendAttributeName_t n, const char* what)
{
    fail(HIPDNN_STATUS_NOT_SUPPORTED, std::string(what) + ": " + attrName(n) + " is not supported");
}

inline int64_t bytesOf(int32_t dataType)
{
    switch(dataType)
    {
    case HIPDNN_DATA_FLOAT:
    case HIPDNN_DATA_INT32: return 4;
    case HIPDNN_DATA_DOUBLE: return 8;
    case HIPDNN_DATA_HALF:
    case HIPDNN_DATA_BFLOAT16: return 2;
    case HIPDNN_DATA_INT8:
    case HIPDNN_DATA_UINT8: return 1;
    default: return 0;
    }
}


} // namespace mh
