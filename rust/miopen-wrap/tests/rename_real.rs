//! `miopen-wrap rename` on a real MIOpen tree (project issue 6, rename part).
//!
//! Runs only when both are set (otherwise it passes as skipped):
//! - `MIOPEN_REAL_TREE`: a MIOpen checkout (with `include/miopen/miopen.h` and `src/`);
//! - `MIOPEN_REAL_INCLUDES`: `:`-separated include directories with stand-ins for the
//!   generated `miopen/config.h`, `miopen/export.h` and `<hip/hip_runtime_api.h>`.
//!
//! Optional expectations (checked when set): `MIOPEN_REAL_EXPECT_NAMES=256`,
//! `MIOPEN_REAL_EXPECT_BETA=42`.
//!
//! The tree is never modified: the rename runs in copy mode into a temporary
//! directory, then again (nothing may be rewritten), then `--check` on the copy.
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_miopen-wrap");

fn env_path(k: &str) -> Option<String> {
    std::env::var(k).ok().filter(|v| !v.is_empty())
}

#[test]
fn real_tree_rename() {
    let (Some(tree), Some(incs)) = (env_path("MIOPEN_REAL_TREE"), env_path("MIOPEN_REAL_INCLUDES")) else {
        eprintln!("skipped: set MIOPEN_REAL_TREE and MIOPEN_REAL_INCLUDES to run");
        return;
    };
    let tree = PathBuf::from(tree);
    let header = tree.join("include/miopen/miopen.h");
    let src = tree.join("src");
    let tmp = tempfile::TempDir::new().unwrap();
    let out = tmp.path().join("src");
    let mut base: Vec<String> = vec!["rename".into(), "--header".into(), header.display().to_string()];
    for d in incs.split(':').filter(|d| !d.is_empty()) {
        base.push("-I".into());
        base.push(d.into());
    }
    let run = |extra: &[&str]| {
        let o = Command::new(BIN).args(&base).args(extra).output().unwrap();
        eprintln!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        o
    };
    let json = |p: &Path| -> serde_json::Value { serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap() };

    let r1 = tmp.path().join("r1.json");
    let o =
        run(&["--source", src.to_str().unwrap(), "--output", out.to_str().unwrap(), "--report", r1.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let j = json(&r1);
    if let Some(n) = env_path("MIOPEN_REAL_EXPECT_NAMES") {
        assert_eq!(j["public_names"]["total"].to_string(), n);
    }
    if let Some(n) = env_path("MIOPEN_REAL_EXPECT_BETA") {
        assert_eq!(j["public_names"]["beta"].to_string(), n);
    }
    assert_eq!(j["collisions"].as_array().unwrap().len(), 0);
    assert_eq!(j["public_names_without_definition"].as_array().unwrap().len(), 0);
    let d = &j["definitions_renamed"];
    for style in ["extern_c", "extern_c_block", "bare"] {
        assert!(d[style].as_u64().unwrap() > 0, "no {style} definition renamed");
    }
    let surv: Vec<&str> = j["survivors"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert!(surv.contains(&"miopenHiddenSetConvolutionFindMode"), "{surv:?}");
    assert!(surv.contains(&"miopenHiddenGetConvolutionFindMode"), "{surv:?}");
    assert!(j["call_sites_renamed"].as_u64().unwrap() > 0);

    // Second copy-mode run: nothing rewritten.
    let r2 = tmp.path().join("r2.json");
    let o =
        run(&["--source", src.to_str().unwrap(), "--output", out.to_str().unwrap(), "--report", r2.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(json(&r2)["files_written"], 0);

    // The renamed copy is complete: nothing due, every occurrence already in _impl form.
    let r3 = tmp.path().join("r3.json");
    let o = run(&["--source", out.to_str().unwrap(), "--check", "--report", r3.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0));
    let j3 = json(&r3);
    let renamed = d["total"].as_u64().unwrap()
        + j["declarations_renamed"].as_u64().unwrap()
        + j["call_sites_renamed"].as_u64().unwrap();
    assert_eq!(j3["already_renamed_occurrences"].as_u64().unwrap(), renamed);
    assert_eq!(j3["left_alone_in_strings_comments"], j["left_alone_in_strings_comments"]);
    assert_eq!(j3["survivors"].as_array().unwrap().len(), surv.len());

    // Every generated declaration resolves against the unchanged public header.
    if Command::new("c++").arg("--version").output().map(|o| o.status.success()).unwrap_or(false) {
        let mut tu = String::from("#include <miopen/miopen.h>\n");
        let mut lines = std::collections::BTreeSet::new();
        for f in j["touched_files"].as_array().unwrap() {
            let text = std::fs::read_to_string(out.join(f.as_str().unwrap())).unwrap();
            for l in text.lines().filter(|l| l.starts_with("extern \"C\" decltype(")) {
                lines.insert(l.to_string());
            }
        }
        for l in lines {
            tu += &l;
            tu += "\n";
        }
        let f = tmp.path().join("blocks.cpp");
        std::fs::write(&f, tu).unwrap();
        let mut c = Command::new("c++");
        c.args(["-std=c++17", "-fsyntax-only", "-w", "-DMIOPEN_BETA_API=1"]).arg(&f);
        c.arg("-I").arg(tree.join("include"));
        for d in incs.split(':').filter(|d| !d.is_empty()) {
            c.arg("-I").arg(d);
        }
        let o = c.output().unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}
