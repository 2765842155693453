// Logging of the mini MIOpen, shaped like MIOpen's own logger so that the
// adopt command's logger edit (src_patches/source-edits/logger.json) applies
// to it exactly as to a real tree:
//   * MIOPEN_LOG_LEVEL (numeric): 0 (or unset) default = warnings and errors,
//     1 quiet, 2 fatal, 3 errors, 4 warnings, 5 info, 6 info2, 7 trace.
//   * MIOPEN_ENABLE_LOGGING: the API call log (MIOPEN_LOG_FUNCTION). The test
//     bed also logs calls from level 5 on (its historical behaviour).
//   * MIOPEN_ENABLE_LOGGING_CMD: the MIOpenDriver command line of a call.
// Every line starts with LoggingPrefix() ("MIOpen(HIP): ") and goes to
// stderr. The variables are re-read on every check so tests can change them.
#pragma once

#include <cstdint>
#include <iostream>
#include <sstream>
#include <string>
#include <string_view>
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

bool IsLogging(LoggingLevel level);
bool IsLoggingFunctionCalls();
bool IsLoggingCmd();
const char* LoggingLevelToCString(LoggingLevel level);
std::string LoggingPrefix();

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

inline void LogParams(std::ostream&, const char*) {}

// One line per argument: "<prefix>\t<name> = <value>", as MIOpen prints them.
template <class T, class... Ts>
void LogParams(std::ostream& os, const char* names, const T& first, const Ts&... rest)
{
    os << LoggingPrefix() << '\t' << NextArgName(names) << " = ";
    FormatArg(os, first);
    os << std::endl;
    LogParams(os, names, rest...);
}

} // namespace detail

// The API call log: "<prefix><signature>{", one line per argument, "<prefix>}".
// Written in one piece so lines of concurrent calls never interleave.
#define MIOPEN_LOG_FUNCTION(...)                                                        \
    do                                                                                  \
    {                                                                                   \
        if(miopen::IsLoggingFunctionCalls())                                            \
        {                                                                               \
            std::ostringstream miopen_log_func_ss;                                      \
            miopen_log_func_ss << miopen::LoggingPrefix() << __PRETTY_FUNCTION__ << "{" \
                               << std::endl;                                            \
            miopen::detail::LogParams(miopen_log_func_ss, #__VA_ARGS__, __VA_ARGS__);   \
            miopen_log_func_ss << miopen::LoggingPrefix() << "}" << std::endl;          \
            std::cerr << miopen_log_func_ss.str();                                      \
        }                                                                               \
    } while(false)

// The name a log line shows: __func__, or for a lambda the enclosing
// function's name taken from the full signature.
constexpr std::string_view LoggingParseFunction(const std::string_view func,
                                                const std::string_view pretty_func)
{
    if(func != "operator()")
        return func;
    const auto before_args = pretty_func.substr(0, pretty_func.find('('));
    const auto name_start  = before_args.find_last_of(": ");
    return name_start == std::string_view::npos ? before_args : before_args.substr(name_start + 1);
}

#define MIOPEN_GET_FN_NAME miopen::LoggingParseFunction(__func__, __PRETTY_FUNCTION__)

#define MIOPEN_LOG(level, ...)                                                                 \
    do                                                                                         \
    {                                                                                          \
        if(miopen::IsLogging(level))                                                           \
        {                                                                                      \
            std::ostringstream miopen_log_ss;                                                  \
            miopen_log_ss << miopen::LoggingPrefix() << miopen::LoggingLevelToCString(level)   \
                          << " [" << MIOPEN_GET_FN_NAME << "] " << __VA_ARGS__ << std::endl;   \
            std::cerr << miopen_log_ss.str();                                                  \
        }                                                                                      \
    } while(false)

#define MIOPEN_LOG_E(...) MIOPEN_LOG(::miopen::LoggingLevel::Error, __VA_ARGS__)
#define MIOPEN_LOG_W(...) MIOPEN_LOG(::miopen::LoggingLevel::Warning, __VA_ARGS__)
#define MIOPEN_LOG_I(...) MIOPEN_LOG(::miopen::LoggingLevel::Info, __VA_ARGS__)
#define MIOPEN_LOG_I2(...) MIOPEN_LOG(::miopen::LoggingLevel::Info2, __VA_ARGS__)
#define MIOPEN_LOG_T(...) MIOPEN_LOG(::miopen::LoggingLevel::Trace, __VA_ARGS__)

// "<prefix>Command [<function>] ./bin/MIOpenDriver <args>", as MIOpen writes it.
#define MIOPEN_LOG_DRIVER_CMD(...)                                                             \
    do                                                                                         \
    {                                                                                          \
        std::ostringstream miopen_driver_cmd_ss;                                               \
        miopen_driver_cmd_ss << miopen::LoggingPrefix() << "Command [" << MIOPEN_GET_FN_NAME   \
                             << "] ./bin/MIOpenDriver " << __VA_ARGS__ << std::endl;           \
        std::cerr << miopen_driver_cmd_ss.str();                                               \
    } while(false)

} // namespace miopen
