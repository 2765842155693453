// Logger of the mini MIOpen (see logger.hpp for the level semantics).
#include <miopen/env.hpp>
#include <miopen/logger.hpp>

#include <cctype>
#include <iostream>

namespace miopen {

namespace {

LoggingLevel CurrentLoggingLevel()
{
    const long long n = env::numeric("MIOPEN_LOG_LEVEL", 0);
    if(n <= 0 || n > static_cast<long long>(LoggingLevel::Trace))
        return LoggingLevel::Default;
    return static_cast<LoggingLevel>(n);
}

// MIOpen's spelling of a boolean variable: 1/yes/true/on/enable(d), any case.
bool IsEnabled(const char* name)
{
    auto v = env::value(name);
    if(!v)
        return false;
    for(auto& c : *v)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return *v == "1" || *v == "yes" || *v == "true" || *v == "on" || *v == "enable" ||
           *v == "enabled";
}

} // namespace

// Like MIOpen, the logging variables are read once, at their first use:
// every API call asks, and reading the environment each time would be the
// larger part of a cheap call (a getter, say).
bool IsLoggingFunctionCalls()
{
    static const bool enabled = IsEnabled("MIOPEN_ENABLE_LOGGING");
    return enabled || IsLogging(LoggingLevel::Info);
}

bool IsLoggingCmd()
{
    static const bool enabled = IsEnabled("MIOPEN_ENABLE_LOGGING_CMD");
    return enabled;
}

bool IsLogging(LoggingLevel level)
{
    static const LoggingLevel configured = CurrentLoggingLevel();
    auto current = configured;
    // Like an installed MIOpen: "default" means warnings and errors.
    if(current == LoggingLevel::Default)
        current = LoggingLevel::Warning;
    return static_cast<int>(level) <= static_cast<int>(current) &&
           level != LoggingLevel::Quiet && level != LoggingLevel::Default;
}

const char* LoggingLevelToCString(LoggingLevel level)
{
    switch(level)
    {
    case LoggingLevel::Fatal: return "Fatal";
    case LoggingLevel::Error: return "Error";
    case LoggingLevel::Warning: return "Warning";
    case LoggingLevel::Info: return "Info";
    case LoggingLevel::Info2: return "Info2";
    case LoggingLevel::Trace: return "Trace";
    case LoggingLevel::Default:
    case LoggingLevel::Quiet: break;
    }
    return "Log";
}

std::string LoggingPrefix() { return "MIOpen(HIP): "; }

namespace detail {

std::string NextArgName(const char*& names)
{
    while(*names == ' ' || *names == ',')
        ++names;
    std::string name;
    int depth = 0;
    for(; *names != '\0'; ++names)
    {
        const char c = *names;
        if(c == '(' || c == '[' || c == '<')
            ++depth;
        else if(c == ')' || c == ']' || c == '>')
            --depth;
        else if(c == ',' && depth == 0)
            break;
        name += c;
    }
    while(!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
        name.pop_back();
    return name;
}

} // namespace detail
} // namespace miopen
