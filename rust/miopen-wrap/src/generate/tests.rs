use super::*;

const HEADER: &str = r#"
#pragma once
#include <stddef.h>
#define MIOPEN_EXPORT __attribute__((visibility("default")))
typedef enum { miopenStatusSuccess = 0, miopenStatusBadParm = 3 } miopenStatus_t;
typedef struct miopenHandle* miopenHandle_t;
extern "C" {
/** @addtogroup handle
 *  @{
 */
MIOPEN_EXPORT miopenStatus_t miopenCreate(miopenHandle_t* handle);
MIOPEN_EXPORT const char* miopenGetErrorString(miopenStatus_t error);
/** @} */
/** @addtogroup convolutions
 *  @{
 */
#ifdef MIOPEN_BETA_API
MIOPEN_EXPORT miopenStatus_t miopenSetDims(miopenHandle_t h, int n, const int dims[], void (*cb)(int));
#endif
/** @} */
}
"#;

fn run_on(header: &str, survivors: &[&str]) -> (tempfile::TempDir, Manifest) {
    run_with_groups(header, survivors, None)
}

/// `generate`'s arguments for `header`, written into a new temporary directory.
fn args_in_tempdir(header: &str, survivors: &[&str], groups: Option<&str>) -> (tempfile::TempDir, GenerateArgs) {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path().join("miopen.h");
    std::fs::write(&h, header).unwrap();
    let args = GenerateArgs {
        header: h,
        include_dirs: vec![],
        defines: vec![],
        rename_report: None,
        survivors: survivors.iter().map(|s| s.to_string()).collect(),
        version_node: "MIOPEN_TEST_1".into(),
        out_dir: dir.path().join("out"),
        forward_groups: groups.map(|g| super::BuildSet(Group::parse_build_set(g).unwrap())),
    };
    (dir, args)
}

fn run_with_groups(header: &str, survivors: &[&str], groups: Option<&str>) -> (tempfile::TempDir, Manifest) {
    let (dir, args) = args_in_tempdir(header, survivors, groups);
    let m = run(&args).unwrap();
    (dir, m)
}

#[test]
fn manifest_lists_entry_points_with_families() {
    let (_d, m) = run_on(HEADER, &["miopenHiddenThing"]);
    let names: Vec<_> = m.entry_points.iter().map(|e| (e.name.as_str(), e.family.as_str(), e.beta)).collect();
    assert_eq!(
        names,
        [
            ("miopenCreate", "handle", false),
            ("miopenGetErrorString", "handle", false),
            ("miopenSetDims", "convolutions", true)
        ]
    );
    assert_eq!(m.survivors, ["miopenHiddenThing"]);
}

#[test]
fn export_map_is_exactly_public_plus_survivors_plus_the_wrapper_api() {
    let (d, _m) = run_on(HEADER, &["miopenHiddenThing"]);
    let map = std::fs::read_to_string(d.path().join("out/libMIOpen.map")).unwrap();
    assert!(map.contains("MIOPEN_TEST_1 {"));
    let globals: Vec<&str> =
        map.lines().map(str::trim).skip_while(|l| *l != "global:").skip(1).take_while(|l| *l != "local:").collect();
    assert_eq!(
        globals,
        [
            "miopenCreate;",
            "miopenGetErrorString;",
            "miopenGetLastForwardedError;",
            "miopenHiddenThing;",
            "miopenSetDims;"
        ]
    );
}

const TABLE_HEADER: &str = r#"
#pragma once
#include <stddef.h>
typedef enum { miopenStatusSuccess = 0 } miopenStatus_t;
typedef struct miopenHandle* miopenHandle_t;
typedef struct miopenTensorDescriptor* miopenTensorDescriptor_t;
typedef struct miopenConvolutionDescriptor* miopenConvolutionDescriptor_t;
extern "C" {
/** @addtogroup convolutions
 *  @{
 */
miopenStatus_t miopenDestroy(miopenHandle_t handle);
miopenStatus_t miopenConvolutionForwardGetWorkSpaceSize(miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, size_t* workSpaceSize);
/** @} */
}
"#;

