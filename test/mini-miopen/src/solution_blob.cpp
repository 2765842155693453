// The bytes miopenSaveSolution writes and miopenLoadSolution reads.
//
// MIOpen writes a MessagePack map whose header carries a validation number
// and a format version; the test bed keeps that header (the same two numbers,
// little-endian, in the first 16 bytes) and writes the rest as text lines:
//   time=<fp32 bits, hex>  workspace=<bytes>  solver=<name>  direction=<n>
//   conv=<pads>/<strides>/<dilations>/<mode>/<groups>/<find mode>/<attr:value,...>
//   tensor=<id>/<type>/<lengths>/<strides>/<cast type or ->   (one per tensor)
#include <miopen/convolution.hpp>
#include <miopen/solution.hpp>

#include <cstring>
#include <sstream>

namespace miopen {

namespace {

constexpr std::uint64_t kValidationNumber = 0x123456789ABCDEF0ULL;
constexpr std::uint64_t kFormatVersion    = 1;
constexpr std::size_t kHeaderSize         = 16;

void PutU64(std::vector<char>& out, std::uint64_t v)
{
    for(int i = 0; i < 8; ++i)
        out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint64_t GetU64(const char* p)
{
    std::uint64_t v = 0;
    for(int i = 7; i >= 0; --i)
        v = (v << 8) | static_cast<unsigned char>(p[i]);
    return v;
}

template <class T>
std::string Join(const std::vector<T>& v)
{
    std::ostringstream ss;
    for(std::size_t i = 0; i < v.size(); ++i)
        ss << (i ? "," : "") << v[i];
    return ss.str();
}

[[noreturn]] void Malformed(const std::string& what)
{
    // MIOpen's MessagePack parser throws a std::exception: unknown error.
    MIOPEN_THROW(miopenStatusUnknownError, "Malformed solution blob: " + what);
}

std::vector<std::string> Split(const std::string& s, char sep)
{
    std::vector<std::string> out;
    std::string part;
    std::istringstream in(s);
    while(std::getline(in, part, sep))
        out.push_back(part);
    if(!s.empty() && s.back() == sep)
        out.emplace_back();
    return out;
}

std::uint64_t ParseU64(const std::string& s, int base = 10)
{
    char* end = nullptr;
    const auto v = std::strtoull(s.c_str(), &end, base);
    if(s.empty() || end != s.c_str() + s.size())
        Malformed("not a number: '" + s + "'");
    return v;
}

long long ParseI64(const std::string& s)
{
    char* end = nullptr;
    const auto v = std::strtoll(s.c_str(), &end, 10);
    if(s.empty() || end != s.c_str() + s.size())
        Malformed("not a number: '" + s + "'");
    return v;
}

template <class T>
std::vector<T> ParseList(const std::string& s)
{
    std::vector<T> out;
    if(s.empty())
        return out;
    for(const auto& part : Split(s, ','))
        out.push_back(static_cast<T>(ParseI64(part)));
    return out;
}

std::string ConvText(const ConvolutionDescriptor& c)
{
    std::vector<std::string> attrs;
    for(const auto& [attr, value] : c.GetAttributes())
        attrs.push_back(std::to_string(attr) + ":" + std::to_string(value));
    std::ostringstream ss;
    ss << Join(c.GetPads()) << "/" << Join(c.GetStrides()) << "/" << Join(c.GetDilations()) << "/"
       << static_cast<int>(c.GetMode()) << "/" << c.GetGroupCount() << "/" << c.find_mode << "/"
       << Join(attrs);
    return ss.str();
}

ConvolutionDescriptor ParseConv(const std::string& s)
{
    const auto f = Split(s, '/');
    if(f.size() != 7)
        Malformed("convolution descriptor");
    ConvolutionDescriptor c(ParseList<int>(f[0]),
                            ParseList<int>(f[1]),
                            ParseList<int>(f[2]),
                            static_cast<miopenConvolutionMode_t>(ParseI64(f[3])));
    c.SetGroupCount(static_cast<int>(ParseI64(f[4])));
    c.find_mode = static_cast<int>(ParseI64(f[5]));
    if(!f[6].empty())
    {
        for(const auto& a : Split(f[6], ','))
        {
            const auto kv = Split(a, ':');
            if(kv.size() != 2)
                Malformed("convolution attribute");
            c.SetAttribute(static_cast<miopenConvolutionAttrib_t>(ParseI64(kv[0])),
                           static_cast<int>(ParseI64(kv[1])));
        }
    }
    return c;
}

std::string TensorText(miopenTensorArgumentId_t id, const TensorDescriptor& t)
{
    std::ostringstream ss;
    ss << static_cast<unsigned>(id) << "/" << static_cast<int>(t.GetType()) << "/"
       << Join(t.GetLengths()) << "/" << Join(t.GetStrides()) << "/";
    if(t.GetCastType())
        ss << static_cast<int>(*t.GetCastType());
    else
        ss << "-";
    return ss.str();
}

void ParseTensor(const std::string& s, Problem& problem)
{
    const auto f = Split(s, '/');
    if(f.size() != 5)
        Malformed("tensor descriptor");
    const auto type = static_cast<miopenDataType_t>(ParseI64(f[1]));
    TensorDescriptor t(type, ParseList<std::size_t>(f[2]), ParseList<std::size_t>(f[3]));
    if(f[4] != "-")
        t.SetCastType(static_cast<miopenDataType_t>(ParseI64(f[4])));
    problem.tensors.emplace(static_cast<miopenTensorArgumentId_t>(ParseU64(f[0])), t);
}

const char* SolverName(const Solution& s)
{
    for(const auto& solver : GetSolvers(s.problem.GetConvDirection()))
        if(solver.id == s.solver_id)
            return solver.name;
    MIOPEN_THROW(miopenStatusInternalError, "The solution names no solver of its direction");
}

} // namespace

std::vector<char> Solution::Serialize() const
{
    std::uint32_t time_bits = 0;
    std::memcpy(&time_bits, &time, sizeof(time_bits));
    std::ostringstream ss;
    ss << "time=" << std::hex << time_bits << std::dec << "\n"
       << "workspace=" << workspace << "\n"
       << "solver=" << SolverName(*this) << "\n"
       << "direction=" << static_cast<int>(problem.direction) << "\n"
       << "conv=" << ConvText(problem.conv) << "\n";
    for(const auto& [id, t] : problem.tensors)
        ss << "tensor=" << TensorText(id, t) << "\n";

    std::vector<char> out;
    PutU64(out, kValidationNumber);
    PutU64(out, kFormatVersion);
    const auto body = ss.str();
    out.insert(out.end(), body.begin(), body.end());
    return out;
}

Solution Solution::Deserialize(const char* data, std::size_t size)
{
    if(size < kHeaderSize)
        Malformed("shorter than its header");
    if(GetU64(data) != kValidationNumber)
        MIOPEN_THROW(miopenStatusInvalidValue,
                     "Invalid buffer has been passed to the solution deserialization.");
    if(GetU64(data + 8) != kFormatVersion)
        MIOPEN_THROW(miopenStatusVersionMismatch,
                     "Data from wrong version has been passed to the solution deserialization.");

    Solution s;
    bool have_solver = false, have_conv = false;
    for(const auto& line : Split(std::string(data + kHeaderSize, size - kHeaderSize), '\n'))
    {
        if(line.empty())
            continue;
        const auto eq = line.find('=');
        if(eq == std::string::npos)
            Malformed("line without '='");
        const auto key = line.substr(0, eq), value = line.substr(eq + 1);
        if(key == "time")
        {
            const auto bits = static_cast<std::uint32_t>(ParseU64(value, 16));
            std::memcpy(&s.time, &bits, sizeof(bits));
        }
        else if(key == "workspace")
            s.workspace = ParseU64(value);
        else if(key == "solver")
        {
            // An unknown name gives the invalid id 0, as MIOpen's solver::Id does.
            const auto* solver = FindSolverByName(value);
            s.solver_id        = solver != nullptr ? solver->id : 0;
            have_solver        = true;
        }
        else if(key == "direction")
            s.problem.direction = static_cast<miopenProblemDirection_t>(ParseI64(value));
        else if(key == "conv")
        {
            s.problem.conv = ParseConv(value);
            have_conv      = true;
        }
        else if(key == "tensor")
            ParseTensor(value, s.problem);
        else
            Malformed("unknown field '" + key + "'");
    }
    if(!have_solver || !have_conv)
        Malformed("missing fields");
    return s;
}

} // namespace miopen
