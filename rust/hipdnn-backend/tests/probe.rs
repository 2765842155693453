//! The generic probe against fake backends shaped like hipDNN revisions: the
//! pinned numbering, the older numbering (no pointwise; backward-data at 18,
//! a non-convolution at 19), `CONV_MODE` taken as INT64, and the extension
//! operation types renumbered. Each shape is one C preprocessor switch. The
//! lists probed here are the test's own (the wrapper's groups keep theirs):
//! one the loader runs at load, one run later on its own.

mod common;

use std::path::Path;

use hipdnn_backend::abi::{attr, attr_type, conv_mode, data_type, descriptor_type as ty, pointwise_mode};
use hipdnn_backend::loader::{self, Candidate, LoadError, Plan};
use hipdnn_backend::probe::{self, Probe};

/// A backend with every pinned symbol whose descriptor-type meanings and
/// attribute types follow `defines` (`OLD_NUMBERING`, `CONV_MODE_INT64`).
/// Descriptors are the type number cast to a pointer.
fn shaped_backend(dir: &Path, defines: &[&str]) -> std::path::PathBuf {
    let mut src: String = defines.iter().map(|d| format!("#define {d} 1\n")).collect();
    src += r#"
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
enum { OK = 0, BAD_PARAM = 2, NOT_SUPPORTED = 8 };
enum { T_DATA_TYPE = 1, T_INT64 = 3, T_CONV_MODE = 24, T_POINTWISE_MODE = 25 };
enum { K_NONE, K_CONV, K_POINTWISE, K_BN_INF, K_BN_TRAIN, K_BN_BWD };
static _Thread_local char last[64]; // per thread, as hipDNN's last error is
static int kind(intptr_t t) {
    switch (t) {
    case 15: case 16: return K_CONV;
#ifdef OLD_NUMBERING
    case 17: return K_NONE; /* BATCHNORM_INFERENCE */
    case 18: return K_CONV; /* convolution backward data */
    case 19: return K_NONE; /* sdpa forward */
#else
    case 18: return K_POINTWISE;
    case 19: return K_CONV;
#endif
#ifdef BN_OLD_NUMBERING
    case 20: return K_BN_INF; /* inference with variance, unnumbered enum */
#else
    case 20: return K_BN_BWD;
    case 21: return K_BN_INF;
    case 27: return K_BN_TRAIN;
#endif
    default: return -1;
    }
}
int hipdnnBackendCreateDescriptor(int t, void** d) {
    if (kind(t) < 0) return NOT_SUPPORTED;
    *d = (void*)(intptr_t)t;
    return OK;
}
int hipdnnBackendSetAttribute(void* d, int n, int t, int64_t c, const void* e) {
    int k = kind((intptr_t)d);
    (void)c; (void)e;
    snprintf(last, sizeof last, "set %d on %d", n, (int)(intptr_t)d);
    if (n == 1501 && k == K_CONV) {
#ifdef CONV_MODE_INT64
        return t == T_INT64 ? OK : BAD_PARAM;
#else
        return t == T_CONV_MODE ? OK : BAD_PARAM;
#endif
    }
    if (n == 2300 && k == K_POINTWISE) return t == T_POINTWISE_MODE ? OK : BAD_PARAM;
    if ((n == 1907 && k == K_BN_INF) || (n == 2912 && k == K_BN_TRAIN) || (n == 2100 && k == K_BN_BWD))
        return t == T_DATA_TYPE ? OK : BAD_PARAM;
    return NOT_SUPPORTED;
}
int hipdnnBackendDestroyDescriptor(void* d) { (void)d; return OK; }
void hipdnnGetLastErrorString(char* m, size_t n) { snprintf(m, n, "%s", last); last[0] = 0; }
const char* hipdnnVersionString_ext(void) { return "0.4.0.ab12cd3"; }
int hipdnnCreate(void** h) { (void)h; return OK; }
int hipdnnDestroy(void* h) { (void)h; return OK; }
int hipdnnSetStream(void* h, void* s) { (void)h; (void)s; return OK; }
int hipdnnGetStream(void* h, void** s) { (void)h; (void)s; return OK; }
int hipdnnBackendExecute(void* h, void* p, void* v) { (void)h; (void)p; (void)v; return OK; }
int hipdnnBackendFinalize(void* d) { (void)d; return OK; }
int hipdnnBackendGetAttribute(void* d, int n, int t, int64_t r, int64_t* c, void* e)
    { (void)d; (void)n; (void)t; (void)r; (void)c; (void)e; return OK; }
const char* hipdnnGetErrorString(int s) { (void)s; return "?"; }
const char* last_error_for_tests(void) { return last; }
"#;
    common::compile_backend(dir, &src)
}

