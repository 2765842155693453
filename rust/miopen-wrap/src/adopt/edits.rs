//! The CMake edits of the adoption, read from a data file
//! (`src_patches/cmake-edits.toml`: each edit's anchor, operation and why)
//! and applied by anchor with the CMake reader of [`super::cmake`].
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::cmake::{self, Command};
use crate::paths;

/// The edits built into the tool.
pub const BUILTIN_EDITS: &str = include_str!("../../../../src_patches/cmake-edits.toml");
/// Every line the edits add starts with this marker comment.
const MARK: &str = "# miopen-wrap:";

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EditsFile {
    targets: Targets,
    edit: Vec<EditSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Targets {
    public: String,
    private: String,
    proxy: String,
}

#[derive(Debug, Deserialize)]
struct EditSpec {
    id: String,
    /// For the maintainer reading the data file; not used by the tool.
    #[allow(dead_code)]
    why: String,
    #[serde(flatten)]
    operation: Operation,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "operation", rename_all = "kebab-case")]
enum Operation {
    RenameTarget { file: String, anchor: Anchor, target_commands: Vec<String> },
    ReplaceCommand { file: String, anchor: Anchor, text: String, applied_when: String },
    InsertBefore { file: String, anchor: Anchor, marker: String, text: String, applied_when: Option<String> },
    VerifyVersionScript { file: String, script: String },
    AddToTargetList { file: String, anchors: Vec<Anchor> },
    VerifyProxy { file: String },
    LinkItems { mode: LinkMode, files: Vec<String>, targets: String, absent: String },
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
enum LinkMode {
    Replace,
    Add,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum OneOrMany {
    One(String),
    Many(Vec<String>),
}

impl OneOrMany {
    fn as_slice(&self) -> &[String] {
        match self {
            OneOrMany::One(s) => std::slice::from_ref(s),
            OneOrMany::Many(v) => v,
        }
    }
}

/// A command: by name, first argument, and arguments it must have.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Anchor {
    command: OneOrMany,
    #[serde(default)]
    first_arg: Vec<String>,
    /// Values that must all be arguments.
    #[serde(default)]
    with: Vec<String>,
    /// Values of which one must be an argument.
    #[serde(default)]
    with_any: Vec<String>,
}

impl Anchor {
    fn matches(&self, c: &Command) -> bool {
        self.command.as_slice().iter().any(|n| n.eq_ignore_ascii_case(&c.name))
            && (self.first_arg.is_empty() || c.first_arg().is_some_and(|a| self.first_arg.iter().any(|f| f == a)))
            && self.with.iter().all(|w| c.has_value(w))
            && (self.with_any.is_empty() || self.with_any.iter().any(|w| c.has_value(w)))
    }

    /// `add_library(MIOpen ...)`, `rocm_install_targets(TARGETS MIOpen ...)`.
    fn describe(&self) -> String {
        let mut args: Vec<&str> = self.with.iter().map(String::as_str).collect();
        args.extend(self.first_arg.first().or(self.with_any.first()).map(String::as_str));
        format!("{}({} ...)", self.command.as_slice()[0], args.join(" "))
    }
}

/// The outcome of one edit in one file.
#[derive(Debug, Clone, Serialize)]
pub struct EditOutcome {
    pub id: String,
    pub file: String,
    /// applied | due | already | verified | absent
    pub status: &'static str,
    pub changes: usize,
    pub detail: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct EditsReport {
    pub tree: String,
    pub changes: usize,
    pub files_changed: usize,
    pub check_only: bool,
    pub steps: Vec<EditOutcome>,
}

#[derive(Debug)]
pub enum EditsError {
    /// The tree does not match: an anchor the edits need is missing.
    AnchorMissing(String),
    /// The edits data, a file, or the result could not be read or written.
    CouldNotRun(String),
}

impl std::fmt::Display for EditsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EditsError::AnchorMissing(m) | EditsError::CouldNotRun(m) => f.write_str(m),
        }
    }
}

