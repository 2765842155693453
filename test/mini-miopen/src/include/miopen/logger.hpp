// Logging of the mini MIOpen, controlled like MIOpen's by the numeric
// environment variable MIOPEN_LOG_LEVEL:
//   0 (or unset) default = warnings and errors, 1 quiet, 2 fatal, 3 errors,
//   4 warnings, 5 info (API calls are logged from here on), 6 info2, 7 trace.
// Messages go to stderr. The level is re-read on every check so tests can
// change it at run time.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <type_traits>

namespace miopen {

enum class LoggingLevel
{
    Default = 0,
    Quiet   = 1,
    Fatal   = 2,
    Error   = 3,
    Warning = 4,
    Info    = 5,
    Info2   = 6,
    Trace   = 7,
};

LoggingLevel CurrentLoggingLevel();
bool IsLogging(LoggingLevel level);
inline bool IsLoggingFunctionCalls() { return IsLogging(LoggingLevel::Info); }

const char* LoggingLevelName(LoggingLevel level);
void LogMessage(LoggingLevel level, const char* where, const std::string& text);

namespace detail {

template <class T>
void FormatArg(std::ostream& os, const T& v)
{
    if constexpr(std::is_enum_v<T>)
        os << static_cast<long long>(v);
    else if constexpr(std::is_same_v<T, bool>)
        os << (v ? "true" : "false");
    else if constexpr(std::is_pointer_v<T>)
    {
        if(v == nullptr)
            os << "nullptr";
        else
            os << static_cast<const void*>(v);
    }
    else if constexpr(std::is_same_v<T, std::nullptr_t>)
        os << "nullptr";
    else
        os << v;
}

// Cuts the next comma separated name off a stringised argument list.
std::string NextArgName(const char*& names);

inline void FormatArgs(std::ostream&, const char*) {}

template <class T, class... Ts>
void FormatArgs(std::ostream& os, const char* names, const T& first, const Ts&... rest)
{
    os << "\n    " << NextArgName(names) << " = ";
    FormatArg(os, first);
    FormatArgs(os, names, rest...);
}

} // namespace detail

template <class... Ts>
void LogFunctionCall(const char* function, const char* names, const Ts&... args)
{
    std::ostringstream ss;
    ss << "{";
    detail::FormatArgs(ss, names, args...);
    ss << "\n}";
    LogMessage(LoggingLevel::Info, function, ss.str());
}

} // namespace miopen

// Logs the calling API function's name and arguments when the level is >= 5.
#define MIOPEN_LOG_FUNCTION(...)                                              \
    do                                                                        \
    {                                                                         \
        if(::miopen::IsLoggingFunctionCalls())                                \
            ::miopen::LogFunctionCall(__func__, #__VA_ARGS__, __VA_ARGS__);   \
    } while(false)

#define MIOPEN_LOG(level, msg)                                                \
    do                                                                        \
    {                                                                         \
        if(::miopen::IsLogging(level))                                        \
        {                                                                     \
            std::ostringstream miopen_log_ss;                                 \
            miopen_log_ss << msg;                                             \
            ::miopen::LogMessage(level, __func__, miopen_log_ss.str());       \
        }                                                                     \
    } while(false)

#define MIOPEN_LOG_E(msg) MIOPEN_LOG(::miopen::LoggingLevel::Error, msg)
#define MIOPEN_LOG_W(msg) MIOPEN_LOG(::miopen::LoggingLevel::Warning, msg)
#define MIOPEN_LOG_I(msg) MIOPEN_LOG(::miopen::LoggingLevel::Info, msg)
#define MIOPEN_LOG_I2(msg) MIOPEN_LOG(::miopen::LoggingLevel::Info2, msg)
