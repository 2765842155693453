#include "flags.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace driver {
namespace {

const std::vector<std::string> any;
const std::vector<std::string> bool01{"0", "1"};
const char* const no_files = "this driver generates its own data; file input/output is not implemented";

bool is_int(const std::string& s)
{
    if(s.empty())
        return false;
    size_t i = (s[0] == '-' || s[0] == '+') ? 1 : 0;
    return i < s.size() && std::all_of(s.begin() + long(i), s.end(), [](char c) { return std::isdigit(c) != 0; });
}

// Integer-valued flags (MIOpen's "int" type); the rest take strings.
bool integer_flag(const Flag& f)
{
    static const std::vector<std::string> strings{"in_layout", "out_layout", "fil_layout", "mode", "pad_mode",
                                                  "solution", "verification_cache", "in_data", "weights",
                                                  "dout_data", "in_bias", "in_cast_type", "out_cast_type",
                                                  "wei_cast_type", "bias"};
    return std::find(strings.begin(), strings.end(), f.long_name) == strings.end();
}

} // namespace

// The table is MIOpen's conv driver's (driver/conv_driver.hpp, AddCmdLineArgs):
// same long names, short names and defaults.
Flags::Flags()
{
    const std::vector<std::string> layouts{"NCHW", "NHWC", "CHWN", "NCDHW", "NDHWC"};
    flags_ = {
        {"in_layout", 'I', "", "Input Layout (Default=NCHW for 2d conv, NCDHW for 3d conv)", layouts, ""},
        {"out_layout", 'O', "", "Output Layout (Default=NCHW for 2d conv, NCDHW for 3d conv)", layouts, ""},
        {"fil_layout", 'f', "", "Filter Layout (Default=NCHW for 2d conv, NCDHW for 3d conv)", layouts, ""},
        {"spatial_dim", '_', "2", "convolution spatial dimension (Default-2)", {"2", "3"}, "2-D or 3-D only"},
        {"forw", 'F', "0", "0 fwd+bwd+wrw (default), 1 fwd, 2 bwd, 4 wrw, or a sum of them",
         {"0", "1", "2", "3", "4", "5", "6", "7"}, "a sum of 1 (fwd), 2 (bwd), 4 (wrw), or 0 for all"},
        {"batchsize", 'n', "100", "Mini-batch size (Default=100)", any, ""},
        {"in_channels", 'c', "3", "Number of Input Channels (Default=3)", any, ""},
        {"in_d", '!', "32", "Input Depth (Default=32)", any, ""},
        {"in_h", 'H', "32", "Input Height (Default=32)", any, ""},
        {"in_w", 'W', "32", "Input Width (Default=32)", any, ""},
        {"out_channels", 'k', "32", "Number of Output Channels (Default=32)", any, ""},
        {"fil_d", '@', "3", "Filter Depth (Default=3)", any, ""},
        {"fil_h", 'y', "3", "Filter Height (Default=3)", any, ""},
        {"fil_w", 'x', "3", "Filter Width (Default=3)", any, ""},
        {"conv_stride_d", '#', "1", "Convolution Stride for Depth (Default=1)", any, ""},
        {"conv_stride_h", 'u', "1", "Convolution Stride for Height (Default=1)", any, ""},
        {"conv_stride_w", 'v', "1", "Convolution Stride for Width (Default=1)", any, ""},
        {"pad_d", '$', "0", "Zero Padding for Depth (Default=0)", any, ""},
        {"pad_h", 'p', "0", "Zero Padding for Height (Default=0)", any, ""},
        {"pad_w", 'q', "0", "Zero Padding for Width (Default=0)", any, ""},
        {"pad_val", 'r', "0", "Padding Value (Default=0)", {"0"}, "zero padding only"},
        {"trans_output_pad_d", '%', "0", "Zero Padding Output for Depth (Default=0)", {"0"},
         "the MIOpen under test has no transposed output padding setter"},
        {"trans_output_pad_h", 'Y', "0", "Zero Padding Output for Height (Default=0)", {"0"},
         "the MIOpen under test has no transposed output padding setter"},
        {"trans_output_pad_w", 'X', "0", "Zero Padding Output for Width (Default=0)", {"0"},
         "the MIOpen under test has no transposed output padding setter"},
        {"iter", 'i', "10", "Number of Iterations (Default=10)", any, ""},
        {"verify", 'V', "1", "Verify Each Layer (Default=1)", bool01, "0 or 1"},
        {"verification_cache", 'C', "", "Directory to cache verification data (not implemented)", {""},
         no_files},
        {"time", 't', "0", "Time Each Layer (Default=0)", bool01, "0 or 1"},
        {"wall", 'w', "0", "Wall-clock Time Each Layer: 0 off, 1 on, 2 on + warm-up (requires --time 1)",
         {"0", "1", "2"}, "0, 1 or 2"},
        {"search", 's', "0", "Search Kernel Config (Default=0)", bool01, "0 or 1"},
        {"printconv", 'P', "1", "Print Convolution Dimensions (Default=1)", bool01, "0 or 1"},
        {"dump_output", 'o', "0", "Dumps the output buffers (not implemented)", {"0"}, no_files},
        {"in_data", 'd', "", "Input data filename (not implemented)", {""}, no_files},
        {"weights", 'e', "", "Input weights filename (not implemented)", {""}, no_files},
        {"bias", 'b', "", "Use Bias (Default=0)", {"", "0"},
         "bias is MIOpen's separate miopenConvolutionForwardBias path, not a convolution"},
        {"mode", 'm', "conv", "Convolution Mode (conv, trans) (Default=conv)", {"conv", "trans"}, "conv or trans"},
        {"pad_mode", 'z', "default", "Padding Mode (same, valid, default) (Default=default)",
         {"default", "same", "valid"}, "same, valid or default"},
        {"tensor_vect", 'Z', "0", "tensor vectorization type (none only here)", {"0"},
         "vectorized tensors are int8 layouts; this driver runs fp32/fp16/bf16"},
        {"vector_length", 'L', "1", "tensor vectorization length (1 only here)", {"1"},
         "vectorized tensors are int8 layouts; this driver runs fp32/fp16/bf16"},
        {"dilation_d", '^', "1", "Dilation of Filter Depth (Default=1)", any, ""},
        {"dilation_h", 'l', "1", "Dilation of Filter Height (Default=1)", any, ""},
        {"dilation_w", 'j', "1", "Dilation of Filter Width (Default=1)", any, ""},
        {"in_bias", 'a', "", "Input bias filename (not implemented)", {""}, no_files},
        {"group_count", 'g', "1", "Number of Groups (Default=1)", any, ""},
        {"dout_data", 'D', "", "dy data filename (not implemented)", {""}, no_files},
        {"solution", 'S', "-1", "<0 Find() API (default); 0 immediate mode, first solution; >0 solution id", any,
         ""},
        {"gpualloc", 'G', "0", "0 init buffers on the host (default); 1 no host init, needs --verify 0", bool01,
         "0 or 1"},
        {"in_cast_type", 'U', "-1", "Cast type for input tensor (not implemented)", {"-1"},
         "the MIOpen under test computes no cast (fp8) types"},
        {"out_cast_type", 'T', "-1", "Cast type for output tensor (not implemented)", {"-1"},
         "the MIOpen under test computes no cast (fp8) types"},
        {"wei_cast_type", 'R', "-1", "Cast type for weight tensor (not implemented)", {"-1"},
         "the MIOpen under test computes no cast (fp8) types"},
    };
}