pub fn parse_edits(text: &str, origin: &str) -> Result<EditsFile, EditsError> {
    toml::from_str(text).map_err(|e| EditsError::CouldNotRun(format!("{origin}: not a CMake edits file: {e}")))
}

struct Splice {
    start: usize,
    end: usize,
    text: String,
}

/// One CMake file of the tree, read, with the splices the edits want.
struct FileWork {
    text: String,
    commands: Vec<Command>,
    splices: Vec<Splice>,
}

impl FileWork {
    fn result(&self) -> String {
        let mut out = self.text.clone();
        let mut splices: Vec<&Splice> = self.splices.iter().collect();
        splices.sort_by_key(|s| (s.start, s.end));
        for s in splices.into_iter().rev() {
            out.replace_range(s.start..s.end, &s.text);
        }
        out
    }

    fn replace(&mut self, start: usize, end: usize, text: impl Into<String>) {
        self.splices.push(Splice { start, end, text: text.into() });
    }

    /// `block` on its own lines before the top-level statement holding command `index`.
    fn insert_before_statement(&mut self, index: usize, block: &str) {
        let top = cmake::enclosing_top_level(&self.commands, index).start;
        let at = cmake::line_start(&self.text, top);
        self.replace(at, at, format!("{block}\n"));
    }

    fn find(&self, pred: impl Fn(&Command) -> bool) -> Vec<usize> {
        self.commands.iter().enumerate().filter(|(_, c)| pred(c)).map(|(i, _)| i).collect()
    }
}

/// Applies the edits to one tree.
struct Editor<'a> {
    root: &'a Path,
    targets: &'a Targets,
    wrap_source_dir: String,
    files: BTreeMap<String, FileWork>,
    outcomes: Vec<EditOutcome>,
}

fn anchor_missing(what: String) -> EditsError {
    EditsError::AnchorMissing(what)
}

