//! `miopen-wrap adopt --skip <other steps>` on fixture trees written here
//! (our own minimal CMake, shaped like the statements the edits anchor on; no
//! MIOpen text): the CMake edits, their idempotence, `--check`, and trees
//! whose anchors are missing.
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_miopen-wrap");

const SRC_OK: &str = r#"cmake_minimum_required(VERSION 3.20)
set(FIXTURE_SOURCES a.cpp b.cpp)
if(FIXTURE_OPTION)
    add_library( MIOpen ${FIXTURE_SOURCES} extra.cpp )
else()
    add_library( MIOpen ${FIXTURE_SOURCES} )
endif()
rocm_set_soversion(MIOpen 1.0)
target_include_directories(MIOpen PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src/include>)
miopen_generate_export_header(MIOpen)
set_target_properties(MIOpen PROPERTIES VISIBILITY_INLINES_HIDDEN 1)
add_library(MIOpen_with_plugins INTERFACE)
target_link_libraries(MIOpen_with_plugins INTERFACE MIOpen)
add_dependencies(MIOpen_with_plugins FixtureCKGroupedConv_gfx000)
if(NOT WIN32)
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/lib.def "FIXTURE_1 { global: fixture*; local: *; };")
    target_link_libraries(MIOpen PRIVATE "-Wl,--version-script=${CMAKE_CURRENT_BINARY_DIR}/lib.def")
endif()
# a comment that mentions add_library(MIOpen) must not count as an anchor
rocm_install_targets(
  TARGETS MIOpen
  INCLUDE ${PROJECT_SOURCE_DIR}/include
)
rocm_export_targets(
  TARGETS MIOpen
  DEPENDS PACKAGE hip
)
"#;

const CK_OK: &str = r#"foreach(arch gfx000)
    add_library(FixtureCKGroupedConv_${arch} SHARED plugin.cpp)
    target_link_libraries(FixtureCKGroupedConv_${arch} PRIVATE MIOpen fixture::ck)
endforeach()
"#;

const TEST_OK: &str = r#"function(fixture_add_test name)
    add_executable(${name} ${name}.cpp)
    target_link_libraries(${name} MIOpen_with_plugins fixture::gtest)
endfunction()
add_executable(public_only_test p.cpp)
target_link_libraries(public_only_test fixture::other)
"#;

/// The steps other than the CMake edits; these tests run the CMake edits alone.
const OTHER_STEPS: &[&str] = &[
    "rename",
    "rename-check",
    "generate",
    "typecheck",
    "stubs",
    "source-edits",
    "source-edits-check",
    "logger-compile",
];

fn write_tree(root: &Path, files: &[(&str, &str)]) {
    for (rel, text) in files {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
}

fn snapshot(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("read_dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.insert(
                    p.strip_prefix(root).expect("under root").to_path_buf(),
                    std::fs::read_to_string(&p).expect("read"),
                );
            }
        }
    }
    out
}

fn adopt(tree: &Path, work: &Path, extra: &[&str]) -> (Output, String) {
    let mut cmd = Command::new(BIN);
    cmd.arg("adopt").arg(tree).arg("--work-dir").arg(work).args(["--wrap-source-dir", "/fixture/wrap"]);
    for s in OTHER_STEPS {
        cmd.args(["--skip", s]);
    }
    let out = cmd.args(extra).output().expect("run miopen-wrap adopt");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out, text)
}

