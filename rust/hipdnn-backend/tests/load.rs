//! The loader against real shared libraries: tiny fake backends compiled
//! with `cc` into temporary directories. `cc` is required; without it these
//! tests fail rather than pass vacuously.

use std::ffi::{c_char, c_void, CStr};
use std::path::{Path, PathBuf};

mod common;

use hipdnn_backend::abi::{Descriptor, Handle};
use hipdnn_backend::api::PINNED_SYMBOLS;
use hipdnn_backend::loader::{self, Candidate, LoadError, Plan, SearchInputs, LIBRARY_NAME};

/// Each stub returns a distinct value so a miswired table entry shows.
const STUBS: &[(&str, &str)] = &[
    ("hipdnnCreate", "int hipdnnCreate(void** h) { *h = (void*)0x1234; return 101; }"),
    ("hipdnnDestroy", "int hipdnnDestroy(void* h) { return h == (void*)0x1234 ? 102 : -1; }"),
    ("hipdnnSetStream", "int hipdnnSetStream(void* h, void* s) { (void)h; return s == (void*)0x9 ? 103 : -1; }"),
    ("hipdnnGetStream", "int hipdnnGetStream(void* h, void** s) { (void)h; *s = (void*)0x5678; return 104; }"),
    (
        "hipdnnBackendCreateDescriptor",
        "int hipdnnBackendCreateDescriptor(int t, void** d) { *d = (void*)(intptr_t)t; return 105; }",
    ),
    ("hipdnnBackendDestroyDescriptor", "int hipdnnBackendDestroyDescriptor(void* d) { (void)d; return 106; }"),
    (
        "hipdnnBackendExecute",
        "int hipdnnBackendExecute(void* h, void* p, void* v) { (void)h; (void)p; (void)v; return 107; }",
    ),
    ("hipdnnBackendFinalize", "int hipdnnBackendFinalize(void* d) { (void)d; return 108; }"),
    (
        "hipdnnBackendGetAttribute",
        "int hipdnnBackendGetAttribute(void* d, int n, int t, int64_t r, int64_t* c, void* e) \
         { (void)d; (void)e; *c = n + t + r; return 109; }",
    ),
    (
        "hipdnnBackendSetAttribute",
        "int hipdnnBackendSetAttribute(void* d, int n, int t, int64_t c, const void* e) \
         { (void)d; (void)e; return (int)(n + t + c) == 1306 ? 110 : -1; }",
    ),
    ("hipdnnGetErrorString", "const char* hipdnnGetErrorString(int s) { return s == 2 ? \"bad param\" : \"?\"; }"),
    (
        "hipdnnGetLastErrorString",
        "void hipdnnGetLastErrorString(char* m, size_t n) { snprintf(m, n, \"last error\"); }",
    ),
];

/// Compiles a fake `libhipdnn_backend.so` into `dir`. `version` is a C
/// expression; `omit` names a pinned symbol to leave out.
fn fake_backend(dir: &Path, version: &str, omit: Option<&str>) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let mut src = String::from("#include <stddef.h>\n#include <stdint.h>\n#include <stdio.h>\n");
    for (name, body) in STUBS {
        if omit != Some(*name) {
            src += body;
            src += "\n";
        }
    }
    if omit != Some("hipdnnVersionString_ext") {
        src += &format!("const char* hipdnnVersionString_ext(void) {{ return {version}; }}\n");
    }
    common::compile_backend(dir, &src)
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

fn only_override(dir: &Path) -> SearchInputs {
    SearchInputs { override_dir: Some(dir.to_path_buf()), ..SearchInputs::default() }
}

fn plan_of(paths: &[&Path]) -> Plan {
    let candidates = paths.iter().map(|p| Candidate { source: "test", path: p.to_path_buf() }).collect();
    Plan { candidates, warnings: Vec::new() }
}