#[test]
fn forwarding_table_entries_call_their_handler_and_hooks_observe() {
    let (d, m) = run_on(TABLE_HEADER, &[]);
    let s = std::fs::read_to_string(d.path().join("out/stubs.rs")).unwrap();
    let ws = "miopenConvolutionForwardGetWorkSpaceSize";
    // The family's group names the module; the configuration is passed down.
    assert!(s.contains(&format!("crate::forward::conv::entry::{ws}(\n")), "{s}");
    assert!(s.contains("crate::runtime::Routed::Hipdnn(config) =>"), "{s}");
    assert!(s.contains("1,\n                config,\n"), "{s}");
    assert!(s.contains("None => {\n                    impls::miopenConvolutionForwardGetWorkSpaceSize_impl("), "{s}");
    assert!(s.contains("crate::forward::hooks::miopenDestroy(crate::runtime::config(), handle);"), "{s}");
    // The manifest takes the family from the table, not the doxygen group.
    let fam: Vec<_> = m.entry_points.iter().map(|e| (e.name.as_str(), e.family.as_str())).collect();
    assert_eq!(fam, vec![("miopenDestroy", "convolutions"), (ws, "conv_fwd")]);
    syn::parse_file(&s).unwrap();
}

#[test]
fn a_group_outside_the_build_set_is_built_as_pass_through() {
    let ws = "miopenConvolutionForwardGetWorkSpaceSize";
    let (d, m) = run_with_groups(TABLE_HEADER, &[], Some("none"));
    assert!(m.forward_groups.is_empty());
    let s = std::fs::read_to_string(d.path().join("out/stubs.rs")).unwrap();
    assert!(!s.contains("crate::forward::conv::entry::"), "{s}");
    assert!(s.contains(&format!("crate::runtime::route(1);\n    impls::{ws}_impl(")), "{s}");
    let rows = std::fs::read_to_string(d.path().join("out/entry_points.rs")).unwrap();
    assert!(!rows.contains("Some(miopen_forwarding_core::Family"), "{rows}");
    // The hooks stay: they observe the call whatever the set.
    assert!(s.contains("crate::forward::hooks::miopenDestroy(crate::runtime::config(), handle);"), "{s}");

    // The default set is convolution through all three APIs, and the manifest says so.
    let (d, m) = run_with_groups(TABLE_HEADER, &[], None);
    assert_eq!(m.forward_groups, ["convolution", "fusion", "find2"]);
    let rows = std::fs::read_to_string(d.path().join("out/entry_points.rs")).unwrap();
    assert!(rows.contains("forward: Some(miopen_forwarding_core::Family::named(\"conv_fwd\"))"), "{rows}");
}

const BN_HEADER: &str = r#"
#pragma once
typedef enum { miopenStatusSuccess = 0 } miopenStatus_t;
typedef enum { miopenBNPerActivation = 0, miopenBNSpatial = 1 } miopenBatchNormMode_t;
typedef struct miopenHandle* miopenHandle_t;
typedef struct miopenTensorDescriptor* miopenTensorDescriptor_t;
extern "C" {
/** @addtogroup batchnorm
 *  @{
 */
miopenStatus_t miopenBatchNormalizationForwardInference(miopenHandle_t handle, miopenBatchNormMode_t bn_mode,
    void* alpha, void* beta, const miopenTensorDescriptor_t xDesc, const void* x,
    const miopenTensorDescriptor_t yDesc, void* y, const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
    void* bnScale, void* bnBias, void* estimatedMean, void* estimatedVariance, double epsilon);
miopenStatus_t miopenBatchNormalizationForwardTraining(miopenHandle_t handle, miopenBatchNormMode_t bn_mode,
    void* alpha, void* beta, const miopenTensorDescriptor_t xDesc, const void* x,
    const miopenTensorDescriptor_t yDesc, void* y, const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc,
    void* bnScale, void* bnBias, double expAvgFactor, void* resultRunningMean, void* resultRunningVariance,
    double epsilon, void* resultSaveMean, void* resultSaveInvVariance);
miopenStatus_t miopenBatchNormalizationBackward(miopenHandle_t handle, miopenBatchNormMode_t bn_mode,
    const void* alphaDataDiff, const void* betaDataDiff, const void* alphaParamDiff, const void* betaParamDiff,
    const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t dyDesc, const void* dy,
    const miopenTensorDescriptor_t dxDesc, void* dx, const miopenTensorDescriptor_t bnScaleBiasDiffDesc,
    const void* bnScale, void* resultBnScaleDiff, void* resultBnBiasDiff, double epsilon, const void* savedMean,
    const void* savedInvVariance);
miopenStatus_t miopenBatchNormalizationForwardInference_V2(miopenHandle_t handle, miopenBatchNormMode_t bn_mode,
    void* alpha, void* beta, const miopenTensorDescriptor_t xDesc, const void* x,
    const miopenTensorDescriptor_t yDesc, void* y, const miopenTensorDescriptor_t scaleDesc,
    const miopenTensorDescriptor_t biasDesc, const miopenTensorDescriptor_t estMeanDesc,
    const miopenTensorDescriptor_t estVarianceDesc, void* bnScale, void* bnBias, void* estimatedMean,
    void* estimatedVariance, double epsilon);
miopenStatus_t miopenBatchNormalizationForwardTraining_V2(miopenHandle_t handle, miopenBatchNormMode_t bn_mode,
    void* alpha, void* beta, const miopenTensorDescriptor_t xDesc, const void* x,
    const miopenTensorDescriptor_t yDesc, void* y, const miopenTensorDescriptor_t scaleDesc,
    const miopenTensorDescriptor_t biasVarDesc, const miopenTensorDescriptor_t savedMeanDesc,
    const miopenTensorDescriptor_t savedVarDesc, void* bnScale, void* bnBias, double expAvgFactor,
    void* resultRunningMean, void* resultRunningVariance, double epsilon, void* resultSaveMean,
    void* resultSaveInvVariance);
miopenStatus_t miopenBatchNormalizationBackward_V2(miopenHandle_t handle, miopenBatchNormMode_t bn_mode,
    const void* alphaDataDiff, const void* betaDataDiff, const void* alphaParamDiff, const void* betaParamDiff,
    const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t dyDesc, const void* dy,
    const miopenTensorDescriptor_t dxDesc, void* dx, const miopenTensorDescriptor_t scaleDesc,
    const miopenTensorDescriptor_t biasDesc, const miopenTensorDescriptor_t savedMeanDesc,
    const miopenTensorDescriptor_t savedVarDesc, const void* bnScale, void* resultBnScaleDiff,
    void* resultBnBiasDiff, double epsilon, const void* savedMean, const void* savedInvVariance);
/** @} */
}
"#;

