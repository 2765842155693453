#include "test_util.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

namespace tu
{

int64_t fnv1a64(const std::string& name)
{
    uint64_t hash = 14695981039346656037ull;
    for(char c : name)
    {
        hash ^= static_cast<unsigned char>(c);
        hash *= 1099511628211ull;
    }
    return static_cast<int64_t>(hash);
}

std::string lastError()
{
    char buf[HIPDNN_ERROR_STRING_MAX_LENGTH];
    hipdnnPeekLastErrorString_ext(buf, sizeof(buf));
    return buf;
}

void check(hipdnnStatus_t s, const char* what)
{
    if(s != HIPDNN_STATUS_SUCCESS)
    {
        throw std::runtime_error(std::string(what) + " -> " + hipdnnGetErrorString(s) + ": " + lastError());
    }
}

std::vector<int64_t> packedStrides(const std::vector<int64_t>& dims)
{
    std::vector<int64_t> s(dims.size(), 1);
    for(size_t i = dims.size() - 1; i > 0; --i)
    {
        s[i - 1] = s[i] * dims[i];
    }
    return s;
}

std::vector<int64_t> channelsLastStrides(const std::vector<int64_t>& dims)
{
    // memory order: N, spatial..., C
    std::vector<int64_t> s(dims.size(), 1);
    s[1] = 1;
    int64_t run = dims[1];
    for(size_t i = dims.size() - 1; i >= 2; --i)
    {
        s[i] = run;
        run *= dims[i];
    }
    s[0] = run;
    return s;
}

hipdnnBackendDescriptor_t tensor(int64_t uid,
                                 hipdnnDataType_t dt,
                                 const std::vector<int64_t>& dims,
                                 const std::vector<int64_t>& strides,
                                 bool isVirtual)
{
    hipdnnBackendDescriptor_t d = nullptr;
    check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &d), "create tensor");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid), "uid");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt), "dtype");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64,
                                    static_cast<int64_t>(dims.size()), dims.data()),
          "dims");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64,
                                    static_cast<int64_t>(strides.size()), strides.data()),
          "strides");
    bool v = isVirtual;
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_IS_VIRTUAL, HIPDNN_TYPE_BOOLEAN, 1, &v), "virtual");
    check(hipdnnBackendFinalize(d), "finalize tensor");
    return d;
}

hipdnnBackendDescriptor_t convOp(hipdnnBackendDescriptorType_t type,
                                 hipdnnBackendDescriptor_t x,
                                 hipdnnBackendDescriptor_t w,
                                 hipdnnBackendDescriptor_t y,
                                 const ConvParams& p)
{
    hipdnnBackendAttributeName_t ax, aw, ay;
    if(type == HIPDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR)
    {
        ax = HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X;
        aw = HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W;
        ay = HIPDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y;
    }
    else if(type == HIPDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR)
    {
        ax = HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX;
        aw = HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W;
        ay = HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY;
    }
    else
    {
        ax = HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X;
        aw = HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW;
        ay = HIPDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY;
    }
    hipdnnBackendDescriptor_t d = nullptr;
    check(hipdnnBackendCreateDescriptor(type, &d), "create conv");
    check(hipdnnBackendSetAttribute(d, ax, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &x), "conv x");
    check(hipdnnBackendSetAttribute(d, aw, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &w), "conv w");
    check(hipdnnBackendSetAttribute(d, ay, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &y), "conv y");
    auto n = static_cast<int64_t>(p.pre.size());
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_CONVOLUTION_PRE_PADDINGS, HIPDNN_TYPE_INT64, n, p.pre.data()), "pre");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_CONVOLUTION_POST_PADDINGS, HIPDNN_TYPE_INT64, n, p.post.data()), "post");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_CONVOLUTION_FILTER_STRIDES, HIPDNN_TYPE_INT64, n, p.stride.data()),
          "stride");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_CONVOLUTION_DILATIONS, HIPDNN_TYPE_INT64, n, p.dilation.data()),
          "dilation");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_CONVOLUTION_CONV_MODE, HIPDNN_TYPE_CONVOLUTION_MODE, 1, &p.mode),
          "mode");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_CONVOLUTION_COMP_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &p.compute),
          "compute");
    check(hipdnnBackendFinalize(d), "finalize conv");
    return d;
}

