// Environment variable access.
#include <miopen/env.hpp>
#include <miopen/errors.hpp>

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace miopen {
namespace env {

std::optional<std::string> value(const char* name)
{
    const char* v = std::getenv(name);
    if(v == nullptr)
        return std::nullopt;
    return std::string(v);
}

long long numeric(const char* name, long long fallback)
{
    const auto v = value(name);
    if(!v || v->empty())
        return fallback;
    char* end          = nullptr;
    const long long n = std::strtoll(v->c_str(), &end, 10);
    if(end == v->c_str())
        return fallback;
    return n;
}

bool disabled(const char* name)
{
    const auto v = value(name);
    if(!v || *v == "1")
        return false;
    if(*v == "0")
        return true;
    std::string s = *v;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    for(const char* off : {"disable", "disabled", "no", "off", "false"})
        if(s == off)
            return true;
    for(const char* on : {"enable", "enabled", "yes", "on", "true"})
        if(s == on)
            return false;
    MIOPEN_THROW(miopenStatusInvalidValue, "Invalid value for env variable (value='" + s + "')");
}

} // namespace env
} // namespace miopen
