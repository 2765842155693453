//! The C++ source edits of `miopen-wrap adopt` (src_patches/source-edits)
//! and `miopen-wrap source-edits` on a fixture logger written here (our own
//! minimal header, shaped like the lines the edits anchor on; no MIOpen
//! text): the edits, their idempotence, `--check`, a missing anchor, and the
//! `logger-compile` step with and without the edit; and the edits on the test
//! bed's logger, which has MIOpen's shape.
use std::path::Path;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_miopen-wrap");
const LOGGER: &str = "src/include/miopen/logger.hpp";

const LOGGER_OK: &str = r#"#pragma once
#include <iostream>
#include <string>
#include <string_view>

namespace miopen {

constexpr std::string_view LoggingParseFunction(const std::string_view func, const std::string_view pretty)
{
    return func.empty() ? pretty : func;
}

#define MIOPEN_GET_FN_NAME miopen::LoggingParseFunction(__func__, __PRETTY_FUNCTION__)

#define MIOPEN_LOG_FUNCTION(...)                                \
    do                                                          \
    {                                                           \
        std::cerr << __PRETTY_FUNCTION__ << "{" << "}" << "\n"; \
    } while(false)

#define MIOPEN_LOG_I(...)                                                  \
    do                                                                     \
    {                                                                      \
        std::cerr << MIOPEN_GET_FN_NAME << ": " << __VA_ARGS__ << "\n";    \
    } while(false)
#define MIOPEN_LOG_I2(...) MIOPEN_LOG_I(__VA_ARGS__)

} // namespace miopen
"#;

/// Every step but the source edits and the logger compile.
const OTHER_STEPS: &[&str] =
    &["rename", "rename-check", "generate", "typecheck", "stubs", "cmake-edits", "cmake-edits-check"];

fn tree_with_logger(root: &Path, logger: &str) {
    for (rel, text) in [(LOGGER, logger), ("include/miopen/miopen.h", "#pragma once\n")] {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
        std::fs::write(p, text).expect("write");
    }
}

fn run(args: &[&str], tree: &Path) -> (Output, String) {
    let out = Command::new(BIN).args(args).arg(tree).output().expect("run miopen-wrap");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out, text)
}

fn adopt(tree: &Path, work: &Path, extra: &[&str]) -> (Output, String) {
    let mut args = vec!["adopt", "--work-dir", work.to_str().expect("utf-8 path")];
    for s in OTHER_STEPS {
        args.extend(["--skip", s]);
    }
    args.extend(extra);
    run(&args, tree)
}

fn logger(tree: &Path) -> String {
    std::fs::read_to_string(tree.join(LOGGER)).expect("read logger")
}

