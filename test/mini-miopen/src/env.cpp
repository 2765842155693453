// Environment variable access.
#include <miopen/env.hpp>

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

} // namespace env
} // namespace miopen