#[test]
fn batchnorm_is_routed_only_in_a_set_that_names_it() {
    // Inference, training and backward (their rows in entry-point order).
    let bns = [
        ("miopenBatchNormalizationForwardInference", "bn_fwd_inference"),
        ("miopenBatchNormalizationForwardTraining", "bn_fwd_training"),
        ("miopenBatchNormalizationBackward", "bn_bwd"),
    ];
    // The default set (the convolution's groups): a plain pass-through, as before the group existed.
    let (d, m) = run_with_groups(BN_HEADER, &[], None);
    assert_eq!(m.forward_groups, ["convolution", "fusion", "find2"]);
    let s = std::fs::read_to_string(d.path().join("out/stubs.rs")).unwrap();
    assert!(!s.contains("crate::forward::batchnorm::entry::"), "{s}");
    for (i, (bn, _)) in bns.iter().enumerate() {
        assert!(s.contains(&format!("crate::runtime::route({i});\n    impls::{bn}_impl(")), "{bn}: {s}");
    }
    // With batchnorm in the set: the routed body calls the group's entry.
    let (d, m) = run_with_groups(BN_HEADER, &[], Some("convolution,batchnorm"));
    assert_eq!(m.forward_groups, ["convolution", "batchnorm"]);
    let s = std::fs::read_to_string(d.path().join("out/stubs.rs")).unwrap();
    let rows = std::fs::read_to_string(d.path().join("out/entry_points.rs")).unwrap();
    for (bn, family) in bns {
        // The legacy call's arguments go to its `_V2`'s entry function, converted.
        assert!(s.contains(&format!("let forwarded_args__ = args::{bn} {{")), "{bn}: {s}");
        assert!(s.contains(&format!("crate::forward::batchnorm::entry::{bn}_V2(\n")), "{bn}: {s}");
        assert!(s.contains(&format!("&args::{bn}_V2::from(")), "{bn}: {s}");
        assert!(
            rows.contains(&format!("forward: Some(miopen_forwarding_core::Family::named(\"{family}\"))")),
            "{rows}"
        );
    }
    syn::parse_file(&s).unwrap();
}

#[test]
fn an_unknown_group_is_a_usage_error_naming_the_accepted_ones() {
    use clap::Parser;
    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: GenerateArgs,
    }
    let base = ["x", "--header", "h", "--version-node", "N", "--out-dir", "o", "--forward-groups"];
    let e = Cli::try_parse_from(base.iter().chain(&["convolution;no_such_group"])).err().expect("rejected");
    assert!(e.to_string().contains("unknown family group `no_such_group`"), "{e}");
    assert!(e.to_string().contains("accepted: convolution"), "{e}");
    let ok = Cli::try_parse_from(base.iter().chain(&["convolution"])).unwrap();
    assert_eq!(ok.args.forward_groups.unwrap().0, [Group::named("convolution")]);
}

