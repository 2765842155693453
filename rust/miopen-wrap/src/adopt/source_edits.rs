//! The C++ source edits of the adoption, read from data files
//! (`src_patches/source-edits/*.json`: the file, each edit's anchor and
//! replacement, and why) and applied by anchor, line by line.
//!
//! Kinds of edit:
//! - `insert_before_line`: `text` (lines) goes before the one line that
//!   starts with `anchor`; done when a line contains `done_if`;
//! - `wrap_define_body`: every `#define <macro> <body>` line becomes
//!   `#define <macro> <wrap>(<body>)`; at least one such line is needed;
//! - `replace_in_macro`: inside the definitions of `<macro>` (the `#define`
//!   line and its backslash continuations) the one occurrence of `from`
//!   becomes `to`; done when `to` is there. `optional`: a tree without
//!   `from` reports the edit absent instead of failing.
//!
//! A missing anchor fails the whole run and nothing is written; a second run
//! finds every edit done and changes nothing.
use std::path::{Path, PathBuf};

use clap::Args;
use serde::Deserialize;

use super::edits::{EditOutcome, EditsError, EditsReport};
use crate::exit::Exit;

/// The source edits built into the tool: (file name, JSON text).
pub const BUILTIN_SOURCE_EDITS: &[(&str, &str)] =
    &[("logger.json", include_str!("../../../../src_patches/source-edits/logger.json"))];

/// One data file: the edits of one file of a MIOpen tree.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourceEditsFile {
    /// Relative to the tree root (`src/include/miopen/logger.hpp`).
    file: String,
    /// For the maintainer reading the data file; not used by the tool.
    #[allow(dead_code)]
    why: String,
    edits: Vec<SourceEdit>,
}

#[derive(Debug, Deserialize)]
struct SourceEdit {
    id: String,
    #[allow(dead_code)]
    why: String,
    #[serde(flatten)]
    kind: EditKind,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
enum EditKind {
    InsertBeforeLine {
        anchor: String,
        done_if: String,
        text: Vec<String>,
    },
    WrapDefineBody {
        #[serde(rename = "macro")]
        macro_name: String,
        wrap: String,
    },
    ReplaceInMacro {
        #[serde(rename = "macro")]
        macro_name: String,
        from: String,
        to: String,
        #[serde(default)]
        optional: bool,
    },
}

/// What one edit did to the lines of its file.
enum Applied {
    Changes(usize),
    /// An optional edit whose anchor this tree does not have.
    Absent(String),
}

pub fn parse_source_edits(text: &str, origin: &str) -> Result<SourceEditsFile, EditsError> {
    serde_json::from_str(text).map_err(|e| EditsError::CouldNotRun(format!("{origin}: not a source edits file: {e}")))
}

/// The built-in source edits, or the `*.json` files of `dir`, sorted by name.
pub fn load_source_edits(dir: Option<&Path>) -> Result<Vec<SourceEditsFile>, EditsError> {
    let Some(dir) = dir else {
        return BUILTIN_SOURCE_EDITS.iter().map(|(name, text)| parse_source_edits(text, name)).collect();
    };
    let could_not_read = |e: std::io::Error| EditsError::CouldNotRun(format!("--source-edits {}: {e}", dir.display()));
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(could_not_read)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).map_err(could_not_read)?;
            parse_source_edits(&text, &p.display().to_string())
        })
        .collect()
}

/// Where the edits' files are: a whole tree (`file` relative to its root), or
/// a `src/` directory of its own (`file` is `src/<rest>`, found at
/// `<dir>/<rest>`; edits of files outside `src/` do not apply).
#[derive(Debug, Clone, Copy)]
pub enum EditRoot<'a> {
    Tree(&'a Path),
    SrcDir(&'a Path),
}

impl EditRoot<'_> {
    fn locate(self, file: &str) -> Option<PathBuf> {
        match self {
            EditRoot::Tree(root) => Some(root.join(file)),
            EditRoot::SrcDir(src) => file.strip_prefix("src/").map(|rest| src.join(rest)),
        }
    }

    fn path(self) -> &'static str {
        match self {
            EditRoot::Tree(_) => "tree",
            EditRoot::SrcDir(_) => "src/ directory",
        }
    }
}

