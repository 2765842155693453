//! The search order and the loader's messages, without touching the filesystem.

use std::ffi::OsString;
use std::path::PathBuf;

use super::*;

fn inputs() -> SearchInputs {
    SearchInputs {
        secure_execution: false,
        override_dir: None,
        env_dir: None,
        module_dir: Some(PathBuf::from("/opt/rocm/lib/miopen")),
    }
}

fn sources(plan: &Plan) -> Vec<&'static str> {
    plan.candidates.iter().map(|c| c.source).collect()
}

fn paths(plan: &Plan) -> Vec<String> {
    plan.candidates.iter().map(|c| c.path.display().to_string()).collect()
}

#[test]
fn full_order_with_env() {
    let plan = search_plan(&SearchInputs { env_dir: Some("/env".into()), ..inputs() });
    assert_eq!(
        paths(&plan),
        [
            "/env/libhipdnn_backend.so",
            "/opt/rocm/lib/miopen/libhipdnn_backend.so",
            "/opt/rocm/lib/lib/libhipdnn_backend.so",
            "/opt/rocm/lib/lib64/libhipdnn_backend.so",
            "libhipdnn_backend.so",
        ]
    );
    assert_eq!(
        sources(&plan),
        ["HIPDNN_BACKEND_LIBRARY_PATH", "libMIOpen.so directory", "../lib", "../lib64", "system loader"]
    );
    assert!(plan.warnings.is_empty(), "{:?}", plan.warnings);
}

#[test]
fn override_beats_env() {
    let plan = search_plan(&SearchInputs {
        override_dir: Some("/ovr".into()),
        env_dir: Some("/env".into()),
        module_dir: None,
        ..inputs()
    });
    assert_eq!(paths(&plan), ["/ovr/libhipdnn_backend.so", "libhipdnn_backend.so"]);
    assert_eq!(sources(&plan), ["override", "system loader"]);
    assert_eq!(plan.warnings.len(), 1);
    assert!(plan.warnings[0].contains("HIPDNN_BACKEND_LIBRARY_PATH=`/env` is ignored"), "{:?}", plan.warnings);
}

#[test]
fn relative_override_is_ignored_and_env_used() {
    let plan = search_plan(&SearchInputs {
        override_dir: Some("ovr".into()),
        env_dir: Some("/env".into()),
        module_dir: None,
        ..inputs()
    });
    assert_eq!(sources(&plan), ["HIPDNN_BACKEND_LIBRARY_PATH", "system loader"]);
    assert!(plan.warnings[0].contains("`ovr` is not absolute"), "{:?}", plan.warnings);
}

#[test]
fn empty_env_warns_and_is_ignored() {
    let plan = search_plan(&SearchInputs { env_dir: Some(OsString::new()), ..inputs() });
    assert_eq!(sources(&plan), ["libMIOpen.so directory", "../lib", "../lib64", "system loader"]);
    assert_eq!(plan.warnings.len(), 1);
    assert!(plan.warnings[0].contains("set but empty"), "{:?}", plan.warnings);
}

#[test]
fn relative_env_warns_and_is_ignored() {
    let plan = search_plan(&SearchInputs { env_dir: Some("rel/dir".into()), ..inputs() });
    assert_eq!(sources(&plan), ["libMIOpen.so directory", "../lib", "../lib64", "system loader"]);
    assert_eq!(plan.warnings.len(), 1);
    assert!(plan.warnings[0].contains("`rel/dir` is not an absolute directory"), "{:?}", plan.warnings);
}

#[test]
fn secure_execution_ignores_env_and_every_computed_directory() {
    let plan = search_plan(&SearchInputs { secure_execution: true, env_dir: Some("/env".into()), ..inputs() });
    assert_eq!(sources(&plan), ["system loader"]);
    assert_eq!(plan.warnings.len(), 1);
    assert!(plan.warnings[0].contains("secure execution"), "{:?}", plan.warnings);
}

#[test]
fn a_simulated_at_secure_gives_the_loaders_search_alone() {
    let module = Some(PathBuf::from("/opt/rocm/lib/miopen"));
    let asked = std::cell::Cell::new(0);
    let secure = |kind| {
        asked.set(kind);
        u64::from(kind == libc::AT_SECURE)
    };
    let i = SearchInputs::from_auxv(module.clone(), secure);
    assert_eq!(asked.get(), libc::AT_SECURE);
    assert!(i.secure_execution);
    assert_eq!(paths(&search_plan(&i)), ["libhipdnn_backend.so"]);
    // The same process without AT_SECURE searches next to libMIOpen.so.
    let plain = SearchInputs::from_auxv(module, |_| 0);
    assert!(paths(&search_plan(&plain)).contains(&"/opt/rocm/lib/miopen/libhipdnn_backend.so".to_string()));
}