#[test]
fn impl_header_declares_impl_names_with_beta_guard() {
    let (d, _m) = run_on(HEADER, &[]);
    let h = std::fs::read_to_string(d.path().join("out/include/miopen/miopen_impl.h")).unwrap();
    assert!(h.contains("MIOPEN_EXPORT miopenStatus_t miopenCreate_impl(miopenHandle_t *handle);"), "{h}");
    assert!(h.contains("MIOPEN_EXPORT const char *miopenGetErrorString_impl(miopenStatus_t error);"), "{h}");
    assert!(h.contains(
        "#ifdef MIOPEN_BETA_API\nMIOPEN_EXPORT miopenStatus_t miopenSetDims_impl(miopenHandle_t h, int n, const int dims[], void (*cb)(int));\n#endif"
    ), "{h}");
}

#[test]
fn stubs_bind_enums_as_integers_and_call_impl() {
    let (d, _m) = run_on(HEADER, &["miopenHiddenThing"]);
    let b = std::fs::read_to_string(d.path().join("out/bindings.rs")).unwrap();
    assert!(b.contains("pub type miopenStatus_t = ::std::os::raw::c_uint;"), "{b}");
    assert!(!b.contains("pub enum"), "enums must not be Rust enums:\n{b}");
    assert!(b.contains("pub fn miopenCreate_impl(handle: *mut miopenHandle_t) -> miopenStatus_t;"), "{b}");
    let e = std::fs::read_to_string(d.path().join("out/entry_points.rs")).unwrap();
    assert!(e.contains("pub static ENTRY_POINTS: [EntryPoint; "), "{e}");
    assert!(e.contains("name: \"miopenCreate\""), "{e}");
    syn::parse_file(&b).unwrap();
    syn::parse_file(&e).unwrap();
    let s = std::fs::read_to_string(d.path().join("out/stubs.rs")).unwrap();
    assert!(
        s.contains("pub unsafe extern \"C\" fn miopenCreate(handle: *mut miopenHandle_t) -> miopenStatus_t"),
        "{s}"
    );
    assert!(s.contains("crate::fast_path!(impls::miopenCreate_impl, miopenCreate__routed)"), "{s}");
    // Not in the forwarding table: the routed body traces, then calls Private.
    assert!(s.contains("crate::runtime::route(0);\n    impls::miopenCreate_impl(handle)"), "{s}");
    assert!(!s.contains("::entry::"), "{s}");
    // miopenGetErrorString is an after-hook: Private's text, then the hook may prefix it.
    assert!(s.contains("let result = impls::miopenGetErrorString_impl(error);"), "{s}");
    // Arguments go on without casts: the hooks and handlers are compiled
    // against these very types (a prototype they do not match fails to build).
    assert!(s.contains("crate::forward::hooks::miopenGetErrorString(crate::runtime::config(), error, result)"), "{s}");
    assert!(!s.contains(" as _"), "{s}");
    assert!(s.contains("jmp *miopenHiddenThing_impl@GOTPCREL(%rip)"), "{s}");
    // The generated file must itself be valid Rust.
    syn::parse_file(&s).unwrap();
}

#[test]
fn survivor_that_the_header_declares_is_rejected() {
    let dir = tempfile::tempdir().unwrap();
    let h = dir.path().join("miopen.h");
    std::fs::write(&h, HEADER).unwrap();
    let args = GenerateArgs {
        header: h,
        include_dirs: vec![],
        defines: vec![],
        rename_report: None,
        survivors: vec!["miopenCreate".into()],
        version_node: "N".into(),
        out_dir: dir.path().join("out"),
        forward_groups: None,
    };
    assert!(matches!(run(&args), Err(GenerateError::Mismatch(_))));
}

fn compile_typecheck(dir: &std::path::Path) -> std::process::Output {
    std::process::Command::new("c++")
        .args(["-std=c++17", "-fsyntax-only", "-DMIOPEN_BETA_API=1"])
        .arg(format!("-I{}", dir.display()))
        .arg(format!("-I{}", dir.join("out/include").display()))
        .arg(dir.join("out/impl_typecheck.cpp"))
        .output()
        .expect("c++ runs")
}