/// One probe: the attribute (and its type) set on a fresh descriptor.
const fn probe(
    descriptor: (i32, &'static str),
    attribute: (i32, &'static str),
    ty: (i32, &'static str),
    value: i32,
) -> Probe {
    Probe {
        descriptor: descriptor.0,
        descriptor_name: descriptor.1,
        attribute: attribute.0,
        attribute_name: attribute.1,
        attribute_type: ty.0,
        attribute_type_name: ty.1,
        value,
    }
}

/// Probed at load: a convolution type numbered alike in every revision,
/// one renumbered (backward data) and the pointwise type the older lacks.
const AT_LOAD: [Probe; 3] = {
    let conv_mode = (attr::CONVOLUTION_CONV_MODE, "CONVOLUTION_CONV_MODE");
    let mode_type = (attr_type::CONVOLUTION_MODE, "HIPDNN_TYPE_CONVOLUTION_MODE");
    [
        probe(
            (ty::OPERATION_CONVOLUTION_FORWARD, "OPERATION_CONVOLUTION_FORWARD"),
            conv_mode,
            mode_type,
            conv_mode::CROSS_CORRELATION,
        ),
        probe(
            (ty::OPERATION_CONVOLUTION_BACKWARD_DATA, "OPERATION_CONVOLUTION_BACKWARD_DATA"),
            conv_mode,
            mode_type,
            conv_mode::CROSS_CORRELATION,
        ),
        probe(
            (ty::OPERATION_POINTWISE, "OPERATION_POINTWISE"),
            (attr::POINTWISE_MODE, "POINTWISE_MODE"),
            (attr_type::POINTWISE_MODE, "HIPDNN_TYPE_POINTWISE_MODE"),
            pointwise_mode::RELU_FWD,
        ),
    ]
};

/// Probed later, on its own: two extension operation types.
const LATER: [Probe; 2] = {
    let float = (attr_type::DATA_TYPE, "HIPDNN_TYPE_DATA_TYPE");
    [
        probe(
            (ty::OPERATION_BATCHNORM_EXT, "OPERATION_BATCHNORM_EXT"),
            (attr::BATCHNORM_COMP_TYPE_EXT, "BATCHNORM_COMP_TYPE_EXT"),
            float,
            data_type::FLOAT,
        ),
        probe(
            (ty::OPERATION_BATCHNORM_BACKWARD_EXT, "OPERATION_BATCHNORM_BACKWARD_EXT"),
            (attr::BATCHNORM_BACKWARD_COMP_TYPE_EXT, "BATCHNORM_BACKWARD_COMP_TYPE_EXT"),
            float,
            data_type::FLOAT,
        ),
    ]
};

fn at_load() -> Vec<&'static Probe> {
    AT_LOAD.iter().collect()
}

fn open_with(defines: &[&str], probes: &[&Probe]) -> Result<loader::Backend, LoadError> {
    let t = tempfile::tempdir().unwrap();
    let lib = shaped_backend(t.path(), defines);
    let plan = Plan { candidates: vec![Candidate { source: "test", path: lib }], warnings: Vec::new() };
    let b = loader::open(&plan, probes);
    // The library stays mapped while `b` lives; the directory is kept (not
    // leaked: LeakSanitizer runs these tests).
    let _kept = t.keep();
    b
}

fn open(defines: &[&str]) -> Result<loader::Backend, LoadError> {
    open_with(defines, &at_load())
}

fn mismatch(defines: &[&str]) -> String {
    match open(defines) {
        Err(e @ LoadError::AbiMismatch { .. }) => e.to_string(),
        other => panic!("{defines:?}: expected AbiMismatch, got {other:?}"),
    }
}

#[test]
fn the_pinned_revision_passes() {
    let b = open(&[]).unwrap();
    assert_eq!(b.version.to_string(), "0.4.0.ab12cd3");
    assert_eq!(probe::probe(&b.api, &LATER), Ok(()));
    assert_eq!(probe::probe(&b.api, []), Ok(()), "an empty list has nothing to fail");
}

#[test]
fn a_list_probed_later_fails_on_its_own_and_the_load_still_passes() {
    // The load list's types are the pinned ones: the backend loads; the
    // later list names each of its types that differs once.
    let b = open(&["BN_OLD_NUMBERING"]).expect("the load list passes");
    let m = probe::probe(&b.api, &LATER).expect_err("the later types differ");
    assert!(m.contains("its ABI differs from the one the wrapper pins"), "{m}");
    assert!(m.contains("descriptor type 27 (OPERATION_BATCHNORM_EXT) cannot be created"), "{m}");
    assert!(m.contains("descriptor type 20 does not take BATCHNORM_BACKWARD_COMP_TYPE_EXT (2100)"), "{m}");
    // The same list given to the loader makes the load fail.
    let all: Vec<&Probe> = AT_LOAD.iter().chain(&LATER).collect();
    match open_with(&["BN_OLD_NUMBERING"], &all) {
        Err(e @ LoadError::AbiMismatch { .. }) => assert!(e.to_string().contains("(2100)"), "{e}"),
        other => panic!("expected AbiMismatch, got {other:?}"),
    }
    // Without a list the loader probes nothing.
    assert!(open_with(&["OLD_NUMBERING"], &[]).is_ok());
}

#[test]
fn the_older_numbering_is_one_diagnostic_naming_both_types() {
    let m = mismatch(&["OLD_NUMBERING"]);
    assert!(m.contains("its ABI differs from the one the wrapper pins"), "{m}");
    assert!(m.contains("descriptor type 19 does not take CONVOLUTION_CONV_MODE (1501)"), "{m}");
    assert!(m.contains("as the pinned OPERATION_CONVOLUTION_BACKWARD_DATA does"), "{m}");
    assert!(m.contains("descriptor type 18 does not take POINTWISE_MODE (2300)"), "{m}");
    assert!(!m.contains("descriptor type 15"), "type 15 means the same in both: {m}");
    assert!(m.contains("0.4.0.ab12cd3") && m.contains("docs/hipdnn-compatibility.md"), "{m}");
}

#[test]
fn conv_mode_as_int64_is_one_diagnostic_naming_the_type() {
    let m = mismatch(&["CONV_MODE_INT64"]);
    for t in [15, 19] {
        assert!(m.contains(&format!("descriptor type {t} does not take CONVOLUTION_CONV_MODE (1501) as HIPDNN_TYPE_CONVOLUTION_MODE (HIPDNN_STATUS_BAD_PARAM)")), "{t}: {m}");
    }
    assert!(!m.contains("POINTWISE"), "{m}");
}

#[test]
fn the_probe_leaves_no_error_message_behind() {
    // A failed probe left a message; a passing one must not either (the
    // fake records one for every set, failed or not).
    let b = open(&[]).unwrap();
    let mut buf = [1 as std::ffi::c_char; 8];
    // SAFETY: our buffer; the fake's last-error function has the pinned signature.
    unsafe { (b.api.get_last_error_string)(buf.as_mut_ptr(), buf.len()) };
    assert_eq!(buf[0], 0, "the probe's last set is still the backend's last error");
}
