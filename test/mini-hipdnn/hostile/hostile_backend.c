/* A hostile hipDNN backend (issue 34): it stands in for libhipdnn_backend.so,
 * passes every call to a real backend (HOSTILE_HIPDNN_REAL, the mini
 * hipDNN's library) and spoils one kind of answer, chosen by
 * HOSTILE_HIPDNN_MODE:
 *
 *   none                pass everything through (the positive control)
 *   count-huge          the heuristic's result count: 2^60
 *   count-negative      the heuristic's result count: -5
 *   count-over          the results call reports more than were asked for
 *   workspace-huge      a plan's workspace: INT64_MAX
 *   workspace-negative  a plan's workspace: -1
 *   null-handle         hipdnnCreate succeeds with a null handle
 *   null-descriptor     engine configs and plans are created as null
 *   wrong-type          every attribute read fails as a type mismatch
 *   late-finalize       an execution plan fails to finalize (after all else built)
 *   late-execute        every execute fails, after the plan built
 *   long-strings        execute fails; the last-error text fills the whole buffer
 *                       with no NUL, the status text is 1 MiB
 *   null-strings        execute fails; the status text is NULL
 *   long-version        the version string carries 64 KiB after its fourth field
 *
 * The wrapper must never crash, and must decline or report as RFC 0001 §6.1
 * says (test/sanitize/check_hostile_backend.py). */
#include "hipdnn_backend.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void* g_real;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void open_real(void)
{
    const char* path = getenv("HOSTILE_HIPDNN_REAL");
    g_real = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
    if(!g_real)
    {
        fprintf(stderr, "hostile backend: cannot open HOSTILE_HIPDNN_REAL=%s: %s\n", path ? path : "(unset)",
                dlerror());
        abort();
    }
}

static void* real(const char* name)
{
    pthread_once(&g_once, open_real);
    void* f = dlsym(g_real, name);
    if(!f)
    {
        fprintf(stderr, "hostile backend: the real backend lacks %s\n", name);
        abort();
    }
    return f;
}

static int mode_is(const char* m)
{
    const char* mode = getenv("HOSTILE_HIPDNN_MODE");
    return mode && strcmp(mode, m) == 0;
}

#define REAL(name, type) ((type)real(#name))

hipdnnStatus_t hipdnnCreate(hipdnnHandle_t* handle)
{
    static hipdnnHandle_t hidden[256]; /* kept reachable: a hidden handle is not a leak report */
    static unsigned count;
    hipdnnStatus_t s = REAL(hipdnnCreate, hipdnnStatus_t (*)(hipdnnHandle_t*))(handle);
    if(mode_is("null-handle") && s == HIPDNN_STATUS_SUCCESS)
    {
        hidden[__atomic_fetch_add(&count, 1, __ATOMIC_RELAXED) % 256] = *handle;
        *handle = NULL;
    }
    return s;
}

hipdnnStatus_t hipdnnDestroy(hipdnnHandle_t handle)
{
    return REAL(hipdnnDestroy, hipdnnStatus_t (*)(hipdnnHandle_t))(handle);
}

hipdnnStatus_t hipdnnSetStream(hipdnnHandle_t handle, hipStream_t stream)
{
    return REAL(hipdnnSetStream, hipdnnStatus_t (*)(hipdnnHandle_t, hipStream_t))(handle, stream);
}

hipdnnStatus_t hipdnnGetStream(hipdnnHandle_t handle, hipStream_t* stream)
{
    return REAL(hipdnnGetStream, hipdnnStatus_t (*)(hipdnnHandle_t, hipStream_t*))(handle, stream);
}

/* The execution plans created, so late-finalize fails only theirs. */
static hipdnnBackendDescriptor_t g_plans[4096];
static unsigned g_plan_count;
static pthread_mutex_t g_plans_lock = PTHREAD_MUTEX_INITIALIZER;

static int is_plan(hipdnnBackendDescriptor_t d)
{
    int found = 0;
    pthread_mutex_lock(&g_plans_lock);
    for(unsigned i = 0; i < g_plan_count && !found; ++i)
        found = g_plans[i] == d;
    pthread_mutex_unlock(&g_plans_lock);
    return found;
}

hipdnnStatus_t hipdnnBackendCreateDescriptor(hipdnnBackendDescriptorType_t type, hipdnnBackendDescriptor_t* d)
{
    hipdnnStatus_t s = REAL(hipdnnBackendCreateDescriptor,
                            hipdnnStatus_t (*)(hipdnnBackendDescriptorType_t, hipdnnBackendDescriptor_t*))(type, d);
    if(s != HIPDNN_STATUS_SUCCESS)
        return s;
    if(mode_is("null-descriptor") &&
       (type == HIPDNN_BACKEND_ENGINECFG_DESCRIPTOR || type == HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR))
    {
        /* The real descriptor is released here: the caller never sees it, and
         * the sanitizer tree's leak checker would otherwise blame the shim's
         * lie on the wrapper. */
        REAL(hipdnnBackendDestroyDescriptor, hipdnnStatus_t (*)(hipdnnBackendDescriptor_t))(*d);
        *d = NULL;
    }
    else if(type == HIPDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR)
    {
        pthread_mutex_lock(&g_plans_lock);
        g_plans[g_plan_count++ % 4096] = *d;
        pthread_mutex_unlock(&g_plans_lock);
    }
    return s;
}