#[test]
fn adopt_edits_the_logger_which_compiles_then_nothing_is_due() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let tree = tmp.path().join("fixture");
    tree_with_logger(&tree, LOGGER_OK);
    let (o, out) = adopt(&tree, &tmp.path().join("work"), &["--in-place", "--report", "json"]);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON report");
    assert_eq!(json["steps"]["logger-compile"]["status"], "ok", "{json}");
    assert_eq!(json["source_edits"]["changes"], 3, "helpers, the fn-name define, the function-call macro: {json}");
    let statuses: Vec<(&str, &str)> = json["source_edits"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|s| (s["id"].as_str().unwrap_or(""), s["status"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(
        statuses,
        [
            ("logger-public-name", "applied"),
            ("logger-fn-name", "applied"),
            ("logger-function-call", "applied"),
            ("logger-roctx-range", "absent")
        ]
    );
    let edited = logger(&tree);
    assert!(edited.contains("#define MIOPEN_GET_FN_NAME miopen::LoggingPublicName(miopen::LoggingParseFunction("));
    assert!(edited.contains("std::cerr << miopen::LoggingPublicSignature(__PRETTY_FUNCTION__) << \"{\""));
    assert!(
        edited.find("constexpr std::string_view LoggingPublicName(")
            < edited.find("constexpr std::string_view LoggingParseFunction(")
    );

    let (o, out) = adopt(&tree, &tmp.path().join("work2"), &["--in-place"]);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert_eq!(logger(&tree), edited, "second run: logger byte-identical");
    let (o, out) = adopt(&tree, &tmp.path().join("work3"), &["--check"]);
    assert_eq!(o.status.code(), Some(0), "--check after the edits: nothing due\n{out}");
}

#[test]
fn check_on_an_unedited_tree_fails_and_writes_nothing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let tree = tmp.path().join("fresh");
    tree_with_logger(&tree, LOGGER_OK);
    let (o, out) = adopt(&tree, &tmp.path().join("work"), &["--check", "--report", "json"]);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert_eq!(logger(&tree), LOGGER_OK);
    let json: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON report");
    assert_eq!(json["steps"]["source-edits-check"]["status"], "FAIL");
    assert_eq!(json["second_run"]["source_edits_changes_due"], 3, "{json}");
}

#[test]
fn a_missing_anchor_is_named_and_nothing_changes() {
    let cases = [
        (LOGGER_OK.replace("constexpr std::string_view LoggingParseFunction(", "inline auto Parse("), "0 lines start"),
        (LOGGER_OK.replace("#define MIOPEN_GET_FN_NAME ", "#define MIOPEN_FN_NAME "), "no `#define MIOPEN_GET_FN_NAME"),
        (
            LOGGER_OK.replace("<< __PRETTY_FUNCTION__ <<", "<< __func__ <<"),
            "`<< __PRETTY_FUNCTION__ <<` occurs 0 time(s) in #define MIOPEN_LOG_FUNCTION",
        ),
    ];
    for (i, (text, message)) in cases.iter().enumerate() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let tree = tmp.path().join("fixture");
        tree_with_logger(&tree, text);
        let (o, out) = adopt(&tree, &tmp.path().join("work"), &["--in-place", "--skip", "logger-compile"]);
        assert_eq!(o.status.code(), Some(1), "case {i}\n{out}");
        assert!(out.contains(message) && out.contains("nothing was changed"), "case {i}: `{message}`\n{out}");
        assert_eq!(&logger(&tree), text, "case {i}: logger unchanged");
        let (o, out) = run(&["source-edits", "--src-root"], &tree.join("src"));
        assert_eq!(o.status.code(), Some(1), "case {i}: source-edits fails the same way\n{out}");
        assert!(out.contains(message), "{out}");
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir_all(tmp.path().join("src")).expect("mkdir");
    let (o, out) = run(&["source-edits", "--src-root"], &tmp.path().join("src"));
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("anchor file src/include/miopen/logger.hpp not found"), "no logger.hpp: named\n{out}");
}

#[test]
fn logger_compile_fails_without_the_edit() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let tree = tmp.path().join("fixture");
    tree_with_logger(&tree, LOGGER_OK);
    let (o, out) = adopt(
        &tree,
        &tmp.path().join("work"),
        &["--in-place", "--skip", "source-edits", "--skip", "source-edits-check"],
    );
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("[FAIL] logger-compile") && out.contains("does not carry the logger edit"), "{out}");
}

#[test]
fn source_edits_command_edits_a_src_directory_once() {
    let tmp = tempfile::tempdir().expect("tempdir");
    tree_with_logger(tmp.path(), LOGGER_OK);
    let src = tmp.path().join("src");
    let (o, out) = run(&["source-edits", "--check", "--src-root"], &src);
    assert_eq!(o.status.code(), Some(1), "--check on an unedited directory\n{out}");
    assert_eq!(logger(tmp.path()), LOGGER_OK, "--check writes nothing");
    let (o, out) = run(&["source-edits", "--src-root"], &src);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("logger-fn-name") && out.contains("applied"), "{out}");
    let edited = logger(tmp.path());
    assert_ne!(edited, LOGGER_OK);
    let (o, out) = run(&["source-edits", "--check", "--src-root"], &src);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(!out.contains("due"), "{out}");
    assert_eq!(logger(tmp.path()), edited);
}

#[test]
fn source_edits_apply_to_the_test_beds_logger_once() {
    let bed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../test/mini-miopen/src/include/miopen/logger.hpp");
    let original = std::fs::read_to_string(&bed).expect("the test bed's logger (MIOpen's shape)");
    let tmp = tempfile::tempdir().expect("tempdir");
    tree_with_logger(tmp.path(), &original);
    let src = tmp.path().join("src");
    let (o, out) = run(&["source-edits", "--check", "--src-root"], &src);
    assert_eq!(o.status.code(), Some(1), "an edit is due on the unedited logger\n{out}");
    let (o, out) = run(&["source-edits", "--src-root"], &src);
    assert_eq!(o.status.code(), Some(0), "{out}");
    let edited = logger(tmp.path());
    assert!(edited.contains("LoggingPublicName") && edited != original);
    let (o, out) = run(&["source-edits", "--check", "--src-root"], &src);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(!out.contains("applied") && !out.contains("due"), "{out}");
    assert_eq!(logger(tmp.path()), edited);
}