hipdnnBackendDescriptor_t pointwiseOp(hipdnnPointwiseMode_t mode,
                                      hipdnnBackendDescriptor_t in0,
                                      hipdnnBackendDescriptor_t in1,
                                      hipdnnBackendDescriptor_t out0,
                                      const float* lowerClip,
                                      const float* upperClip,
                                      hipdnnDataType_t mathPrec)
{
    hipdnnBackendDescriptor_t d = nullptr;
    check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, &d), "create pw");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_OPERATION_POINTWISE_IN_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &in0),
          "pw in0");
    if(in1 != nullptr)
    {
        check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_OPERATION_POINTWISE_IN_1_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                        &in1),
              "pw in1");
    }
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_OPERATION_POINTWISE_OUT_0_EXT, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                    &out0),
          "pw out0");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_POINTWISE_MODE, HIPDNN_TYPE_POINTWISE_MODE, 1, &mode), "pw mode");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_POINTWISE_MATH_PREC, HIPDNN_TYPE_DATA_TYPE, 1, &mathPrec),
          "pw prec");
    if(lowerClip != nullptr)
    {
        check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_POINTWISE_RELU_LOWER_CLIP, HIPDNN_TYPE_FLOAT, 1, lowerClip),
              "lower clip");
    }
    if(upperClip != nullptr)
    {
        check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_POINTWISE_RELU_UPPER_CLIP, HIPDNN_TYPE_FLOAT, 1, upperClip),
              "upper clip");
    }
    check(hipdnnBackendFinalize(d), "finalize pw");
    return d;
}

hipdnnBackendDescriptor_t graph(hipdnnHandle_t h, const std::vector<hipdnnBackendDescriptor_t>& ops)
{
    hipdnnBackendDescriptor_t g = nullptr;
    check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, &g), "create graph");
    check(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_HANDLE, HIPDNN_TYPE_HANDLE, 1, &h), "graph handle");
    check(hipdnnBackendSetAttribute(g, HIPDNN_ATTR_OPERATIONGRAPH_OPS, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                    static_cast<int64_t>(ops.size()), ops.data()),
          "graph ops");
    check(hipdnnBackendFinalize(g), "finalize graph");
    return g;
}

hipdnnBackendDescriptor_t knobChoice(const char* id, int64_t value)
{
    hipdnnBackendDescriptor_t k = nullptr;
    check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_KNOB_CHOICE_DESCRIPTOR, &k), "create knob choice");
    check(hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_TYPE, HIPDNN_TYPE_CHAR,
                                    static_cast<int64_t>(std::strlen(id)), id),
          "knob id");
    check(hipdnnBackendSetAttribute(k, HIPDNN_ATTR_KNOB_CHOICE_KNOB_VALUE, HIPDNN_TYPE_INT64, 1, &value), "knob value");
    check(hipdnnBackendFinalize(k), "finalize knob choice");
    return k;
}