impl Editor<'_> {
    fn file(&mut self, rel: &str) -> Result<&mut FileWork, EditsError> {
        if !self.files.contains_key(rel) {
            let path = self.root.join(rel);
            if !path.is_file() {
                return Err(anchor_missing(format!("anchor file {rel} not found")));
            }
            let text = std::fs::read_to_string(&path)
                .map_err(|e| EditsError::CouldNotRun(format!("{}: {e}", path.display())))?;
            let commands = cmake::parse(&text)
                .map_err(|e| anchor_missing(format!("{rel} does not read as CMake before the edits: {e}")))?;
            self.files.insert(rel.to_string(), FileWork { text, commands, splices: Vec::new() });
        }
        Ok(self.files.get_mut(rel).expect("inserted above"))
    }

    fn fill(&self, text: &str) -> String {
        text.trim_start_matches('\n')
            .replace("{public}", &self.targets.public)
            .replace("{private}", &self.targets.private)
            .replace("{wrap_source_dir}", &self.wrap_source_dir)
    }

    fn outcome(&mut self, id: &str, file: &str, changes: usize, detail: impl Into<String>) {
        self.outcomes.push(EditOutcome {
            id: id.to_string(),
            file: file.to_string(),
            status: "",
            changes,
            detail: detail.into(),
        });
    }

    fn verified(&mut self, id: &str, file: &str, status: &'static str, detail: impl Into<String>) {
        self.outcome(id, file, 0, detail);
        self.outcomes.last_mut().expect("just pushed").status = status;
    }

    fn apply(&mut self, spec: &EditSpec) -> Result<(), EditsError> {
        let id = spec.id.as_str();
        match &spec.operation {
            Operation::RenameTarget { file, anchor, target_commands } => {
                self.rename_target(id, file, anchor, target_commands)
            }
            Operation::ReplaceCommand { file, anchor, text, applied_when } => {
                self.replace_command(id, file, anchor, text, applied_when)
            }
            Operation::InsertBefore { file, anchor, marker, text, applied_when } => {
                self.insert_before(id, file, anchor, marker, text, applied_when.as_deref())
            }
            Operation::VerifyVersionScript { file, script } => self.verify_version_script(id, file, script),
            Operation::AddToTargetList { file, anchors } => self.add_to_target_list(id, file, anchors),
            Operation::VerifyProxy { file } => self.verify_proxy(id, file),
            Operation::LinkItems { mode, files, targets, absent } => self.link_items(id, *mode, files, targets, absent),
        }
    }

    fn rename_target(&mut self, id: &str, rel: &str, anchor: &Anchor, commands: &[String]) -> Result<(), EditsError> {
        let (public, private) = (self.targets.public.clone(), self.targets.private.clone());
        let fw = self.file(rel)?;
        let sites = fw.find(|c| anchor.matches(c));
        if sites.is_empty() {
            return Err(anchor_missing(format!("anchor `{}` not found in {rel}", anchor.describe())));
        }
        let mut spans = Vec::new();
        for c in &fw.commands {
            spans.extend(target_arguments(c, commands).filter(|a| a.value == public).map(|a| (a.start, a.end)));
        }
        for &(s, e) in &spans {
            fw.replace(s, e, private.clone());
        }
        let detail = format!("{} add_library site(s); target commands follow the rename", sites.len());
        self.outcome(id, rel, spans.len(), detail);
        Ok(())
    }

    fn replace_command(
        &mut self,
        id: &str,
        rel: &str,
        anchor: &Anchor,
        text: &str,
        applied_when: &str,
    ) -> Result<(), EditsError> {
        let text = self.fill(text);
        let fw = self.file(rel)?;
        let sites = fw.find(|c| anchor.matches(c));
        if sites.is_empty() && fw.find(|c| c.name == applied_when).is_empty() {
            return Err(anchor_missing(format!("anchor `{}` not found in {rel}", anchor.describe())));
        }
        for &i in &sites {
            let (s, e) = (fw.commands[i].start, fw.commands[i].end);
            fw.replace(s, e, text.clone());
        }
        self.outcome(id, rel, sites.len(), text);
        Ok(())
    }

    fn insert_before(
        &mut self,
        id: &str,
        rel: &str,
        anchor: &Anchor,
        marker: &str,
        text: &str,
        applied_when: Option<&str>,
    ) -> Result<(), EditsError> {
        let block = self.fill(text);
        let fw = self.file(rel)?;
        let Some(&first) = fw.find(|c| anchor.matches(c)).first() else {
            return Err(anchor_missing(format!("anchor `{}` not found in {rel}", anchor.describe())));
        };
        let present = fw.text.contains(&format!("{MARK} {marker}"))
            || applied_when.is_some_and(|name| !fw.find(|c| c.name == name).is_empty());
        let changes = if present { keep_set_lines_current(fw, &block)? } else { 1 };
        if !present {
            fw.insert_before_statement(first, &block);
        }
        self.outcome(id, rel, changes, "");
        Ok(())
    }

    fn verify_version_script(&mut self, id: &str, rel: &str, script: &str) -> Result<(), EditsError> {
        let (public, private) = (self.targets.public.clone(), self.targets.private.clone());
        let fw = self.file(rel)?;
        let written = fw.find(|c| {
            c.name == "file"
                && c.first_arg() == Some("WRITE")
                && c.args.get(1).is_some_and(|a| a.value.ends_with(script))
        });
        if written.is_empty() {
            return Err(anchor_missing(format!(
                "anchor `file(WRITE .../{script} ...)` (version script) not found in {rel}"
            )));
        }
        let users = fw.find(|c| {
            matches!(c.name.as_str(), "target_link_libraries" | "target_link_options")
                && c.args.iter().any(|a| a.value.contains("--version-script") && a.value.contains(script))
        });
        if users.is_empty() {
            return Err(anchor_missing(format!(
                "anchor `target_link_libraries({public} ... --version-script=...{script})` not found in {rel}"
            )));
        }
        for &i in &users {
            let c = &fw.commands[i];
            if !c.first_arg().is_some_and(|t| t == public || t == private) {
                return Err(anchor_missing(format!(
                    "version script {script} is linked into `{}`, expected `{public}` (line {} of {rel})",
                    c.first_arg().unwrap_or(""),
                    c.line
                )));
            }
        }
        let detail = format!("{script} on {private} only; the wrapper links with the generated libMIOpen.map");
        self.verified(id, rel, "verified", detail);
        Ok(())
    }

    fn add_to_target_list(&mut self, id: &str, rel: &str, anchors: &[Anchor]) -> Result<(), EditsError> {
        let (public, private) = (self.targets.public.clone(), self.targets.private.clone());
        let fw = self.file(rel)?;
        let mut inserts = Vec::new();
        for anchor in anchors {
            let Some(&i) = fw.find(|c| anchor.matches(c)).first() else {
                return Err(anchor_missing(format!("anchor `{}` not found in {rel}", anchor.describe())));
            };
            let group = targets_group(&fw.commands[i]);
            let names: Vec<&str> = group.iter().map(|a| a.value.as_str()).collect();
            let Some(public_arg) = group.iter().find(|a| a.value == public) else {
                let c = &fw.commands[i];
                return Err(anchor_missing(format!(
                    "anchor `{}(TARGETS {public} ...)` not found in {rel} (line {} lists {names:?})",
                    c.name, c.line
                )));
            };
            if !names.contains(&private.as_str()) {
                inserts.push(public_arg.end);
            }
        }
        for &at in &inserts {
            fw.replace(at, at, format!(" {private}"));
        }
        self.outcome(id, rel, inserts.len(), format!("install and export carry {public} (wrapper) and {private}"));
        Ok(())
    }

    fn verify_proxy(&mut self, id: &str, rel: &str) -> Result<(), EditsError> {
        let (public, proxy) = (self.targets.public.clone(), self.targets.proxy.clone());
        let fw = self.file(rel)?;
        if fw.find(|c| c.name == "add_library" && c.first_arg() == Some(proxy.as_str())).is_empty() {
            self.verified(id, rel, "absent", format!("no {proxy} target in this tree"));
            return Ok(());
        }
        let links = fw.find(|c| {
            c.name == "target_link_libraries" && c.first_arg() == Some(proxy.as_str()) && c.has_value(&public)
        });
        if links.is_empty() {
            return Err(anchor_missing(format!(
                "anchor `target_link_libraries({proxy} INTERFACE {public})` not found in {rel}"
            )));
        }
        self.verified(id, rel, "verified", format!("{proxy} links {public} (now the wrapper), unchanged"));
        Ok(())
    }

    fn link_items(
        &mut self,
        id: &str,
        mode: LinkMode,
        files: &[String],
        targets: &str,
        absent: &str,
    ) -> Result<(), EditsError> {
        let target_glob = paths::SymbolGlobs::new(&[targets.to_string()]).map_err(EditsError::CouldNotRun)?;
        let file_globs = paths::RelativeGlobs::new(files).map_err(EditsError::CouldNotRun)?;
        let before = self.outcomes.len();
        for rel in self.cmake_files_matching(&file_globs)? {
            let t = self.targets;
            let text = std::fs::read_to_string(self.root.join(&rel)).unwrap_or_default();
            if !text.contains(&t.public) && !text.contains(&t.proxy) {
                continue;
            }
            let (public, private, proxy) = (t.public.clone(), t.private.clone(), t.proxy.clone());
            let fw = self.file(&rel)?;
            let mut seen = 0;
            let mut splices = Vec::new();
            for c in fw.commands.iter().filter(|c| c.name == "target_link_libraries") {
                let Some(target) = c.first_arg() else { continue };
                if [&public, &private, &proxy].iter().any(|t| *t == target) || !target_glob.matches(target) {
                    continue;
                }
                let items = &c.args[1..];
                let has = |name: &str| items.iter().any(|a| a.value == name);
                match mode {
                    LinkMode::Replace => {
                        if has(&public) || has(&private) {
                            seen += 1;
                        }
                        splices.extend(
                            items.iter().filter(|a| a.value == public).map(|a| (a.start, a.end, private.clone())),
                        );
                    }
                    LinkMode::Add => {
                        let Some(anchor) = items.iter().find(|a| a.value == public || a.value == proxy) else {
                            continue;
                        };
                        seen += 1;
                        if !has(&private) {
                            splices.push((anchor.end, anchor.end, format!(" {private}")));
                        }
                    }
                }
            }
            let changes = splices.len();
            for (s, e, text) in splices {
                fw.replace(s, e, text);
            }
            if seen > 0 || changes > 0 {
                self.outcome(id, &rel, changes, format!("{seen} link call(s)"));
            }
        }
        if self.outcomes.len() == before {
            let mut dirs: Vec<&str> = files.iter().map(|f| f.split('/').next().unwrap_or(f)).collect();
            dirs.dedup();
            self.verified(id, &format!("{}/", dirs.join("/, ")), "absent", absent);
        }
        Ok(())
    }

    /// CMake files of the tree (relative, sorted) that match `globs`.
    fn cmake_files_matching(&self, globs: &paths::RelativeGlobs) -> Result<Vec<String>, EditsError> {
        let entries = paths::walk_tree(self.root, |dir| dir.file_name().is_some_and(|n| n == ".git"))
            .map_err(|(p, e)| EditsError::CouldNotRun(format!("{}: {e}", p.display())))?;
        Ok(entries
            .into_iter()
            .filter(|e| e.file_type.is_file())
            .map(|e| paths::slash_path(&e.rel))
            .filter(|rel| globs.matches(rel))
            .collect())
    }
}