#[test]
fn loads_a_v1_backend_and_wires_every_entry_point() {
    let t = tmp();
    let lib = fake_backend(t.path(), "\"1.2.3.4\"", None);
    let b = loader::load(&only_override(t.path())).unwrap();
    assert_eq!(b.path, lib);
    assert_eq!(b.version.to_string(), "1.2.3.4");
    assert_eq!(PINNED_SYMBOLS.len(), STUBS.len() + 1);
    let a = b.api;
    // SAFETY: the fake backend's stubs have the pinned signatures.
    unsafe {
        let mut h: Handle = std::ptr::null_mut();
        assert_eq!((a.create)(&mut h), 101);
        assert_eq!((a.destroy)(h), 102);
        assert_eq!((a.set_stream)(h, 0x9 as *mut c_void), 103);
        let mut s: *mut c_void = std::ptr::null_mut();
        assert_eq!((a.get_stream)(h, &mut s), 104);
        assert_eq!(s as usize, 0x5678);
        let mut d: Descriptor = std::ptr::null_mut();
        assert_eq!((a.create_descriptor)(14, &mut d), 105);
        assert_eq!(d as usize, 14);
        assert_eq!((a.destroy_descriptor)(d), 106);
        assert_eq!((a.execute)(h, d, d), 107);
        assert_eq!((a.finalize)(d), 108);
        let mut n = 0i64;
        assert_eq!((a.get_attribute)(d, 1300, 3, 5, &mut n, std::ptr::null_mut()), 109);
        assert_eq!(n, 1308);
        assert_eq!((a.set_attribute)(d, 1300, 3, 3, std::ptr::null()), 110);
        assert_eq!(CStr::from_ptr((a.get_error_string)(2)).to_str().unwrap(), "bad param");
        let mut buf = [0 as c_char; 32];
        (a.get_last_error_string)(buf.as_mut_ptr(), buf.len());
        assert_eq!(CStr::from_ptr(buf.as_ptr()).to_str().unwrap(), "last error");
        assert_eq!(CStr::from_ptr((a.version_string)()).to_str().unwrap(), "1.2.3.4");
    }
}

#[test]
fn an_unverified_version_is_refused_naming_the_accepted_ones() {
    let t = tmp();
    let lib = fake_backend(t.path(), "\"2.0.0.0\"", None);
    match loader::load(&only_override(t.path())) {
        Err(e @ LoadError::Unverified { .. }) => {
            let LoadError::Unverified { path, version } = &e else { unreachable!() };
            assert_eq!((path, version.to_string().as_str()), (&lib, "2.0.0.0"));
            assert!(e.to_string().contains("it accepts 0.0.x to 0.4.x, 1.x"), "{e}");
        }
        other => panic!("expected Unverified, got {other:?}"),
    }
}

#[test]
fn the_real_version_forms_are_accepted() {
    for reported in ["1.2.3.9f3e2a1", "1.2.3.unknown", "0.4.0.ab12cd3", "1.0.0"] {
        let t = tmp();
        fake_backend(t.path(), &format!("\"{reported}\""), None);
        let b = loader::load(&only_override(t.path())).unwrap_or_else(|e| panic!("{reported}: {e}"));
        assert_eq!(b.version.to_string(), reported);
    }
}

#[test]
fn missing_symbol_is_named() {
    let t = tmp();
    let lib = fake_backend(t.path(), "\"1.0.0.0\"", Some("hipdnnBackendExecute"));
    let e = loader::load(&only_override(t.path())).unwrap_err();
    assert!(matches!(&e, LoadError::MissingSymbol { path, symbol: "hipdnnBackendExecute" } if *path == lib), "{e:?}");
    assert!(e.to_string().contains("does not export `hipdnnBackendExecute`"), "{e}");
}

#[test]
fn missing_version_function_is_a_missing_symbol() {
    let t = tmp();
    fake_backend(t.path(), "", Some("hipdnnVersionString_ext"));
    let e = loader::load(&only_override(t.path())).unwrap_err();
    assert!(matches!(e, LoadError::MissingSymbol { symbol: "hipdnnVersionString_ext", .. }), "{e:?}");
}

#[test]
fn garbage_version_is_bad() {
    let t = tmp();
    fake_backend(t.path(), "\"garbage\"", None);
    let e = loader::load(&only_override(t.path())).unwrap_err();
    assert!(matches!(&e, LoadError::BadVersion { version, .. } if version == "garbage"), "{e:?}");
}

#[test]
fn null_version_is_bad() {
    let t = tmp();
    fake_backend(t.path(), "NULL", None);
    let e = loader::load(&only_override(t.path())).unwrap_err();
    assert!(matches!(&e, LoadError::BadVersion { version, .. } if version.contains("NULL")), "{e:?}");
}

