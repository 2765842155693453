// mini-hipdnn backend C API entry points (test bed; written for this project).
#include "descriptors.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <new>

#ifndef MINI_HIPDNN_VERSION_STRING
#error "MINI_HIPDNN_VERSION_STRING must be defined by the build"
#endif

namespace mh
{

namespace
{
// The last error of the calling thread, as hipDNN's LastErrorManager keeps it
// (backend/src/LastErrorManager.cpp @76c332e4: a thread_local buffer).
#if MINI_HIPDNN_TEST_PROCESS_WIDE_LAST_ERROR
// Only the negative control of mini_hipdnn_threads_test builds this: one
// message for the process (locked), which that test must see.
std::mutex g_lastErrorMutex;
std::string g_lastError;
void setLastError(std::string text)
{
    std::lock_guard<std::mutex> lock(g_lastErrorMutex);
    g_lastError = std::move(text);
}
std::string takeLastError(bool clear)
{
    std::lock_guard<std::mutex> lock(g_lastErrorMutex);
    std::string text = g_lastError;
    if(clear)
    {
        g_lastError.clear();
    }
    return text;
}
#else
thread_local std::string t_lastError;
void setLastError(std::string text) { t_lastError = std::move(text); }
std::string takeLastError(bool clear)
{
    std::string text = t_lastError;
    if(clear)
    {
        t_lastError.clear();
    }
    return text;
}
#endif

// The plugin manager, as hipDNN's: its configuration (hipdnnSetEnginePluginPaths_ext)
// and the engines loaded from it, shared by the live handles and loaded again
// when none is left; g_pluginMutex is taken only at handle creation and by the
// configuration call (EnginePluginResourceManager.cpp @014b75c9,
// PluginResourceManagerBase.hpp's getOrCreatePluginManager in tfalders/rocm-libraries
// @f6b59e29). Nothing on the execute path locks.
std::mutex g_pluginMutex;
std::vector<std::string> g_userPaths;
hipdnnPluginLoadingMode_ext_t g_loadingMode = HIPDNN_PLUGIN_LOADING_ADDITIVE;
std::weak_ptr<const EngineList> g_engines;
std::atomic<int> g_liveHandles{0};

template <typename F>
hipdnnStatus_t guarded(const char* api, F&& f)
{
    try
    {
        f();
        return HIPDNN_STATUS_SUCCESS;
    }
    catch(const Error& e)
    {
        setLastError(std::string(api) + ": " + e.message);
        return e.status;
    }
    catch(const std::bad_alloc&)
    {
        setLastError(std::string(api) + ": allocation failed");
        return HIPDNN_STATUS_ALLOC_FAILED;
    }
    catch(const std::exception& e)
    {
        setLastError(std::string(api) + ": " + e.what());
        return HIPDNN_STATUS_INTERNAL_ERROR;
    }
    catch(...)
    {
        setLastError(std::string(api) + ": unknown internal error");
        return HIPDNN_STATUS_INTERNAL_ERROR;
    }
}

std::shared_ptr<Desc> requireDesc(hipdnnBackendDescriptor_t d)
{
    failIf(d == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnBackendDescriptor_t is null");
    auto impl = lookup(d);
    failIf(impl == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "hipdnnBackendDescriptor_t is not a live descriptor");
    return impl;
}

void copyOut(char* message, size_t maxSize, const std::string& text)
{
    size_t n = std::min(maxSize - 1, text.size());
    std::memcpy(message, text.data(), n);
    message[n] = '\0';
}

// ---- plugin discovery ------------------------------------------------------
std::string backendDir()
{
    Dl_info info{};
    if(dladdr(reinterpret_cast<void*>(&hipdnnCreate), &info) != 0 && info.dli_fname != nullptr)
    {
        std::string p = info.dli_fname;
        auto slash = p.rfind('/');
        return slash == std::string::npos ? std::string(".") : p.substr(0, slash);
    }
    return ".";
}

bool isDir(const std::string& p)
{
    struct stat st{};
    return stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool isFile(const std::string& p)
{
    struct stat st{};
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool endsWith(const std::string& s, const std::string& suffix)
{
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A path names a directory (all *.so inside, sorted) or one plugin file;
// like hipDNN, the "lib" prefix and ".so" suffix may be omitted.
void expandPath(std::string p, const std::string& base, std::vector<std::string>& out)
{
    if(p.empty())
    {
        return;
    }
    if(p[0] != '/')
    {
        p = base + "/" + p;
    }
    if(isDir(p))
    {
        std::vector<std::string> files;
        if(DIR* d = opendir(p.c_str()))
        {
            while(dirent* ent = readdir(d))
            {
                std::string n = ent->d_name;
                if(endsWith(n, ".so") && isFile(p + "/" + n))
                {
                    files.push_back(p + "/" + n);
                }
            }
            closedir(d);
        }
        std::sort(files.begin(), files.end());
        out.insert(out.end(), files.begin(), files.end());
        return;
    }
    auto slash = p.rfind('/');
    std::string dir = p.substr(0, slash);
    std::string leaf = p.substr(slash + 1);
    for(const std::string& cand : {p, dir + "/lib" + leaf, p + ".so", dir + "/lib" + leaf + ".so"})
    {
        if(isFile(cand))
        {
            out.push_back(cand);
            return;
        }
    }
}

} // namespace

int64_t engineNameToId(const std::string& name)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for(unsigned char c : name)
    {
        h = (h ^ c) * 0x100000001b3ull;
    }
    return static_cast<int64_t>(h);
}

[[noreturn]] void fail(hipdnnStatus_t status, const std::string& message)
{
    throw Error{status, message};
}

bool envFlag(const char* name)
{
    std::string v = envString(name);
    return !v.empty() && v != "0";
}

std::string envString(const char* name)
{
    const char* v = std::getenv(name);
    return v == nullptr ? std::string() : std::string(v);
}

bool revisionShape(RevisionShape shape)
{
    // Read at call time (tests flip it between calls), without allocating:
    // it is consulted on every execute.
    const char* list = std::getenv("MINI_HIPDNN_TEST_REVISION_SHAPE");
    if(list == nullptr || *list == '\0')
    {
        return false;
    }
    const char* token = shape == RevisionShape::OldNumbering    ? "old-numbering"
                        : shape == RevisionShape::ConvModeInt64 ? "conv-mode-int64"
                        : shape == RevisionShape::BatchnormUnnumbered ? "batchnorm-unnumbered"
                        : shape == RevisionShape::NoBatchnormInferenceInv ? "no-batchnorm-inference-inv"
                                                                : "no-tensor-alignment";
    const size_t n = std::strlen(token);
    for(const char* p = list; *p != '\0';)
    {
        const char* end = std::strchr(p, ',');
        const size_t len = end != nullptr ? static_cast<size_t>(end - p) : std::strlen(p);
        if(len == n && std::strncmp(p, token, n) == 0)
        {
            return true;
        }
        p += len + (end != nullptr ? 1 : 0);
    }
    return false;
}

hipdnnBackendDescriptor_t pack(const std::shared_ptr<Desc>& d)
{
    return new HipdnnBackendDescriptor{d};
}

std::shared_ptr<Desc> lookup(hipdnnBackendDescriptor_t d)
{
    if(d == nullptr || d->live != HipdnnBackendDescriptor::kLive)
    {
        return nullptr;
    }
    return d->impl;
}

void unpack(hipdnnBackendDescriptor_t d)
{
    d->live = 0;
    delete d;
}

namespace
{
// Scans and loads the configured plugins (under g_pluginMutex).
std::shared_ptr<const EngineList> scanEngines(const std::vector<std::string>& userPaths,
                                              hipdnnPluginLoadingMode_ext_t mode)
{
    const std::string base = backendDir();
    std::vector<std::string> files;
    if(mode != HIPDNN_PLUGIN_LOADING_ABSOLUTE)
    {
        // HIPDNN_PLUGIN_DIR replaces the default directory, as in hipDNN.
        std::string envDir = envString("HIPDNN_PLUGIN_DIR");
        expandPath(envDir.empty() ? std::string("hipdnn_plugins/engines") : envDir, base, files);
    }
    for(const auto& p : userPaths)
    {
        expandPath(p, base, files);
    }

    auto list = std::make_shared<EngineList>();
    for(const auto& f : files)
    {
        void* lib = dlopen(f.c_str(), RTLD_NOW | RTLD_LOCAL);
        if(lib == nullptr)
        {
            continue;
        }
        auto entry = reinterpret_cast<miniHipdnnEnginePluginEntry_v1>(dlsym(lib, MINI_HIPDNN_ENGINE_PLUGIN_ENTRY));
        const miniHipdnnEnginePlugin_v1* api = entry ? entry() : nullptr;
        bool ok = api != nullptr && api->abiVersion == MINI_HIPDNN_ENGINE_PLUGIN_ABI_VERSION && api->name != nullptr
                  && api->supports != nullptr && api->workspaceSize != nullptr && api->execute != nullptr;
        const int64_t id = ok ? engineNameToId(api->name) : 0;
        if(ok)
        {
            for(const auto& e : *list)
            {
                ok = ok && e.id != id && e.path != f;
            }
        }
        if(!ok)
        {
            continue; // plugins stay loaded for the process lifetime (lazy unloading)
        }
        list->push_back(LoadedEngine{f, lib, api, id});
    }
    return list;
}
} // namespace

std::shared_ptr<const EngineList> loadEngines()
{
    std::lock_guard<std::mutex> lock(g_pluginMutex);
    auto engines = g_engines.lock();
    if(engines == nullptr)
    {
        engines = scanEngines(g_userPaths, g_loadingMode);
        g_engines = engines;
    }
    return engines;
}

} // namespace mh

using mh::fail;
using mh::failIf;
using mh::guarded;

extern "C" {

hipdnnStatus_t hipdnnCreate(hipdnnHandle_t* handle)
{
    return guarded(__func__, [&] {
        failIf(handle == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "handle pointer is null");
        failIf(mh::envFlag("MINI_HIPDNN_TEST_FAIL_CREATE"),
               HIPDNN_STATUS_INTERNAL_ERROR,
               "failed by MINI_HIPDNN_TEST_FAIL_CREATE (test-bed knob)");
        auto h = std::make_unique<hipdnnHandle>();
        h->engines = mh::loadEngines();
        *handle = h.release();
        ++mh::g_liveHandles;
    });
}

hipdnnStatus_t hipdnnDestroy(hipdnnHandle_t handle)
{
    return guarded(__func__, [&] {
        failIf(handle == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "handle is null");
        delete handle;
        --mh::g_liveHandles;
    });
}

hipdnnStatus_t hipdnnSetStream(hipdnnHandle_t handle, hipStream_t streamId)
{
    return guarded(__func__, [&] {
        failIf(handle == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "handle is null");
        handle->stream = streamId;
    });
}

hipdnnStatus_t hipdnnGetStream(hipdnnHandle_t handle, hipStream_t* streamId)
{
    return guarded(__func__, [&] {
        failIf(handle == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "handle is null");
        failIf(streamId == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "stream pointer is null");
        *streamId = handle->stream;
    });
}

hipdnnStatus_t hipdnnBackendCreateDescriptor(hipdnnBackendDescriptorType_t descriptorType,
                                             hipdnnBackendDescriptor_t* descriptor)
{
    return guarded(__func__, [&] {
        failIf(descriptor == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "descriptor pointer is null");
        *descriptor = mh::pack(mh::createDesc(descriptorType));
    });
}

hipdnnStatus_t hipdnnBackendDestroyDescriptor(hipdnnBackendDescriptor_t descriptor)
{
    return guarded(__func__, [&] {
        mh::requireDesc(descriptor);
        mh::unpack(descriptor);
    });
}

hipdnnStatus_t hipdnnBackendFinalize(hipdnnBackendDescriptor_t descriptor)
{
    return guarded(__func__, [&] { mh::Desc_finalize(*mh::requireDesc(descriptor)); });
}

hipdnnStatus_t hipdnnBackendSetAttribute(hipdnnBackendDescriptor_t descriptor,
                                         hipdnnBackendAttributeName_t attributeName,
                                         hipdnnBackendAttributeType_t attributeType,
                                         int64_t elementCount,
                                         const void* arrayOfElements)
{
    return guarded(__func__, [&] {
        mh::requireDesc(descriptor)->set(attributeName, attributeType, elementCount, arrayOfElements);
    });
}

hipdnnStatus_t hipdnnBackendGetAttribute(hipdnnBackendDescriptor_t descriptor,
                                         hipdnnBackendAttributeName_t attributeName,
                                         hipdnnBackendAttributeType_t attributeType,
                                         int64_t requestedElementCount,
                                         int64_t* elementCount,
                                         void* arrayOfElements)
{
    return guarded(__func__, [&] {
        mh::requireDesc(descriptor)->get(
            attributeName, attributeType, requestedElementCount, elementCount, arrayOfElements);
    });
}

hipdnnStatus_t hipdnnBackendExecute(hipdnnHandle_t handle,
                                    hipdnnBackendDescriptor_t executionPlan,
                                    hipdnnBackendDescriptor_t variantPack)
{
    return guarded(__func__, [&] {
        failIf(handle == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "handle is null");
        auto plan = mh::requireDesc(executionPlan);
        auto pack = mh::requireDesc(variantPack);
        failIf(plan->type != HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, HIPDNN_STATUS_BAD_PARAM, "not an execution plan");
        failIf(pack->type != HIPDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, HIPDNN_STATUS_BAD_PARAM, "not a variant pack");
        mh::executePlan(handle, static_cast<const mh::PlanDesc&>(*plan), static_cast<const mh::VariantDesc&>(*pack));
    });
}

const char* hipdnnGetErrorString(hipdnnStatus_t status)
{
    switch(status)
    {
    case HIPDNN_STATUS_SUCCESS: return "HIPDNN_STATUS_SUCCESS";
    case HIPDNN_STATUS_NOT_INITIALIZED: return "HIPDNN_STATUS_NOT_INITIALIZED";
    case HIPDNN_STATUS_BAD_PARAM: return "HIPDNN_STATUS_BAD_PARAM";
    case HIPDNN_STATUS_BAD_PARAM_NULL_POINTER: return "HIPDNN_STATUS_BAD_PARAM_NULL_POINTER";
    case HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED: return "HIPDNN_STATUS_BAD_PARAM_NOT_FINALIZED";
    case HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND: return "HIPDNN_STATUS_BAD_PARAM_OUT_OF_BOUND";
    case HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT: return "HIPDNN_STATUS_BAD_PARAM_SIZE_INSUFFICIENT";
    case HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH: return "HIPDNN_STATUS_BAD_PARAM_STREAM_MISMATCH";
    case HIPDNN_STATUS_NOT_SUPPORTED: return "HIPDNN_STATUS_NOT_SUPPORTED";
    case HIPDNN_STATUS_INTERNAL_ERROR: return "HIPDNN_STATUS_INTERNAL_ERROR";
    case HIPDNN_STATUS_ALLOC_FAILED: return "HIPDNN_STATUS_ALLOC_FAILED";
    case HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED: return "HIPDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED";
    case HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED:
        return "HIPDNN_STATUS_INTERNAL_ERROR_DEVICE_ALLOCATION_FAILED";
    case HIPDNN_STATUS_EXECUTION_FAILED: return "HIPDNN_STATUS_EXECUTION_FAILED";
    case HIPDNN_STATUS_PLUGIN_ERROR: return "HIPDNN_STATUS_PLUGIN_ERROR";
    case HIPDNN_STATUS_VERSION_MISMATCH: return "HIPDNN_STATUS_VERSION_MISMATCH";
    }
    return "HIPDNN_STATUS_UNKNOWN";
}

void hipdnnGetLastErrorString(char* message, size_t maxSize)
{
    if(message == nullptr || maxSize == 0)
    {
        return;
    }
    mh::copyOut(message, maxSize, mh::takeLastError(true));
}

void hipdnnPeekLastErrorString_ext(char* message, size_t maxSize)
{
    if(message == nullptr || maxSize == 0)
    {
        return;
    }
    mh::copyOut(message, maxSize, mh::takeLastError(false));
}

hipdnnStatus_t hipdnnSetEnginePluginPaths_ext(size_t numPaths,
                                              const char* const* pluginPaths,
                                              hipdnnPluginLoadingMode_ext_t loadingMode)
{
    return guarded(__func__, [&] {
        failIf(numPaths > 0 && pluginPaths == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "pluginPaths is null");
        failIf(loadingMode != HIPDNN_PLUGIN_LOADING_ADDITIVE && loadingMode != HIPDNN_PLUGIN_LOADING_ABSOLUTE,
               HIPDNN_STATUS_BAD_PARAM,
               "invalid loading mode");
        std::vector<std::string> paths;
        for(size_t i = 0; i < numPaths; ++i)
        {
            failIf(pluginPaths[i] == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "a plugin path is null");
            paths.emplace_back(pluginPaths[i]);
        }
        failIf(mh::g_liveHandles.load() > 0,
               HIPDNN_STATUS_NOT_SUPPORTED,
               "plugin paths cannot change while a handle exists");
        std::lock_guard<std::mutex> lock(mh::g_pluginMutex);
        mh::g_userPaths = std::move(paths);
        mh::g_loadingMode = loadingMode;
        mh::g_engines.reset(); // the next handle loads the new configuration
    });
}

hipdnnStatus_t hipdnnGetEngineCount_ext(hipdnnHandle_t handle, size_t* numEngines)
{
    return guarded(__func__, [&] {
        failIf(handle == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "handle is null");
        failIf(numEngines == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "numEngines is null");
        *numEngines = handle->engines->size();
    });
}

const char* hipdnnVersionString_ext(void)
{
    // Test knob: report another version (the environment string lives as
    // long as the process does not change it, like the static string).
    const char* other = std::getenv("MINI_HIPDNN_TEST_VERSION_STRING");
    return other != nullptr && *other != '\0' ? other : MINI_HIPDNN_VERSION_STRING;
}

hipdnnStatus_t hipdnnGetVersion_ext(const char** version)
{
    return guarded(__func__, [&] {
        failIf(version == nullptr, HIPDNN_STATUS_BAD_PARAM_NULL_POINTER, "version pointer is null");
        *version = hipdnnVersionString_ext();
    });
}

} // extern "C"