hipdnnStatus_t hipdnnBackendDestroyDescriptor(hipdnnBackendDescriptor_t d)
{
    return REAL(hipdnnBackendDestroyDescriptor, hipdnnStatus_t (*)(hipdnnBackendDescriptor_t))(d);
}

hipdnnStatus_t hipdnnBackendExecute(hipdnnHandle_t h, hipdnnBackendDescriptor_t plan, hipdnnBackendDescriptor_t pack)
{
    if(mode_is("late-execute") || mode_is("long-strings") || mode_is("null-strings"))
        return HIPDNN_STATUS_EXECUTION_FAILED;
    return REAL(hipdnnBackendExecute,
                hipdnnStatus_t (*)(hipdnnHandle_t, hipdnnBackendDescriptor_t, hipdnnBackendDescriptor_t))(h, plan,
                                                                                                       pack);
}

hipdnnStatus_t hipdnnBackendFinalize(hipdnnBackendDescriptor_t d)
{
    if(mode_is("late-finalize") && is_plan(d))
        return HIPDNN_STATUS_INTERNAL_ERROR;
    return REAL(hipdnnBackendFinalize, hipdnnStatus_t (*)(hipdnnBackendDescriptor_t))(d);
}

hipdnnStatus_t hipdnnBackendGetAttribute(hipdnnBackendDescriptor_t d, hipdnnBackendAttributeName_t name,
                                         hipdnnBackendAttributeType_t type, int64_t requested, int64_t* count,
                                         void* elements)
{
    if(mode_is("wrong-type"))
        return HIPDNN_STATUS_BAD_PARAM;
    hipdnnStatus_t s =
        REAL(hipdnnBackendGetAttribute,
             hipdnnStatus_t (*)(hipdnnBackendDescriptor_t, hipdnnBackendAttributeName_t, hipdnnBackendAttributeType_t,
                                int64_t, int64_t*, void*))(d, name, type, requested, count, elements);
    if(s != HIPDNN_STATUS_SUCCESS)
        return s;
    if(name == HIPDNN_ATTR_ENGINEHEUR_RESULTS && count)
    {
        if(mode_is("count-huge") && !elements)
            *count = (int64_t)1 << 60;
        if(mode_is("count-negative") && !elements)
            *count = -5;
        if(mode_is("count-over") && elements)
            *count = requested + 7;
    }
    if(name == HIPDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE && elements)
    {
        if(mode_is("workspace-huge"))
            *(int64_t*)elements = INT64_MAX;
        if(mode_is("workspace-negative"))
            *(int64_t*)elements = -1;
    }
    return s;
}

hipdnnStatus_t hipdnnBackendSetAttribute(hipdnnBackendDescriptor_t d, hipdnnBackendAttributeName_t name,
                                         hipdnnBackendAttributeType_t type, int64_t count, const void* elements)
{
    return REAL(hipdnnBackendSetAttribute,
                hipdnnStatus_t (*)(hipdnnBackendDescriptor_t, hipdnnBackendAttributeName_t,
                                   hipdnnBackendAttributeType_t, int64_t, const void*))(d, name, type, count,
                                                                                        elements);
}

const char* hipdnnGetErrorString(hipdnnStatus_t status)
{
    static char huge[1 << 20];
    if(mode_is("null-strings"))
        return NULL;
    if(mode_is("long-strings"))
    {
        memset(huge, 'E', sizeof huge - 1);
        return huge;
    }
    return REAL(hipdnnGetErrorString, const char* (*)(hipdnnStatus_t))(status);
}

void hipdnnGetLastErrorString(char* message, size_t max_size)
{
    if(mode_is("long-strings") && message)
    {
        memset(message, 'L', max_size); /* all of it, and no NUL */
        return;
    }
    REAL(hipdnnGetLastErrorString, void (*)(char*, size_t))(message, max_size);
}

const char* hipdnnVersionString_ext(void)
{
    static char longer[(64 << 10) + 64];
    const char* v = REAL(hipdnnVersionString_ext, const char* (*)(void))();
    if(!mode_is("long-version") || !v)
        return v;
    snprintf(longer, 64, "%s", v);
    size_t n = strlen(longer);
    memset(longer + n, 'v', sizeof longer - n - 1);
    return longer;
}