/// The arguments of `c` that name the target it configures.
fn target_arguments<'c>(c: &'c Command, target_first: &[String]) -> Box<dyn Iterator<Item = &'c cmake::Arg> + 'c> {
    let stop_at = |words: &'static [&'static str]| move |a: &&cmake::Arg| !words.contains(&a.value.as_str());
    match c.name.as_str() {
        n if target_first.iter().any(|t| t == n) => Box::new(c.args.iter().take(1)),
        "add_library" => Box::new(c.args.iter().take(1)),
        "set_target_properties" => Box::new(c.args.iter().take_while(stop_at(&["PROPERTIES"]))),
        "set_property" if c.first_arg() == Some("TARGET") => {
            Box::new(c.args.iter().skip(1).take_while(stop_at(&["PROPERTY", "APPEND", "APPEND_STRING"])))
        }
        "get_target_property" => Box::new(c.args.iter().skip(1).take(1)),
        _ => Box::new(std::iter::empty()),
    }
}

/// The names after `TARGETS`, up to the next keyword.
fn targets_group(c: &Command) -> Vec<&cmake::Arg> {
    let is_keyword = |v: &str| !v.is_empty() && v.chars().all(|ch| ch.is_ascii_uppercase() || ch == '_');
    let start = c.args.iter().position(|a| a.value == "TARGETS").map_or(c.args.len(), |i| i + 1);
    c.args[start..].iter().take_while(|a| !is_keyword(&a.value)).collect()
}