#[test]
fn secure_execution_keeps_programmatic_override() {
    let plan = search_plan(&SearchInputs {
        secure_execution: true,
        override_dir: Some("/ovr".into()),
        module_dir: None,
        ..inputs()
    });
    assert_eq!(sources(&plan), ["override", "system loader"]);
    assert!(plan.warnings.is_empty(), "{:?}", plan.warnings);
}

#[test]
fn secure_execution_without_env_is_silent() {
    let plan = search_plan(&SearchInputs { secure_execution: true, ..inputs() });
    assert!(plan.warnings.is_empty(), "{:?}", plan.warnings);
}

#[test]
fn unknown_module_dir_skips_its_tiers() {
    let plan = search_plan(&SearchInputs { module_dir: None, ..inputs() });
    assert_eq!(paths(&plan), ["libhipdnn_backend.so"]);
    assert!(plan.warnings.is_empty());
}

#[test]
fn relative_module_dir_skips_its_tiers_with_a_warning() {
    let plan = search_plan(&SearchInputs { module_dir: Some("build/lib".into()), ..inputs() });
    assert_eq!(sources(&plan), ["system loader"]);
    assert!(plan.warnings[0].contains("(`build/lib`) is relative"), "{:?}", plan.warnings);
}

#[test]
fn module_in_lib_does_not_repeat_itself() {
    let plan = search_plan(&SearchInputs { module_dir: Some("/opt/rocm/lib".into()), ..inputs() });
    assert_eq!(
        paths(&plan),
        ["/opt/rocm/lib/libhipdnn_backend.so", "/opt/rocm/lib64/libhipdnn_backend.so", "libhipdnn_backend.so"]
    );
    assert_eq!(sources(&plan), ["libMIOpen.so directory", "../lib64", "system loader"]);
}

#[test]
fn module_dir_ending_in_dotdot_keeps_it() {
    let plan = search_plan(&SearchInputs { module_dir: Some("/a/b/..".into()), ..inputs() });
    assert_eq!(plan.candidates[1].path, PathBuf::from("/a/b/../../lib/libhipdnn_backend.so"));
}

#[test]
fn module_dir_root() {
    let plan = search_plan(&SearchInputs { module_dir: Some("/".into()), ..inputs() });
    assert_eq!(plan.candidates[0].path, PathBuf::from("/libhipdnn_backend.so"));
    assert_eq!(plan.candidates[1].path, PathBuf::from("/../lib/libhipdnn_backend.so"));
}

#[test]
fn bare_name_is_always_last() {
    for i in [
        inputs(),
        SearchInputs::default(),
        SearchInputs { override_dir: Some("/o".into()), env_dir: Some("/e".into()), ..inputs() },
    ] {
        let plan = search_plan(&i);
        let last = plan.candidates.last().unwrap();
        assert_eq!((last.source, last.path.as_path()), ("system loader", std::path::Path::new(LIBRARY_NAME)));
        assert!(plan.candidates[..plan.candidates.len() - 1].iter().all(|c| c.path.is_absolute()));
    }
}

#[test]
fn from_process_reads_no_override() {
    let i = SearchInputs::from_process(Some("/m".into()));
    assert_eq!(i.override_dir, None);
    assert_eq!(i.module_dir, Some(PathBuf::from("/m")));
    assert_eq!(i.env_dir, std::env::var_os(BACKEND_PATH_VAR));
    assert!(!i.secure_execution, "the test runner is not setuid");
}

#[test]
fn messages_say_what_to_set() {
    let e = LoadError::NotFound { searched: vec!["a: /x (no such file)".into(), "b: y (nope)".into()] };
    let m = e.to_string();
    assert!(m.contains("a: /x (no such file); b: y (nope)"), "{m}");
    assert!(m.contains("set HIPDNN_BACKEND_LIBRARY_PATH to the absolute directory that holds libhipdnn_backend.so"));
    let version = crate::version::Version::parse("2.0.0.abc").unwrap();
    let e = LoadError::Unverified { path: "/p/libhipdnn_backend.so".into(), version: version.clone() };
    let m = e.to_string();
    assert!(m.contains("hipDNN version 2.0.0.abc") && m.contains("it accepts 0.0.x to 0.4.x, 1.x"), "{m}");
    let e = LoadError::AbiMismatch { path: "/p".into(), version, why: "type 18 differs".into() };
    let m = e.to_string();
    assert!(m.contains("(hipDNN version 2.0.0.abc) cannot be used: type 18 differs; set"), "{m}");
    let e = LoadError::MissingSymbol { path: "/p".into(), symbol: "hipdnnBackendExecute" };
    assert!(e.to_string().contains("does not export `hipdnnBackendExecute`"));
    let e = LoadError::BadVersion { path: "/p".into(), version: "garbage".into() };
    assert!(e.to_string().contains("version `garbage`, which is not MAJOR.MINOR.PATCH[.TWEAK]"));
}
