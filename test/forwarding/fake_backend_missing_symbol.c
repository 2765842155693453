/* A "libhipdnn_backend.so" that reports major 1 but lacks one pinned symbol
 * (hipdnnBackendExecute): the wrapper must treat the backend as unavailable.
 * Nothing here is ever called except the version query. */
#include <stddef.h>
#include <stdint.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT int hipdnnCreate(void** h) { (void)h; return 9; }
EXPORT int hipdnnDestroy(void* h) { (void)h; return 9; }
EXPORT int hipdnnSetStream(void* h, void* s) { (void)h; (void)s; return 9; }
EXPORT int hipdnnGetStream(void* h, void** s) { (void)h; (void)s; return 9; }
EXPORT int hipdnnBackendCreateDescriptor(int t, void** d) { (void)t; (void)d; return 9; }
EXPORT int hipdnnBackendDestroyDescriptor(void* d) { (void)d; return 9; }
EXPORT int hipdnnBackendFinalize(void* d) { (void)d; return 9; }
EXPORT int hipdnnBackendGetAttribute(void* d, int n, int t, int64_t r, int64_t* c, void* a)
{
    (void)d; (void)n; (void)t; (void)r; (void)c; (void)a;
    return 9;
}
EXPORT int hipdnnBackendSetAttribute(void* d, int n, int t, int64_t c, const void* a)
{
    (void)d; (void)n; (void)t; (void)c; (void)a;
    return 9;
}
EXPORT const char* hipdnnGetErrorString(int s) { (void)s; return "HIPDNN_STATUS_INTERNAL_ERROR"; }
EXPORT void hipdnnGetLastErrorString(char* m, size_t n) { if(m && n) m[0] = 0; }
EXPORT const char* hipdnnVersionString_ext(void) { return "1.0.0.0"; }