/// Already inserted: rewrite the block's `set(VAR ...)` lines whose current
/// text differs (the recorded repository path moved). Returns the changes.
fn keep_set_lines_current(fw: &mut FileWork, block: &str) -> Result<usize, EditsError> {
    let mut changes = 0;
    for line in block.lines().filter(|l| l.starts_with("set(")) {
        let wanted = cmake::parse(line).map_err(|e| EditsError::CouldNotRun(format!("edits data: `{line}`: {e}")))?;
        let Some(var) = wanted.first().and_then(|c| c.first_arg()) else { continue };
        let current = fw.find(|c| c.name == "set" && c.first_arg() == Some(var));
        if let Some(&i) = current.first() {
            let (s, e) = (fw.commands[i].start, fw.commands[i].end);
            if fw.text[s..e] != *line {
                fw.replace(s, e, line);
                changes += 1;
            }
        }
    }
    Ok(changes)
}

/// The edited text must still read as CMake: by the reader and, when
/// `cmake` is on PATH, by CMake's own parser. Returns who checked.
fn syntax_check(rel: &str, text: &str) -> Result<&'static str, EditsError> {
    let bug = |m: String| EditsError::CouldNotRun(format!("BUG: edited {rel} no longer reads as CMake: {m}"));
    cmake::parse(text).map_err(bug)?;
    let Ok(dir) = tempfile::tempdir() else { return Ok("reader") };
    let script = dir.path().join("parse_only.cmake");
    // CMake reads the whole file before running any of it; the body of a
    // never-taken if() is parsed and block-matched but not executed.
    std::fs::write(&script, format!("if(FALSE)\n{text}\nendif()\n"))
        .map_err(|e| EditsError::CouldNotRun(format!("{}: {e}", script.display())))?;
    match std::process::Command::new("cmake").arg("-P").arg(&script).output() {
        Err(_) => Ok("reader"),
        Ok(o) if o.status.success() => Ok("reader+cmake"),
        Ok(o) => Err(bug(String::from_utf8_lossy(&o.stderr).into_owned())),
    }
}