PlanInfo plan(hipdnnBackendDescriptor_t graph, const std::vector<hipdnnBackendDescriptor_t>& knobs)
{
    PlanInfo info;
    hipdnnBackendDescriptor_t heur = nullptr;
    check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, &heur), "create heur");
    check(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                    &graph),
          "heur graph");
    hipdnnBackendHeurMode_t mode = HIPDNN_HEUR_MODE_FALLBACK;
    check(hipdnnBackendSetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_MODE, HIPDNN_TYPE_HEUR_MODE, 1, &mode), "heur mode");
    check(hipdnnBackendFinalize(heur), "finalize heur");
    check(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 0,
                                    &info.numResults, nullptr),
          "heur count");
    if(info.numResults == 0)
    {
        hipdnnBackendDestroyDescriptor(heur);
        throw std::runtime_error("no engine configurations for the graph");
    }
    hipdnnBackendDescriptor_t cfg = nullptr;
    check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR, &cfg), "create cfg");
    int64_t got = 0;
    check(hipdnnBackendGetAttribute(heur, HIPDNN_ATTR_ENGINEHEUR_RESULTS, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, &got, &cfg),
          "heur results");
    if(!knobs.empty())
    {
        check(hipdnnBackendSetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_KNOB_CHOICES, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                        static_cast<int64_t>(knobs.size()), knobs.data()),
              "cfg knobs");
    }
    try
    {
        check(hipdnnBackendFinalize(cfg), "finalize cfg");
    }
    catch(...)
    {
        hipdnnBackendDestroyDescriptor(cfg);
        hipdnnBackendDestroyDescriptor(heur);
        throw;
    }
    hipdnnBackendDescriptor_t eng = nullptr;
    check(hipdnnBackendGetAttribute(cfg, HIPDNN_ATTR_ENGINECFG_ENGINE, HIPDNN_TYPE_BACKEND_DESCRIPTOR, 1, nullptr, &eng),
          "cfg engine");
    check(hipdnnBackendGetAttribute(eng, HIPDNN_ATTR_ENGINE_GLOBAL_INDEX, HIPDNN_TYPE_INT64, 1, nullptr, &info.engineId),
          "engine id");
    char name[256] = {0};
    int64_t len = 0;
    check(hipdnnBackendGetAttribute(eng, HIPDNN_ATTR_ENGINE_NAME_EXT, HIPDNN_TYPE_CHAR, sizeof(name), &len, name),
          "engine name");
    info.engineName = name;
    hipdnnBackendDestroyDescriptor(eng);

    check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &info.plan), "create plan");
    check(hipdnnBackendSetAttribute(info.plan, HIPDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, HIPDNN_TYPE_BACKEND_DESCRIPTOR,
                                    1, &cfg),
          "plan cfg");
    check(hipdnnBackendFinalize(info.plan), "finalize plan");
    check(hipdnnBackendGetAttribute(info.plan, HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, HIPDNN_TYPE_INT64, 1, nullptr,
                                    &info.workspace),
          "plan workspace");
    hipdnnBackendDestroyDescriptor(cfg);
    hipdnnBackendDestroyDescriptor(heur);
    return info;
}

void execute(hipdnnHandle_t h, const PlanInfo& p, const std::vector<int64_t>& uids, const std::vector<void*>& ptrs)
{
    std::vector<unsigned char> ws(static_cast<size_t>(p.workspace) + 1);
    void* wsPtr = p.workspace > 0 ? ws.data() : nullptr;
    hipdnnBackendDescriptor_t vp = nullptr;
    check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, &vp), "create vp");
    check(hipdnnBackendSetAttribute(vp, HIPDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, HIPDNN_TYPE_INT64,
                                    static_cast<int64_t>(uids.size()), uids.data()),
          "vp uids");
    check(hipdnnBackendSetAttribute(vp, HIPDNN_ATTR_VARIANT_PACK_DATA_POINTERS, HIPDNN_TYPE_VOID_PTR,
                                    static_cast<int64_t>(ptrs.size()), ptrs.data()),
          "vp ptrs");
    check(hipdnnBackendSetAttribute(vp, HIPDNN_ATTR_VARIANT_PACK_WORKSPACE, HIPDNN_TYPE_VOID_PTR, 1, &wsPtr), "vp ws");
    check(hipdnnBackendFinalize(vp), "finalize vp");
    hipdnnStatus_t s = hipdnnBackendExecute(h, p.plan, vp);
    hipdnnBackendDestroyDescriptor(vp);
    check(s, "execute");
}

void destroyAll(std::vector<hipdnnBackendDescriptor_t>& ds)
{
    for(auto d : ds)
    {
        if(d != nullptr)
        {
            hipdnnBackendDestroyDescriptor(d);
        }
    }
    ds.clear();
}

// IEEE binary16: 1 sign, 5 exponent (bias 15), 10 mantissa bits.
uint16_t toHalf(float f)
{
    if(std::isnan(f))
    {
        return 0x7E00;
    }
    uint16_t sign = std::signbit(f) ? 0x8000 : 0;
    double a = std::fabs(static_cast<double>(f));
    if(a == 0.0)
    {
        return sign;
    }
    int e = 0;
    std::frexp(a, &e); // a = m * 2^e, m in [0.5, 1)
    int exp = e - 1;   // a = 1.x * 2^exp
    if(exp < -14)
    {
        exp = -14; // subnormal range uses the minimum exponent
    }
    double q = std::nearbyint(std::ldexp(a, 10 - exp)); // mantissa incl. hidden bit
    if(q >= 2048.0)
    {
        q /= 2.0;
        ++exp;
    }
    if(exp > 15)
    {
        return static_cast<uint16_t>(sign | 0x7C00);
    }
    auto m = static_cast<uint32_t>(q);
    if(m < 1024) // subnormal
    {
        return static_cast<uint16_t>(sign | m);
    }
    return static_cast<uint16_t>(sign | ((exp + 15) << 10) | (m - 1024));
}

