/* Parse-only stand-in for MIOpen's generated build-configuration header
 * (miopen-hipdnn wrapper project, src_patches). A MIOpen source tree ships
 * only the template; the real header exists only in a configured build
 * directory. The public API header needs just the backend selection. */
#ifndef MIOPEN_WRAP_STANDIN_CONFIG_H
#define MIOPEN_WRAP_STANDIN_CONFIG_H

#define MIOPEN_BACKEND_HIP 1
#define MIOPEN_BACKEND_OPENCL 0

#endif