/// Apply (or with `check_only`, only compute) every edit on `root`. On a
/// missing anchor nothing is written.
pub fn apply(
    edits: &EditsFile,
    root: &Path,
    wrap_source_dir: &Path,
    check_only: bool,
) -> Result<(EditsReport, Vec<String>), EditsError> {
    let mut editor = Editor {
        root,
        targets: &edits.targets,
        wrap_source_dir: wrap_source_dir.display().to_string(),
        files: BTreeMap::new(),
        outcomes: Vec::new(),
    };
    for spec in &edits.edit {
        editor.apply(spec)?;
    }
    let mut written = Vec::new();
    for (rel, fw) in &editor.files {
        let new = fw.result();
        if new == fw.text {
            continue;
        }
        let how = syntax_check(rel, &new)?;
        written.push(format!("{rel} ({how})"));
        if !check_only {
            let path: PathBuf = root.join(rel);
            std::fs::write(&path, new).map_err(|e| EditsError::CouldNotRun(format!("{}: {e}", path.display())))?;
        }
    }
    for o in &mut editor.outcomes {
        if o.status.is_empty() {
            o.status = match (o.changes, check_only) {
                (0, _) => "already",
                (_, true) => "due",
                (_, false) => "applied",
            };
        }
    }
    let report = EditsReport {
        tree: root.display().to_string(),
        changes: editor.outcomes.iter().map(|o| o.changes).sum(),
        files_changed: written.len(),
        check_only,
        steps: editor.outcomes,
    };
    Ok((report, written))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_edits_parse_and_name_every_operation() {
        let edits = parse_edits(BUILTIN_EDITS, "built-in").expect("the built-in edits parse");
        let ids: Vec<&str> = edits.edit.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "library-target",
                "export-header",
                "wrap-include",
                "wrapper-target",
                "version-script",
                "install-export",
                "plugins-proxy",
                "ck-plugins",
                "internal-tests",
                "driver-transitional"
            ]
        );
        assert!(edits.edit.iter().all(|e| !e.why.trim().is_empty()), "every edit says why");
    }

    #[test]
    fn unknown_operation_is_rejected() {
        let bad = "[targets]\npublic='A'\nprivate='B'\nproxy='C'\n[[edit]]\nid='x'\nwhy='y'\noperation='frobnicate'\n";
        assert!(parse_edits(bad, "t").is_err());
    }
}