float fromHalf(uint16_t h)
{
    int exp = (h >> 10) & 0x1F;
    int man = h & 0x3FF;
    double v;
    if(exp == 0)
    {
        v = std::ldexp(static_cast<double>(man), -24);
    }
    else if(exp == 31)
    {
        v = man != 0 ? NAN : INFINITY;
    }
    else
    {
        v = std::ldexp(static_cast<double>(man + 1024), exp - 25);
    }
    return static_cast<float>((h & 0x8000) ? -v : v);
}

uint16_t toBf16(float f)
{
    // bfloat16 keeps 8 mantissa bits: round to nearest even at 2^(exp-7)
    if(std::isnan(f))
    {
        return 0x7FC0;
    }
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    uint32_t upper = bits >> 16;
    uint32_t lower = bits & 0xFFFF;
    if(lower > 0x8000 || (lower == 0x8000 && (upper & 1)))
    {
        ++upper;
    }
    return static_cast<uint16_t>(upper);
}

float fromBf16(uint16_t b)
{
    uint32_t bits = static_cast<uint32_t>(b) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

ScopedEnv::ScopedEnv(const char* name, const char* value) : _name(name)
{
    const char* old = std::getenv(name);
    _had = old != nullptr;
    if(_had)
    {
        _old = old;
    }
    if(value != nullptr)
    {
        setenv(name, value, 1);
    }
    else
    {
        unsetenv(name);
    }
}

ScopedEnv::~ScopedEnv()
{
    if(_had)
    {
        setenv(_name.c_str(), _old.c_str(), 1);
    }
    else
    {
        unsetenv(_name.c_str());
    }
}

void BackendTest::SetUp()
{
    const char* paths[] = {_pluginDir};
    check(hipdnnSetEnginePluginPaths_ext(_pluginDir != nullptr ? 1 : 0, _pluginDir != nullptr ? paths : nullptr,
                                         HIPDNN_PLUGIN_LOADING_ADDITIVE),
          "plugin paths");
    check(hipdnnCreate(&_h), "create handle");
}

void BackendTest::TearDown()
{
    destroyAll(_descs);
    if(_h != nullptr)
    {
        hipdnnDestroy(_h);
    }
    if(_pluginDir != nullptr)
    {
        hipdnnSetEnginePluginPaths_ext(0, nullptr, HIPDNN_PLUGIN_LOADING_ADDITIVE);
    }
}

hipdnnBackendDescriptor_t BackendTest::create(hipdnnBackendDescriptorType_t t)
{
    hipdnnBackendDescriptor_t d = nullptr;
    check(hipdnnBackendCreateDescriptor(t, &d), "create");
    return keep(d);
}

hipdnnBackendDescriptor_t valueTensor(int64_t uid, hipdnnDataType_t dt, const void* bytes, int64_t n)
{
    hipdnnBackendDescriptor_t d = nullptr;
    check(hipdnnBackendCreateDescriptor(HIPDNN_BACKEND_TENSOR_DESCRIPTOR, &d), "create value tensor");
    std::vector<int64_t> one = {1};
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_UNIQUE_ID, HIPDNN_TYPE_INT64, 1, &uid), "uid");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_DATA_TYPE, HIPDNN_TYPE_DATA_TYPE, 1, &dt), "dtype");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_DIMENSIONS, HIPDNN_TYPE_INT64, 1, one.data()), "dims");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_STRIDES, HIPDNN_TYPE_INT64, 1, one.data()), "strides");
    check(hipdnnBackendSetAttribute(d, HIPDNN_ATTR_TENSOR_VALUE_EXT, HIPDNN_TYPE_CHAR, n, bytes), "value");
    check(hipdnnBackendFinalize(d), "finalize value tensor");
    return d;
}

} // namespace tu
