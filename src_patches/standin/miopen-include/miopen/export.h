/* Parse-only stand-in for MIOpen's generated export-macro header
 * (miopen-hipdnn wrapper project, src_patches). Same visibility as the
 * generated header has on ELF platforms. */
#ifndef MIOPEN_WRAP_STANDIN_EXPORT_H
#define MIOPEN_WRAP_STANDIN_EXPORT_H

#define MIOPEN_EXPORT __attribute__((visibility("default")))
#define MIOPEN_NO_EXPORT __attribute__((visibility("hidden")))
#define MIOPEN_DEPRECATED __attribute__((__deprecated__))
#define MIOPEN_DEPRECATED_EXPORT MIOPEN_EXPORT MIOPEN_DEPRECATED
#define MIOPEN_DEPRECATED_NO_EXPORT MIOPEN_NO_EXPORT MIOPEN_DEPRECATED

#endif