#[test]
fn not_found_lists_every_candidate() {
    let t = tmp();
    let a = t.path().join("a").join(LIBRARY_NAME);
    let b = t.path().join("b").join(LIBRARY_NAME);
    let bare = Path::new("libhipdnn_backend_no_such_library_for_tests.so");
    let e = loader::load_from(&plan_of(&[&a, &b, bare])).unwrap_err();
    let LoadError::NotFound { searched } = &e else { panic!("expected NotFound, got {e:?}") };
    assert_eq!(searched.len(), 3, "{searched:?}");
    assert_eq!(searched[0], format!("test: {} (no such file)", a.display()));
    assert_eq!(searched[1], format!("test: {} (no such file)", b.display()));
    assert!(searched[2].starts_with("test: libhipdnn_backend_no_such_library_for_tests.so ("), "{searched:?}");
    let m = e.to_string();
    assert!(m.contains(&a.display().to_string()) && m.contains(&b.display().to_string()), "{m}");
    assert!(m.contains("set HIPDNN_BACKEND_LIBRARY_PATH to the absolute directory that holds libhipdnn_backend.so"));
}

#[test]
fn an_unloadable_file_is_skipped_with_the_loader_error() {
    let t = tmp();
    let junk = t.path().join("junk").join(LIBRARY_NAME);
    std::fs::create_dir_all(junk.parent().unwrap()).unwrap();
    std::fs::write(&junk, "not an ELF file").unwrap();
    let good = fake_backend(&t.path().join("good"), "\"1.0.0.0\"", None);
    let b = loader::load_from(&plan_of(&[&junk, &good])).unwrap();
    assert_eq!(b.path, good);
    let e = loader::load_from(&plan_of(&[&junk])).unwrap_err();
    let LoadError::NotFound { searched } = e else { panic!() };
    assert!(searched[0].starts_with(&format!("test: {} (", junk.display())), "{searched:?}");
    assert!(!searched[0].ends_with("(no such file)"), "{searched:?}");
}

#[test]
fn first_openable_candidate_is_the_backend() {
    let t = tmp();
    let v2 = fake_backend(&t.path().join("v2"), "\"2.1.0.0\"", None);
    let v1 = fake_backend(&t.path().join("v1"), "\"1.1.0.0\"", None);
    let e = loader::load_from(&plan_of(&[&v2, &v1])).unwrap_err();
    assert!(matches!(&e, LoadError::Unverified { path, .. } if *path == v2), "{e:?}");
}

#[test]
fn env_directory_is_used() {
    let t = tmp();
    let lib = fake_backend(t.path(), "\"1.0.0.0\"", None);
    let inputs = SearchInputs { env_dir: Some(t.path().into()), ..SearchInputs::default() };
    let b = loader::load(&inputs).unwrap();
    assert_eq!(b.path, lib);
}

#[test]
fn override_beats_env_on_disk() {
    let t = tmp();
    let good = fake_backend(&t.path().join("override"), "\"1.0.0.0\"", None);
    fake_backend(&t.path().join("env"), "\"2.0.0.0\"", None);
    let inputs = SearchInputs {
        override_dir: Some(t.path().join("override")),
        env_dir: Some(t.path().join("env").into()),
        ..SearchInputs::default()
    };
    assert_eq!(loader::load(&inputs).unwrap().path, good);
}

#[test]
fn secure_execution_does_not_use_the_env_directory() {
    let t = tmp();
    let lib = fake_backend(t.path(), "\"1.0.0.0\"", None);
    let inputs = SearchInputs { secure_execution: true, env_dir: Some(t.path().into()), ..SearchInputs::default() };
    let plan = loader::search_plan(&inputs);
    assert!(plan.candidates.iter().all(|c| c.path != lib), "{plan:?}");
    if let Ok(b) = loader::load_from(&plan) {
        assert_ne!(b.path, lib);
    }
}

#[test]
fn module_directory_siblings_are_searched() {
    let t = tmp();
    let lib = fake_backend(&t.path().join("lib64"), "\"1.0.0.0\"", None);
    let inputs = SearchInputs { module_dir: Some(t.path().join("bin")), ..SearchInputs::default() };
    let plan = loader::search_plan(&inputs);
    let b = loader::load_from(&plan).unwrap();
    assert_eq!(b.path, lib);
    let c = plan.candidates.iter().find(|c| c.path == lib).unwrap();
    assert_eq!(c.source, "../lib64");
}

#[test]
fn module_directory_itself_is_searched_first() {
    let t = tmp();
    let lib = fake_backend(&t.path().join("lib"), "\"1.0.0.0\"", None);
    fake_backend(&t.path().join("lib64"), "\"2.0.0.0\"", None);
    let inputs = SearchInputs { module_dir: Some(t.path().join("lib")), ..SearchInputs::default() };
    assert_eq!(loader::load(&inputs).unwrap().path, lib);
}
