// Exception helpers of the mini MIOpen.
#include <miopen/errors.hpp>
#include <miopen/logger.hpp>

#include <iostream>
#include <sstream>

namespace miopen {

void ThrowWithStatus(miopenStatus_t status, const std::string& message, const char* file, int line)
{
    std::ostringstream ss;
    // Keep only the file name: the full build path is noise in messages.
    std::string f = file;
    const auto slash = f.find_last_of('/');
    if(slash != std::string::npos)
        f = f.substr(slash + 1);
    ss << f << ":" << line << ": " << message;
    throw Exception(status, ss.str());
}

void ReportException(const char* what, miopenStatus_t status)
{
    if(IsLogging(LoggingLevel::Error))
    {
        std::ostringstream ss;
        ss << LoggingPrefix() << LoggingLevelToCString(LoggingLevel::Error) << " [try_] " << what
           << " (" << miopenGetErrorString(status) << ")\n";
        std::cerr << ss.str();
    }
}

} // namespace miopen
