// Compiled (syntax only; CTest logger_edit_compiles, step logger-compile of
// `miopen-wrap adopt`) against a tree whose logger.hpp
// carries the logger edit (src_patches/source-edits/logger.json): every macro
// that names the calling function still compiles inside a renamed entry point,
// and the public-name rule holds at compile time.
#include <miopen/logger.hpp>

extern "C" int miopenFixtureEntryPoint_impl(int x)
{
    MIOPEN_LOG_FUNCTION(x);
    MIOPEN_LOG_I("x is " << x);
    [&] { MIOPEN_LOG_I2("in a lambda"); }();
    return 0;
}

static_assert(miopen::LoggingPublicName("miopenFoo_impl") == "miopenFoo");
static_assert(miopen::LoggingPublicName("miopenStatus_t miopenFoo_impl") == "miopenStatus_t miopenFoo");
// Not entry points: internal names keep their spelling.
static_assert(miopen::LoggingPublicName("miopen_hip_f8_impl") == "miopen_hip_f8_impl");
static_assert(miopen::LoggingPublicName("Solve_impl") == "Solve_impl");
static_assert(miopen::LoggingPublicName("miopenFoo") == "miopenFoo");
static_assert(miopen::LoggingPublicName("miopen::Impl_impl") == "miopen::Impl_impl");
