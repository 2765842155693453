use super::*;
use std::io::Write;

fn write_header(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("api.h");
    std::fs::File::create(&p).unwrap().write_all(text.as_bytes()).unwrap();
    p
}

const SAMPLE: &str = r#"
#pragma once
#include <stddef.h>
#define MY_EXPORT __attribute__((visibility("default")))
typedef enum { okStatus = 0, badStatus = 3 } myStatus_t;
typedef struct myHandle* myHandle_t;
typedef void* (*myAlloc_t)(void* ctx, size_t n);
#ifdef __cplusplus
extern "C" {
#endif
/** @addtogroup handle
 *
 *  @{
 */
/*! the first */
MY_EXPORT myStatus_t myCreate(myHandle_t* handle);
MY_EXPORT myStatus_t mySetAllocator(myHandle_t h, myAlloc_t alloc, void (*cb)(int), const int dims[]);
MY_EXPORT myStatus_t myRead(const myHandle_t h, const myHandle_t* many, myHandle_t const* more);
/** @} */
/** @addtogroup convolutions
 *  @{
 */
#ifdef MIOPEN_BETA_API
MY_EXPORT myStatus_t myConvBeta(myHandle_t h, const float* alpha);
#endif
MY_EXPORT const char* myName(myStatus_t s);
/** @} */
#ifdef __cplusplus
}
#endif
namespace inner { inline int notC(int x) { return x; } }
"#;

#[test]
fn finds_c_entry_points_with_groups_and_beta() {
    let dir = tempfile::tempdir().unwrap();
    let h = write_header(dir.path(), SAMPLE);
    let api = parse(&h, &ParseOptions::default()).unwrap();
    let names: Vec<_> = api.entry_points.iter().map(|e| e.name.as_str()).collect();
    assert_eq!(names, ["myCreate", "mySetAllocator", "myRead", "myConvBeta", "myName"]);
    let by = |n: &str| api.entry_points.iter().find(|e| e.name == n).unwrap().clone();
    assert_eq!(by("myCreate").group, "handle");
    assert_eq!(by("myConvBeta").group, "convolutions");
    assert!(by("myConvBeta").beta);
    assert!(!by("myName").beta);
    assert_eq!(by("myName").ret, "const char *");
    let set = by("mySetAllocator");
    assert_eq!(set.params[1].ty, "myAlloc_t");
    assert_eq!(set.params[2].ty, "void (*)(int)");
    assert_eq!(set.params[3].ty, "const int[]");
    assert_eq!(set.params[1].declarator("a"), "myAlloc_t a");
    assert_eq!(set.params[2].declarator("cb"), "void (*cb)(int)");
    assert_eq!(set.params[3].declarator("dims"), "const int dims[]");
    assert_eq!(by("myCreate").params[0].declarator("h"), "myHandle_t *h");
    let out = TypedefUse { name: "myHandle_t".into(), by: PassedBy::MutablePointer };
    assert_eq!(
        by("myCreate").params,
        vec![Param { name: "handle".into(), ty: "myHandle_t *".into(), typedef: Some(out) }]
    );
    assert_eq!(set.params[1].typedef, Some(TypedefUse { name: "myAlloc_t".into(), by: PassedBy::Value }));
    assert_eq!(set.params[3].typedef, None);
    let read = by("myRead");
    assert_eq!(read.params[0].typedef, Some(TypedefUse { name: "myHandle_t".into(), by: PassedBy::ConstValue }));
    // A pointer to const handles is read, never written.
    assert_eq!(read.params[1].typedef, None);
    assert_eq!(read.params[2].typedef, None);
}

#[test]
fn header_errors_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let h = write_header(dir.path(), "extern \"C\" int f(undeclared_t x);\n");
    let err = parse(&h, &ParseOptions::default()).unwrap_err();
    assert!(err.to_string().contains("undeclared_t"), "{err}");
}

#[test]
fn header_without_entry_points_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let h = write_header(dir.path(), "static inline int f(int x) { return x; }\n");
    assert!(matches!(parse(&h, &ParseOptions::default()), Err(HeaderError::Empty { .. })));
}
