// Error plumbing of the mini MIOpen: internal code throws miopen::Exception
// carrying a miopenStatus_t, and every public entry point funnels its body
// through miopen::try_, which turns exceptions back into status codes so no
// C++ exception ever crosses the C boundary.
#pragma once

#include <miopen/miopen.h>

#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

namespace miopen {

class Exception : public std::exception
{
public:
    Exception(miopenStatus_t s, std::string msg) : status(s), message(std::move(msg)) {}
    const char* what() const noexcept override { return message.c_str(); }

    miopenStatus_t status;
    std::string message;
};

[[noreturn]] void ThrowWithStatus(miopenStatus_t status,
                                  const std::string& message,
                                  const char* file,
                                  int line);

// Reports an error that is about to become a status code (stderr, if the
// log level lets errors through).
void ReportException(const char* what, miopenStatus_t status);

// MIOPEN_THROW(status, "message"), or MIOPEN_THROW("message") which reports
// miopenStatusUnknownError (same default as MIOpen).
#define MIOPEN_THROW_2(status, msg) ::miopen::ThrowWithStatus((status), (msg), __FILE__, __LINE__)
#define MIOPEN_THROW_1(msg) MIOPEN_THROW_2(miopenStatusUnknownError, (msg))
#define MIOPEN_THROW_PICK(_1, _2, NAME, ...) NAME
#define MIOPEN_THROW(...) MIOPEN_THROW_PICK(__VA_ARGS__, MIOPEN_THROW_2, MIOPEN_THROW_1, unused)(__VA_ARGS__)

#define MIOPEN_THROW_IF(cond, status, msg) \
    do                                     \
    {                                      \
        if(cond)                           \
            MIOPEN_THROW(status, msg);     \
    } while(false)

// Runs f and maps whatever it throws to a status. f may return void or a
// miopenStatus_t of its own.
template <class F>
miopenStatus_t try_(F&& f, bool report = true)
{
    try
    {
        if constexpr(std::is_same_v<std::invoke_result_t<F>, miopenStatus_t>)
            return std::forward<F>(f)();
        else
            std::forward<F>(f)();
    }
    catch(const Exception& e)
    {
        if(report)
            ReportException(e.what(), e.status);
        return e.status;
    }
    catch(const std::bad_alloc&)
    {
        if(report)
            ReportException("out of memory", miopenStatusAllocFailed);
        return miopenStatusAllocFailed;
    }
    catch(const std::invalid_argument& e)
    {
        // The CPU kernels reject inconsistent views this way.
        if(report)
            ReportException(e.what(), miopenStatusBadParm);
        return miopenStatusBadParm;
    }
    catch(const std::exception& e)
    {
        if(report)
            ReportException(e.what(), miopenStatusUnknownError);
        return miopenStatusUnknownError;
    }
    catch(...)
    {
        if(report)
            ReportException("unknown exception", miopenStatusUnknownError);
        return miopenStatusUnknownError;
    }
    return miopenStatusSuccess;
}

// The status pattern of MIOpen's fusion entry points: the result starts as
// `initial` and only the body assigns it; whatever the body throws is reported
// and dropped, so a throw before that assignment returns `initial`.
template <class F>
miopenStatus_t try_with_own_status(miopenStatus_t initial, F&& body)
{
    miopenStatus_t res = initial;
    try_([&] { body(res); });
    return res;
}

} // namespace miopen