#[test]
fn typecheck_compiles_and_catches_a_drifted_impl_declaration() {
    let (d, _m) = run_on(HEADER, &[]);
    // miopen_impl.h includes <miopen/miopen.h>: lay the header out that way.
    std::fs::create_dir_all(d.path().join("miopen")).unwrap();
    std::fs::copy(d.path().join("miopen.h"), d.path().join("miopen/miopen.h")).unwrap();
    let ok = compile_typecheck(d.path());
    assert!(ok.status.success(), "{}", String::from_utf8_lossy(&ok.stderr));

    // Negative: one parameter type drifts in miopen_impl.h.
    let impl_h = d.path().join("out/include/miopen/miopen_impl.h");
    let text = std::fs::read_to_string(&impl_h).unwrap();
    let drifted =
        text.replace("miopenSetDims_impl(miopenHandle_t h, int n,", "miopenSetDims_impl(miopenHandle_t h, long n,");
    assert_ne!(text, drifted);
    std::fs::write(&impl_h, drifted).unwrap();
    let bad = compile_typecheck(d.path());
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("miopenSetDims_impl differs from miopenSetDims"));
}

const DESCRIPTOR_HEADER: &str = r#"
#pragma once
typedef enum { miopenStatusSuccess = 0 } miopenStatus_t;
typedef struct miopenTensorDescriptor* miopenTensorDescriptor_t;
typedef struct miopenOther* miopenOther_t;
extern "C" {
miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t* tensorDesc);
miopenStatus_t miopenSetTensorThing(miopenTensorDescriptor_t tensorDesc, int n, miopenOther_t other);
miopenStatus_t miopenUseTensor(const miopenTensorDescriptor_t tensorDesc, miopenOther_t* other);
miopenStatus_t miopenOtherOnly(miopenOther_t other, miopenOther_t* more);
miopenStatus_t miopenConvolutionForwardGetWorkSpaceSize(void* handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, void* convDesc, const miopenTensorDescriptor_t yDesc, unsigned long* size);
}
"#;

/// The routed body of `name` in the generated stubs.
fn routed_body<'a>(stubs: &'a str, name: &str) -> &'a str {
    let start = stubs.find(&format!("fn {name}__routed(")).unwrap_or_else(|| panic!("no {name}__routed"));
    let rest = &stubs[start..];
    &rest[..rest.find("\n}\n").unwrap()]
}

#[test]
fn entry_points_that_may_change_a_watched_descriptor_report_it_after_the_call() {
    let (d, _m) = run_on(DESCRIPTOR_HEADER, &[]);
    let s = std::fs::read_to_string(d.path().join("out/stubs.rs")).unwrap();
    let report = "crate::forward::common::generations::changed(";
    let create = routed_body(&s, "miopenCreateTensorDescriptor");
    assert!(create.contains(report) && create.contains("&[tensorDesc as *const usize]"), "{create}");
    let set = routed_body(&s, "miopenSetTensorThing");
    assert!(set.contains("&[tensorDesc as usize]"), "{set}");
    // Only the watched type: another handle type passed by value is not reported.
    assert!(!set.contains("other as usize"), "{set}");
    // `const` on a handle typedef is the pointer's: MIOpen declares setters
    // so, hence reported too; a pointer to another type is not a create.
    let used = routed_body(&s, "miopenUseTensor");
    assert!(used.contains("&[tensorDesc as usize]") && used.contains("&[]"), "{used}");
    assert!(!routed_body(&s, "miopenOtherOnly").contains(report), "{s}");
    // A forwarding-table entry point reads its descriptors only.
    assert!(!routed_body(&s, "miopenConvolutionForwardGetWorkSpaceSize").contains(report), "{s}");
    // The report comes after MIOpen Private's call, with its status.
    let (call, rep) = (set.find("impls::miopenSetTensorThing_impl(").unwrap(), set.find(report).unwrap());
    assert!(call < rep, "{set}");
    syn::parse_file(&s).unwrap();
}

#[test]
fn a_create_that_does_not_return_a_status_is_refused() {
    let header = DESCRIPTOR_HEADER.replace(
        "miopenStatus_t miopenUseTensor",
        "int miopenOddCreate(miopenTensorDescriptor_t* d);\nmiopenStatus_t miopenUseTensor",
    );
    let (_dir, args) = args_in_tempdir(&header, &[], None);
    let e = run(&args).unwrap_err().to_string();
    assert!(e.contains("`miopenOddCreate` writes a watched descriptor through a pointer but returns `int`"), "{e}");
}
