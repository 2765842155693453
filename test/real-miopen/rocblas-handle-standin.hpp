// Forced include of MIOpen's src/nogpu/handle.cpp in a HIPNOGPU build
// without rocBLAS (see hipnogpu-build-fixes.cmake): the type of the
// rocBLAS-handle member that nogpu/handle_impl.hpp declares unconditionally.
// Nothing reads or writes that member when MIOPEN_USE_ROCBLAS is off.
#pragma once

namespace miopen {
struct rocblas_handle_ptr
{
};
} // namespace miopen
