use std::path::Path;
use std::process::Command;

use crate::model::tests::small;
use crate::Abi;

#[test]
fn include_guards_follow_the_file_name() {
    assert_eq!(super::include_guard("HipdnnStatus.h"), "MINI_HIPDNN_STATUS_H");
    assert_eq!(super::include_guard("HipdnnBackendAttributeName.h"), "MINI_HIPDNN_BACKEND_ATTRIBUTE_NAME_H");
}

#[test]
fn every_value_is_declared_with_its_c_name() {
    let headers = super::render(&small());
    let names: Vec<&str> = headers.iter().map(|(f, _)| f.as_str()).collect();
    assert_eq!(names, ["HipdnnThing.h", "HipdnnOther.h", "HipdnnLimits.h"]);
    let thing = &headers[0].1;
    let want = "typedef enum\n{\n    HIPDNN_NO_THING_EXT = 0,\n\n    /* the first */\n    HIPDNN_ONE_THING = 1,\n    \
                HIPDNN_TWO_THING_EXT = 2 /* an extension; HipdnnThing.h @89abcdef (fork) */\n} hipdnnThing_t;\n";
    assert!(thing.contains(want), "{thing}");
    assert!(thing.contains("Numbers as hipDNN's backend/include/HipdnnThing.h @0123abcd."), "{thing}");
    assert!(headers[2].1.contains("#define HIPDNN_LIMIT 64\n"), "{}", headers[2].1);
}

/// Compiles `source` (which includes the headers in `dir`) with `compiler`
/// and `flags`; these tests need `cc` and `c++` and fail without them.
fn compiles(compiler: &str, flags: &[&str], dir: &Path, source: &str) -> Result<(), String> {
    let file = dir.join(if compiler == "cc" { "check.c" } else { "check.cpp" });
    std::fs::write(&file, source).unwrap();
    let out = Command::new(compiler)
        .args(flags)
        .args(["-fsyntax-only", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(dir)
        .arg(&file)
        .output()
        .unwrap_or_else(|e| panic!("this test needs `{compiler}` on PATH: {e}"));
    out.status.success().then_some(()).ok_or_else(|| String::from_utf8_lossy(&out.stderr).into_owned())
}

/// A C file that includes every header twice (the guards) and checks each
/// value's number at compile time.
fn value_checks(abi: &Abi) -> String {
    let mut src = String::new();
    for h in abi.headers() {
        src += &format!("#include \"{h}\"\n#include \"{h}\"\n");
    }
    for e in &abi.enums {
        for v in &e.values {
            src += &format!("typedef char check_{0}[({0} == {1}) ? 1 : -1];\n", e.c_name(v), v.value);
        }
    }
    for d in &abi.defines {
        src += &format!("typedef char check_{0}[({0} == {1}) ? 1 : -1];\n", d.name, d.value);
    }
    src
}

#[test]
fn the_real_headers_compile_as_c99_and_cxx17_with_the_data_numbers() {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hipdnn-backend/abi.toml");
    let abi = Abi::load(&data).unwrap();
    let dir = tempfile::tempdir().unwrap();
    super::write(&abi, dir.path()).unwrap();
    let checks = value_checks(&abi);
    compiles("cc", &["-std=c99", "-pedantic-errors"], dir.path(), &checks).unwrap();
    compiles("c++", &["-std=c++17", "-pedantic-errors"], dir.path(), &checks).unwrap();
}

#[test]
fn a_header_from_a_renumbered_copy_fails_the_old_numbers() {
    // Negative control of the test above: the checks written for the data
    // file do not compile against headers made from a changed copy.
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hipdnn-backend/abi.toml");
    let abi = Abi::load(&data).unwrap();
    let mut copy = abi.clone();
    copy.renumber("HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR", 23).unwrap();
    let dir = tempfile::tempdir().unwrap();
    super::write(&copy, dir.path()).unwrap();
    let err = compiles("cc", &["-std=c99"], dir.path(), &value_checks(&abi)).unwrap_err();
    assert!(err.contains("check_HIPDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR"), "{err}");
}

#[test]
fn an_unchanged_header_is_not_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let paths = super::write(&small(), dir.path()).unwrap();
    let before = std::fs::metadata(&paths[0]).unwrap().modified().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(20));
    super::write(&small(), dir.path()).unwrap();
    assert_eq!(std::fs::metadata(&paths[0]).unwrap().modified().unwrap(), before);
    let mut changed = small();
    changed.renumber("HIPDNN_ONE_THING", 9).unwrap();
    super::write(&changed, dir.path()).unwrap();
    assert!(std::fs::read_to_string(&paths[0]).unwrap().contains("HIPDNN_ONE_THING = 9"));
}
