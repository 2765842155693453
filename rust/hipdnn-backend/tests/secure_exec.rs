//! The search list of a process that really runs under secure execution:
//! this test binary, copied, owned by `nobody` and setuid, started by root
//! (real uid root, effective uid nobody: the kernel sets `AT_SECURE`).
//! Without root the setuid copy cannot be made and the test says so; the
//! simulated `getauxval` of `loader/tests.rs` runs everywhere.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

use hipdnn_backend::loader::{search_plan, SearchInputs, BACKEND_PATH_VAR};

const NOBODY: u32 = 65534;

/// Under the ASan build of the tests (docs/testing.md): LeakSanitizer cannot
/// inspect a setuid process, nor can the process read its options from the
/// environment, so this binary turns it off for itself (the sanitizer
/// runtime asks this function; without a sanitizer nothing calls it).
#[no_mangle]
pub extern "C" fn __lsan_is_turned_off() -> std::ffi::c_int {
    1
}

/// Run by the parent in the copy: prints what the process sees and plans.
#[test]
#[ignore = "the child half of secure_execution_process_searches_the_loader_alone"]
fn child_prints_its_search_plan() {
    let inputs = SearchInputs::from_process(Some("/opt/rocm/lib".into()));
    let plan = search_plan(&inputs);
    println!("AT_SECURE={}", u8::from(inputs.secure_execution));
    for c in &plan.candidates {
        println!("CANDIDATE {}: {}", c.source, c.path.display());
    }
}

fn run_copy(exe: &Path) -> String {
    let out = Command::new(exe)
        .args(["--ignored", "--exact", "child_prints_its_search_plan", "--nocapture", "--test-threads=1"])
        .env(BACKEND_PATH_VAR, "/env-dir")
        .output()
        .expect("the copy runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn candidates(out: &str) -> Vec<&str> {
    out.lines().filter_map(|l| l.strip_prefix("CANDIDATE ")).collect()
}

#[test]
fn secure_execution_process_searches_the_loader_alone() {
    // SAFETY: geteuid only reads the process's credentials.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: making a setuid copy needs root (the simulated AT_SECURE test still runs)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let exe = dir.path().join("secure-exec-child");
    std::fs::copy(std::env::current_exe().unwrap(), &exe).unwrap();

    // The negative control first: the same copy, not setuid, searches next to libMIOpen.so.
    let plain = run_copy(&exe);
    assert!(plain.contains("AT_SECURE=0"), "{plain}");
    assert_eq!(
        candidates(&plain),
        [
            "HIPDNN_BACKEND_LIBRARY_PATH: /env-dir/libhipdnn_backend.so",
            "libMIOpen.so directory: /opt/rocm/lib/libhipdnn_backend.so",
            "../lib64: /opt/rocm/lib64/libhipdnn_backend.so",
            "system loader: libhipdnn_backend.so"
        ]
    );

    std::os::unix::fs::chown(&exe, Some(NOBODY), None).unwrap();
    std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o4755)).unwrap();
    let secure = run_copy(&exe);
    assert!(secure.contains("AT_SECURE=1"), "the kernel did not set AT_SECURE for the setuid copy: {secure}");
    assert_eq!(candidates(&secure), ["system loader: libhipdnn_backend.so"], "{secure}");
}