/// Apply every file's edits (or, `check_only`, only count what is due).
/// Nothing is written unless every anchor is found.
pub fn apply_source_edits(
    specs: &[SourceEditsFile],
    root: EditRoot,
    check_only: bool,
) -> Result<EditsReport, EditsError> {
    let mut outcomes = Vec::new();
    let mut writes = Vec::new();
    for spec in specs {
        let Some(path) = root.locate(&spec.file) else { continue };
        let text = std::fs::read_to_string(&path).map_err(|_| {
            EditsError::AnchorMissing(format!("anchor file {} not found in the {}", spec.file, root.path()))
        })?;
        let mut lines: Vec<String> = text.split_inclusive('\n').map(str::to_string).collect();
        for edit in &spec.edits {
            let applied = edit.kind.apply(&mut lines, &spec.file)?;
            outcomes.push(outcome(&edit.id, &spec.file, applied, check_only));
        }
        let new = lines.concat();
        if new != text {
            writes.push((path, new));
        }
    }
    if !check_only {
        for (path, new) in &writes {
            std::fs::write(path, new).map_err(|e| EditsError::CouldNotRun(format!("{}: {e}", path.display())))?;
        }
    }
    let tree = match root {
        EditRoot::Tree(p) | EditRoot::SrcDir(p) => p.display().to_string(),
    };
    Ok(EditsReport {
        tree,
        changes: outcomes.iter().map(|o| o.changes).sum(),
        files_changed: writes.len(),
        check_only,
        steps: outcomes,
    })
}

fn outcome(id: &str, file: &str, applied: Applied, check_only: bool) -> EditOutcome {
    let (status, changes, detail) = match applied {
        Applied::Absent(detail) => ("absent", 0, detail),
        Applied::Changes(0) => ("already", 0, String::new()),
        Applied::Changes(n) => (if check_only { "due" } else { "applied" }, n, String::new()),
    };
    EditOutcome { id: id.to_string(), file: file.to_string(), status, changes, detail }
}

impl EditKind {
    fn apply(&self, lines: &mut Vec<String>, file: &str) -> Result<Applied, EditsError> {
        match self {
            EditKind::InsertBeforeLine { anchor, done_if, text } => {
                insert_before_line(lines, anchor, done_if, text, file)
            }
            EditKind::WrapDefineBody { macro_name, wrap } => wrap_define_body(lines, macro_name, wrap, file),
            EditKind::ReplaceInMacro { macro_name, from, to, optional } => {
                replace_in_macro(lines, macro_name, (from, to), *optional, file)
            }
        }
    }
}

fn insert_before_line(
    lines: &mut Vec<String>,
    anchor: &str,
    done_if: &str,
    text: &[String],
    file: &str,
) -> Result<Applied, EditsError> {
    if lines.iter().any(|l| l.contains(done_if)) {
        return Ok(Applied::Changes(0));
    }
    let at: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with(anchor)).collect();
    let [at] = at[..] else {
        return Err(EditsError::AnchorMissing(format!(
            "{file}: {} lines start with `{anchor}` (need exactly 1)",
            at.len()
        )));
    };
    lines.splice(at..at, text.iter().map(|t| format!("{t}\n")));
    Ok(Applied::Changes(1))
}

fn wrap_define_body(lines: &mut [String], macro_name: &str, wrap: &str, file: &str) -> Result<Applied, EditsError> {
    let head = format!("#define {macro_name} ");
    let found: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].starts_with(&head)).collect();
    if found.is_empty() {
        return Err(EditsError::AnchorMissing(format!("{file}: no `#define {macro_name} ...` line")));
    }
    let mut changed = 0;
    for i in found {
        let body = lines[i][head.len()..].trim_end_matches('\n');
        if !body.starts_with(&format!("{wrap}(")) {
            lines[i] = format!("{head}{wrap}({body})\n");
            changed += 1;
        }
    }
    Ok(Applied::Changes(changed))
}

