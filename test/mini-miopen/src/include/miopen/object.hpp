// Mapping between the opaque C handle types of <miopen/miopen.h> and the C++
// objects behind them, plus null-checked dereference helpers.
//
// Every C handle type is a pointer to an empty tag struct; the C++ object
// derives from that tag, so the pointer the user holds is a pointer to the
// tag base sub-object and a static_cast recovers the full object.
#pragma once

#include <miopen/errors.hpp>

namespace miopen {

// Dereferences a user supplied pointer (output argument, array, ...).
template <class T>
T& deref(T* p, miopenStatus_t status = miopenStatusBadParm)
{
    if(p == nullptr)
        MIOPEN_THROW(status, "Dereferencing nullptr");
    return *p;
}

} // namespace miopen

// Declares deref() for a C handle type and its C++ implementation type.
#define MIOPEN_DEFINE_OBJECT(c_tag, cpp_type)                                        \
    namespace miopen {                                                               \
    inline cpp_type& deref(c_tag##_t p, miopenStatus_t status = miopenStatusBadParm) \
    {                                                                                \
        if(p == nullptr)                                                             \
            MIOPEN_THROW(status, "Null " #c_tag " object");                          \
        return *static_cast<cpp_type*>(p);                                           \
    }                                                                                \
    inline c_tag##_t to_handle(cpp_type* obj) { return obj; }                        \
    }