fn cmake_parses(text: &str, dir: &Path) -> Result<(), String> {
    let script = dir.join("parse_only.cmake");
    std::fs::write(&script, format!("if(FALSE)\n{text}\nendif()\n")).expect("write");
    let o = Command::new("cmake").arg("-P").arg(&script).output().map_err(|e| format!("cmake is required: {e}"))?;
    o.status.success().then_some(()).ok_or_else(|| String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn edits_apply_to_a_tree_with_every_anchor_then_nothing_is_due() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let tree = tmp.path().join("fixture");
    write_tree(
        &tree,
        &[("src/CMakeLists.txt", SRC_OK), ("src/ck_impl/CMakeLists.txt", CK_OK), ("test/CMakeLists.txt", TEST_OK)],
    );
    let (o, out) = adopt(&tree, &tmp.path().join("work"), &["--in-place"]);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let src = std::fs::read_to_string(tree.join("src/CMakeLists.txt")).expect("read");
    let ck = std::fs::read_to_string(tree.join("src/ck_impl/CMakeLists.txt")).expect("read");
    let tst = std::fs::read_to_string(tree.join("test/CMakeLists.txt")).expect("read");
    assert_eq!(src.matches("add_library( MIOpen_private").count(), 2, "both library sites renamed:\n{src}");
    for (needle, what) in [
        ("rocm_set_soversion(MIOpen_private 1.0)", "target commands follow"),
        ("set_target_properties(MIOpen_private PROPERTIES", "properties follow"),
        ("target_link_libraries(MIOpen_with_plugins INTERFACE MIOpen)", "proxy keeps linking MIOpen"),
        ("target_link_libraries(MIOpen_private PRIVATE \"-Wl,--version-script=", "lib.def stays on MIOpen_private"),
        ("miopen_wrap_private_export_header(MIOpen_private)", "export header call replaced"),
        ("miopen_wrap_adopt_wrapper(WRAPPER_TARGET MIOpen PRIVATE_TARGET MIOpen_private)", "wrapper created"),
        ("set(MIOPEN_WRAP_SOURCE_DIR \"/fixture/wrap\" CACHE PATH", "repository path recorded"),
        ("# a comment that mentions add_library(MIOpen) must not count", "comments untouched"),
    ] {
        assert!(src.contains(needle), "{what}: `{needle}` not in\n{src}");
    }
    assert_eq!(src.matches("TARGETS MIOpen MIOpen_private").count(), 2, "install and export carry both:\n{src}");
    assert!(
        src.find("miopen_wrap_adopt_wrapper").expect("wrapper") < src.find("rocm_install_targets").expect("install")
    );
    let include =
        src.find("include(${MIOPEN_WRAP_SOURCE_DIR}/src_patches/cmake/MIOpenWrapAdopt.cmake)").expect("include");
    assert!(
        include < src.find("if(FIXTURE_OPTION)").expect("if"),
        "helper included before the block holding add_library"
    );
    assert!(ck.contains("PRIVATE MIOpen_private fixture::ck"), "CK plugin links MIOpen_private:\n{ck}");
    assert!(tst.contains("target_link_libraries(${name} MIOpen_with_plugins MIOpen_private fixture::gtest)"), "{tst}");
    assert!(tst.contains("target_link_libraries(public_only_test fixture::other)"), "unrelated test untouched");
    for text in [&src, &ck, &tst] {
        cmake_parses(text, tmp.path()).unwrap_or_else(|e| panic!("cmake does not parse the result: {e}\n{text}"));
    }

    let after = snapshot(&tree);
    let (o, out) = adopt(&tree, &tmp.path().join("work2"), &["--in-place"]);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("already applied; nothing changed"), "{out}");
    assert_eq!(snapshot(&tree), after, "second run: tree byte-identical");
    let (o, out) = adopt(&tree, &tmp.path().join("work3"), &["--check"]);
    assert_eq!(o.status.code(), Some(0), "--check after the edits: nothing due\n{out}");
}

#[test]
fn check_on_an_unadopted_tree_fails_and_writes_nothing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let tree = tmp.path().join("fresh");
    write_tree(&tree, &[("src/CMakeLists.txt", SRC_OK)]);
    let before = snapshot(&tree);
    let (o, out) = adopt(&tree, &tmp.path().join("work"), &["--check", "--report", "json"]);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert_eq!(snapshot(&tree), before);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("--report json prints JSON");
    assert_eq!(json["ok"], false);
    assert_eq!(json["steps"]["cmake-edits-check"]["status"], "FAIL");
    assert!(json["second_run"]["cmake_edits_changes_due"].as_u64().unwrap_or(0) > 0, "{json}");
}

#[test]
fn a_missing_anchor_is_named_and_nothing_changes() {
    let cases = [
        (
            SRC_OK.replace("add_library( MIOpen", "add_library( SomethingElse"),
            "anchor `add_library(MIOpen ...)` not found in src/CMakeLists.txt",
        ),
        (
            SRC_OK.replace("rocm_install_targets(", "fixture_install_targets("),
            "anchor `rocm_install_targets(TARGETS MIOpen ...)` not found in src/CMakeLists.txt",
        ),
        (
            SRC_OK.replace("lib.def", "other.def"),
            "anchor `file(WRITE .../lib.def ...)` (version script) not found in src/CMakeLists.txt",
        ),
        (
            SRC_OK.replace("add_library( MIOpen ${FIXTURE_SOURCES} )", "add_library( MIOpen ${FIXTURE_SOURCES} "),
            "does not read as CMake",
        ),
    ];
    for (i, (text, message)) in cases.iter().enumerate() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let tree = tmp.path().join(format!("missing-{i}"));
        write_tree(&tree, &[("src/CMakeLists.txt", text)]);
        let before = snapshot(&tree);
        let (o, out) = adopt(&tree, &tmp.path().join("work"), &["--in-place"]);
        assert_eq!(o.status.code(), Some(1), "case {i}: a tree that does not match fails the step\n{out}");
        assert!(out.contains(message), "case {i}: names the anchor `{message}`\n{out}");
        assert!(out.contains("RESULT: FAIL"), "{out}");
        assert_eq!(snapshot(&tree), before, "case {i}: tree unchanged");
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    write_tree(tmp.path(), &[("t/include/placeholder.txt", "x\n")]);
    let (o, out) = adopt(&tmp.path().join("t"), &tmp.path().join("work"), &["--in-place"]);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("anchor file src/CMakeLists.txt not found"), "{out}");
}

#[test]
fn usage_errors_exit_2() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let o = Command::new(BIN).args(["adopt", "--skip", "renamee"]).arg(tmp.path()).output().expect("run");
    assert_eq!(o.status.code(), Some(2));
    let o = Command::new(BIN).arg("adopt").arg(tmp.path()).output().expect("run");
    assert_eq!(o.status.code(), Some(2), "not a MIOpen tree");
    assert!(String::from_utf8_lossy(&o.stderr).contains("is not a MIOpen tree"));
    let o = Command::new(BIN).args(["adopt", "--check", "--in-place"]).arg(tmp.path()).output().expect("run");
    assert_eq!(o.status.code(), Some(2), "--check and --in-place conflict");
}