fn replace_in_macro(
    lines: &mut [String],
    macro_name: &str,
    (from, to): (&str, &str),
    optional: bool,
    file: &str,
) -> Result<Applied, EditsError> {
    let inside: Vec<usize> = macro_definition_lines(lines, macro_name);
    if inside.iter().any(|&i| lines[i].contains(to)) {
        return Ok(Applied::Changes(0));
    }
    let hits: Vec<usize> = inside.into_iter().filter(|&i| lines[i].contains(from)).collect();
    if hits.is_empty() && optional {
        return Ok(Applied::Absent(format!("no `{from}` in #define {macro_name} in this tree")));
    }
    match hits[..] {
        [i] if lines[i].matches(from).count() == 1 => {
            lines[i] = lines[i].replace(from, to);
            Ok(Applied::Changes(1))
        }
        _ => Err(EditsError::AnchorMissing(format!(
            "{file}: `{from}` occurs {} time(s) in #define {macro_name} (need exactly 1)",
            hits.len()
        ))),
    }
}

/// The line indices of every definition of `macro_name` (function-like or
/// not): its `#define` line and the backslash continuations.
fn macro_definition_lines(lines: &[String], macro_name: &str) -> Vec<usize> {
    let head = format!("#define {macro_name}");
    let mut inside = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i].trim_start();
        let rest = line.strip_prefix(&head);
        let defines = rest.is_some_and(|r| r.starts_with('(') || r.starts_with(' ') || r.trim_end().is_empty());
        if !defines {
            i += 1;
            continue;
        }
        let mut j = i;
        while lines[j].trim_end().ends_with('\\') && j + 1 < lines.len() {
            j += 1;
        }
        inside.extend(i..=j);
        i = j + 1;
    }
    inside
}

#[derive(Debug, Args)]
#[command(
    long_about = "Apply the adoption's C++ source edits (src_patches/source-edits/*.json, the `source-edits` step of \
`miopen-wrap adopt`) to a MIOpen src/ directory of its own, such as a renamed copy: an edit of `src/<rest>` applies to \
<src-root>/<rest>. A second run changes nothing.",
    after_help = crate::exit::EXIT_STATUS_HELP
)]
pub struct SourceEditsArgs {
    /// The src/ directory to edit in place.
    #[arg(long, value_name = "DIR")]
    pub src_root: PathBuf,
    /// Change nothing: fail when an edit is still due.
    #[arg(long)]
    pub check: bool,
    /// Read the edits from the *.json files of this directory instead of the built-in ones.
    #[arg(long, value_name = "DIR")]
    pub edits: Option<PathBuf>,
}