Flag* Flags::find_long(const std::string& name)
{
    for(auto& f : flags_)
        if(f.long_name == name)
            return &f;
    return nullptr;
}

Flag* Flags::find_short(char name)
{
    for(auto& f : flags_)
        if(f.short_name == name)
            return &f;
    return nullptr;
}

bool Flags::store(Flag& f, const std::string& raw, std::string& error)
{
    std::string value = raw;
    if(f.long_name.find("layout") != std::string::npos) // MIOpen upper-cases layouts
        std::transform(value.begin(), value.end(), value.begin(), [](unsigned char c) { return std::toupper(c); });
    const std::string name = "--" + f.long_name + " (-" + f.short_name + ")";
    if(integer_flag(f) && !is_int(value))
    {
        error = name + " takes an integer, got '" + raw + "'";
        return false;
    }
    if(!f.supported.empty() && std::find(f.supported.begin(), f.supported.end(), value) == f.supported.end())
    {
        error = name + " " + raw + " is not supported by this driver: " + f.why_unsupported;
        return false;
    }
    f.value = value;
    f.given = true;
    return true;
}

bool Flags::parse(int argc, char** argv, std::string& error)
{
    for(int i = 2; i < argc; ++i)
    {
        const std::string arg = argv[i];
        if(arg == "-h" || arg == "--help" || arg == "-?")
        {
            help_ = true;
            return true;
        }
        Flag* f = nullptr;
        if(arg.size() > 2 && arg.compare(0, 2, "--") == 0)
            f = find_long(arg.substr(2));
        else if(arg.size() == 2 && arg[0] == '-')
            f = find_short(arg[1]);
        if(f == nullptr)
        {
            error = "unknown flag '" + arg + "' (MIOpenDriver conv --help lists the flags)";
            return false;
        }
        if(i + 1 >= argc)
        {
            error = "flag '" + arg + "' needs a value";
            return false;
        }
        if(!store(*f, argv[++i], error))
            return false;
    }
    return true;
}

void Flags::print_help() const
{
    std::printf("MIOpenDriver conv|convfp16|convbfp16 flags:\n");
    for(const auto& f : flags_)
        std::printf("  --%-20s -%c  %s\n", f.long_name.c_str(), f.short_name, f.help.c_str());
}

const std::string& Flags::str(const std::string& long_name) const
{
    for(const auto& f : flags_)
        if(f.long_name == long_name)
            return f.value;
    std::fprintf(stderr, "MIOpenDriver: internal error: no flag %s\n", long_name.c_str());
    std::abort();
}

int Flags::integer(const std::string& long_name) const
{
    const auto& v = str(long_name);
    return v.empty() ? 0 : std::atoi(v.c_str());
}

bool Flags::given(const std::string& long_name) const
{
    for(const auto& f : flags_)
        if(f.long_name == long_name)
            return f.given;
    return false;
}

} // namespace driver
