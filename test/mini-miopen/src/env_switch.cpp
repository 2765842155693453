// MIOpen's boolean switches (env::disabled). Apart from env.cpp, which the
// find-db stress programs build without the API's header, as this one throws
// the API's status.
#include <miopen/env.hpp>
#include <miopen/errors.hpp>

#include <algorithm>
#include <cctype>
#include <string>

namespace miopen {
namespace env {

bool disabled(const char* name)
{
    const auto v = value(name);
    if(!v || *v == "1")
        return false;
    if(*v == "0")
        return true;
    std::string s = *v;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
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