pub fn cli(args: &SourceEditsArgs) -> Exit {
    let result = load_source_edits(args.edits.as_deref())
        .and_then(|specs| apply_source_edits(&specs, EditRoot::SrcDir(&args.src_root), args.check));
    match result {
        Ok(r) => {
            print!("{}", super::report::render_edits(&r));
            Exit::check(!(args.check && r.changes > 0))
        }
        Err(e @ EditsError::AnchorMissing(_)) => {
            eprintln!("miopen-wrap source-edits: {e}; nothing was changed");
            Exit::CheckFailed
        }
        Err(e) => {
            eprintln!("miopen-wrap source-edits: {e}");
            Exit::CouldNotRun
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.split_inclusive('\n').map(str::to_string).collect()
    }

    #[test]
    fn builtin_source_edits_parse_and_say_why() {
        let specs = load_source_edits(None).expect("the built-in source edits parse");
        assert!(!specs.is_empty());
        for s in &specs {
            assert!(!s.why.trim().is_empty() && s.edits.iter().all(|e| !e.why.trim().is_empty()), "{}", s.file);
        }
    }

    #[test]
    fn every_data_file_is_built_in() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../src_patches/source-edits");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .expect("src_patches/source-edits")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".json"))
            .collect();
        on_disk.sort();
        let built_in: Vec<&str> = BUILTIN_SOURCE_EDITS.iter().map(|(n, _)| *n).collect();
        assert_eq!(on_disk, built_in, "list every src_patches/source-edits/*.json in BUILTIN_SOURCE_EDITS");
    }

    #[test]
    fn unknown_kind_or_field_is_rejected() {
        let bad = r#"{"file": "a.hpp", "why": "w", "edits": [{"id": "x", "why": "y", "kind": "frobnicate"}]}"#;
        assert!(parse_source_edits(bad, "t").is_err());
        let edit = r#"{"id": "x", "why": "y", "kind": "wrap_define_body", "macro": "M", "wrap": "f""#;
        let good = format!(r#"{{"file": "a.hpp", "why": "w", "edits": [{edit}}}]}}"#);
        assert!(parse_source_edits(&good, "t").is_ok(), "{good}");
        let typo = format!(r#"{{"file": "a.hpp", "why": "w", "edits": [{edit}, "optinal": true}}]}}"#);
        assert!(parse_source_edits(&typo, "t").is_err(), "{typo}");
    }

    #[test]
    fn macro_definitions_include_continuations_and_not_longer_names() {
        let l = lines("#define M(x) a \\\n  b\nc\n#define MM 1\n  #define M 2\n#define M\n");
        assert_eq!(macro_definition_lines(&l, "M"), [0, 1, 4, 5]);
    }

    #[test]
    fn replace_in_macro_needs_exactly_one_occurrence() {
        let mut l = lines("#define M f(X) + f(X)\n");
        assert!(matches!(
            replace_in_macro(&mut l, "M", ("f(X)", "g(X)"), false, "t.hpp"),
            Err(EditsError::AnchorMissing(_))
        ));
        let mut l = lines("#define M f(X)\n");
        assert!(matches!(replace_in_macro(&mut l, "M", ("h", "g"), true, "t.hpp"), Ok(Applied::Absent(_))));
        assert!(matches!(replace_in_macro(&mut l, "M", ("f(X)", "g(X)"), false, "t.hpp"), Ok(Applied::Changes(1))));
        assert_eq!(l, ["#define M g(X)\n"]);
        assert!(matches!(replace_in_macro(&mut l, "M", ("f(X)", "g(X)"), false, "t.hpp"), Ok(Applied::Changes(0))));
    }

    #[test]
    fn wrap_define_body_wraps_once() {
        let mut l = lines("#define NAME __func__\n#define NAME __FUNCTION__");
        assert!(matches!(wrap_define_body(&mut l, "NAME", "pub", "t.hpp"), Ok(Applied::Changes(2))));
        assert_eq!(l, ["#define NAME pub(__func__)\n", "#define NAME pub(__FUNCTION__)\n"]);
        assert!(matches!(wrap_define_body(&mut l, "NAME", "pub", "t.hpp"), Ok(Applied::Changes(0))));
        assert!(wrap_define_body(&mut l, "OTHER", "pub", "t.hpp").is_err());
    }

    #[test]
    fn insert_before_line_needs_one_anchor_and_is_done_once() {
        let text = ["// added".to_string()];
        let mut l = lines("a\nanchor x\nb\n");
        assert!(matches!(insert_before_line(&mut l, "anchor", "// added", &text, "t"), Ok(Applied::Changes(1))));
        assert_eq!(l.concat(), "a\n// added\nanchor x\nb\n");
        assert!(matches!(insert_before_line(&mut l, "anchor", "// added", &text, "t"), Ok(Applied::Changes(0))));
        let mut twice = lines("anchor 1\nanchor 2\n");
        assert!(insert_before_line(&mut twice, "anchor", "// added", &text, "t").is_err());
    }
}
