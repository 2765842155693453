#include "problem.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <cstdio>

namespace driver {
namespace {

// Per-dimension values of a flag family: {d,} h, w.
std::vector<int> spatial_values(const Flags& f, int spatial, const std::string& prefix)
{
    std::vector<int> v;
    if(spatial == 3)
        v.push_back(f.integer(prefix + "d"));
    v.push_back(f.integer(prefix + "h"));
    v.push_back(f.integer(prefix + "w"));
    return v;
}

bool all_positive(const std::vector<int>& v) { return std::all_of(v.begin(), v.end(), [](int x) { return x > 0; }); }

// MIOpen's driver: `--pad_mode same|valid` recomputes the pads of a plain
// convolution whose dilations or filter sizes are all 1.
void apply_pad_mode(const std::string& pad_mode, const std::vector<int>& in, const std::vector<int>& fil, Problem& p)
{
    const bool eligible = std::all_of(p.dilations.begin(), p.dilations.end(), [](int d) { return d == 1; }) ||
                          std::all_of(fil.begin(), fil.end(), [](int s) { return s == 1; });
    if(p.mode != miopenConvolution || !eligible)
        return;
    for(size_t i = 0; i < p.pads.size(); ++i)
    {
        if(pad_mode == "valid")
            p.pads[i] = 0;
        else if(pad_mode == "same")
        {
            const int s = p.strides[i];
            p.pads[i]   = (in[i] % s == 0 ? std::max(fil[i] - s, 0) : std::max(fil[i] - in[i] % s, 0)) / 2;
        }
    }
}

bool run_options(const Flags& f, Problem& p, std::string& error)
{
    const int forw = f.integer("forw");
    p.fwd          = forw == 0 || (forw & 1) != 0;
    p.bwd          = forw == 0 || (forw & 2) != 0;
    p.wrw          = forw == 0 || (forw & 4) != 0;
    p.iterations   = f.integer("iter");
    if(p.iterations < 1)
    {
        error = "--iter (-i) must be > 0, got " + f.str("iter");
        return false;
    }
    p.verify    = f.integer("verify") == 1;
    p.time      = f.integer("time") == 1;
    p.search    = f.integer("search") == 1;
    p.printconv = f.integer("printconv") == 1;
    p.host_init = f.integer("gpualloc") == 0;
    if(!p.host_init && p.verify)
    {
        error = "--gpualloc 1 cannot be verified; add --verify 0";
        return false;
    }
    const int wall = f.integer("wall");
    if(wall >= 1 && !p.time)
        std::printf("Info: '--wall %d' is ignored because '--time' is not set\n", wall);
    p.wall   = wall >= 1 && p.time;
    p.warmup = wall >= 2 && p.time;
    const std::string& sol = f.str("solution");
    if(!sol.empty() && (std::isdigit(static_cast<unsigned char>(sol[0])) != 0 || sol[0] == '-'))
        p.solution = std::strtol(sol.c_str(), nullptr, 10);
    else
    {
        error = "--solution (-S) '" + sol + "': solution names are not supported by this driver; give a number";
        return false;
    }
    return true;
}

} // namespace

bool layout_strides(const std::string& layout, const std::vector<int>& lengths, std::vector<int>& strides,
                    std::string& error)
{
    const std::string logical = lengths.size() == 5 ? "NCDHW" : "NCHW";
    std::string sorted_layout = layout, sorted_logical = logical;
    std::sort(sorted_layout.begin(), sorted_layout.end());
    std::sort(sorted_logical.begin(), sorted_logical.end());
    if(sorted_layout != sorted_logical)
    {
        error = "layout " + layout + " does not fit a " + std::to_string(lengths.size() - 2) +
                "-D convolution (expected a permutation of " + logical + ")";
        return false;
    }
    strides.assign(lengths.size(), 0);
    int stride = 1;
    for(auto it = layout.rbegin(); it != layout.rend(); ++it)
    {
        const size_t dim = logical.find(*it);
        strides[dim]     = stride;
        stride *= lengths[dim];
    }
    return true;
}

bool make_problem(const Flags& f, Type type, Problem& p, std::string& error)
{
    p.type    = type;
    p.spatial = f.integer("spatial_dim");
    p.mode    = f.str("mode") == "trans" ? miopenTranspose : miopenConvolution;
    p.groups  = std::max(f.integer("group_count"), 1);
    if(!run_options(f, p, error))
        return false;

    const int n = f.integer("batchsize"), c = f.integer("in_channels"), k = f.integer("out_channels");
    const auto in = spatial_values(f, p.spatial, "in_"), fil = spatial_values(f, p.spatial, "fil_");
    p.pads        = spatial_values(f, p.spatial, "pad_");
    p.strides     = spatial_values(f, p.spatial, "conv_stride_");
    p.dilations   = spatial_values(f, p.spatial, "dilation_");
    if(n < 1 || c < 1 || k < 1 || !all_positive(in) || !all_positive(fil) || !all_positive(p.strides) ||
       !all_positive(p.dilations))
    {
        error = "batch size, channels, input and filter sizes, strides and dilations must all be > 0";
        return false;
    }
    if(c % p.groups != 0 || k % p.groups != 0)
    {
        error = "--group_count (-g) " + std::to_string(p.groups) + " must divide in_channels " +
                std::to_string(c) + " and out_channels " + std::to_string(k);
        return false;
    }
    apply_pad_mode(f.str("pad_mode"), in, fil, p);

    p.x_len = {n, c};
    p.x_len.insert(p.x_len.end(), in.begin(), in.end());
    // MIOpen's weights: [K, C/G, ...] for a convolution, [C, K/G, ...] transposed.
    p.w_len = p.mode == miopenConvolution ? std::vector<int>{k, c / p.groups} : std::vector<int>{c, k / p.groups};
    p.w_len.insert(p.w_len.end(), fil.begin(), fil.end());

    const std::string default_layout = p.spatial == 2 ? "NCHW" : "NCDHW";
    auto layout = [&](const char* name) { return f.str(name).empty() ? default_layout : f.str(name); };
    p.y_layout = layout("out_layout");
    std::vector<int> unused;
    return layout_strides(layout("in_layout"), p.x_len, p.x_stride, error) &&
           layout_strides(layout("fil_layout"), p.w_len, p.w_stride, error) &&
           layout_strides(p.y_layout, p.x_len, unused, error); // checked now, applied once y's lengths are known
}

} // namespace driver
