//! The rename across a tree: walk it, tokenize and scan the implementation
//! files, find survivors and collisions, compute each file's new text, and
//! write what changed.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::lex::{self, Kind};
use super::report::{self, Report};
use super::scan::{self, DeclKind, Linkage, Scan, BLOCK_BEGIN, BLOCK_END};
use super::{io_err, Mode, Options, RenameError};
use crate::paths::{self, PathFilter};

const FN_NAME_KEYWORDS: &[&str] = &["__func__", "__FUNCTION__", "__PRETTY_FUNCTION__"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    /// An implementation file (by extension) to rename.
    Source,
    /// The public header itself (inside the tree): never modified.
    Header,
    /// Matched an `--exclude`: copied unchanged in copy mode.
    Excluded,
    /// Any other file: copied unchanged in copy mode.
    Other,
    Symlink,
}

#[derive(Debug)]
pub struct Entry {
    /// Relative to the source tree.
    pub rel: PathBuf,
    pub abs: PathBuf,
    pub kind: EntryKind,
    /// New content when the rename changes the file.
    pub new_content: Option<Vec<u8>>,
}

#[derive(Debug, Default)]
pub struct Tree {
    pub entries: Vec<Entry>,
}

/// Walk the source tree and classify every file: the header (or a
/// byte-identical copy of it), excluded, an implementation source, other,
/// or a symlink. Copy mode's output directory is left out when it lies
/// inside the source tree.
pub fn walk(opts: &Options) -> Result<Tree, RenameError> {
    let header = opts.header.canonicalize().map_err(io_err(&opts.header))?;
    let header_text = std::fs::read(&header).map_err(io_err(&header))?;
    let excludes = PathFilter::new(&opts.excludes).map_err(RenameError::Usage)?;
    let output_dir = match &opts.mode {
        Mode::Copy(o) => o.canonicalize().ok(),
        _ => None,
    };
    let in_output = |dir: &Path| output_dir.as_ref().is_some_and(|o| dir.canonicalize().is_ok_and(|c| &c == o));
    let files = paths::walk_tree(&opts.source, in_output).map_err(|(path, source)| RenameError::Io { path, source })?;
    let mut tree = Tree::default();
    for f in files {
        let kind = classify(opts, &f, &header, &header_text, &excludes);
        tree.entries.push(Entry { rel: f.rel, abs: f.abs, kind, new_content: None });
    }
    tree.entries.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(tree)
}

fn classify(
    opts: &Options,
    f: &paths::TreeEntry,
    header: &Path,
    header_text: &[u8],
    excludes: &PathFilter,
) -> EntryKind {
    // A byte-identical copy of the header inside the tree is the header too.
    let is_header_copy = || {
        std::fs::metadata(&f.abs).is_ok_and(|m| m.len() == header_text.len() as u64)
            && std::fs::read(&f.abs).is_ok_and(|c| c == header_text)
    };
    if f.file_type.is_symlink() {
        EntryKind::Symlink
    } else if f.abs.canonicalize().is_ok_and(|c| c == header) || is_header_copy() {
        EntryKind::Header
    } else if excludes.covers(&paths::slash_path(&f.rel), &f.abs) {
        EntryKind::Excluded
    } else if is_source_name(&f.abs.file_name().unwrap_or_default().to_string_lossy(), &opts.extensions) {
        EntryKind::Source
    } else {
        EntryKind::Other
    }
}

/// `foo.cpp` for extension `cpp`; also a configure template `foo.cpp.in`
/// (MIOpen's `db_path.cpp.in` calls `miopenCreate`).
pub fn is_source_name(name: &str, extensions: &[String]) -> bool {
    let name = name.strip_suffix(".in").unwrap_or(name);
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => extensions.iter().any(|x| x == ext),
        _ => false,
    }
}

/// One identifier occurrence of a renamed name (or of its `_impl` form).
#[derive(Debug)]
struct Occ {
    tok: usize,
    /// The base name (`miopenFoo`).
    name: String,
    /// Spelled `miopenFoo_impl` already.
    is_impl: bool,
    class: Option<(DeclKind, Linkage, bool)>,
}

struct FileWork {
    entry: usize,
    rel: String,
    src: Vec<u8>,
    scan: Scan,
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Whether MIOpen's version script (`lib.def`, `global: miopen*;`) exports a
/// C-linkage definition of this name: every name with the prefix, an SQLite
/// extension entry point such as `miopen_sqlite3_memvfs_init` as much as a
/// `miopenFoo` entry point. Such a definition the header does not declare is
/// a survivor: the wrapper must keep exporting it.
fn starts_api(name: &str) -> bool {
    name.len() > "miopen".len() && name.starts_with("miopen")
}

fn is_string_literal(text: &str) -> bool {
    let t = text.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_');
    t.starts_with('"')
}

/// Plan the rename of every implementation file of `tree`: the report of
/// what is renamed, and each changed file's new content in its entry.
pub fn plan(opts: &Options, public: &BTreeMap<String, bool>, tree: &mut Tree) -> Result<Report, RenameError> {
    let mut report = Report { tool: "miopen-wrap rename", schema_version: 1, ..Default::default() };
    let work = read_and_scan(tree, &mut report)?;
    let (survivors, others) = c_linkage_definitions(&work, public);
    let fn_macros = fn_name_macros(&macro_words(&work));
    let survivor_names: BTreeSet<String> = survivors.iter().map(|s| s.name.clone()).collect();
    let is_name = |n: &str| public.contains_key(n) || survivor_names.contains(n);
    let mut left = report::LeftAlone::default();
    let occs: Vec<Vec<Occ>> = work.iter().map(|w| file_occurrences(&w.scan, &is_name, &mut left)).collect();
    report.left_alone_in_strings_comments = left;
    record_collisions(&work, &occs, public, &mut report);
    for (w, v) in work.iter().zip(&occs) {
        for o in v {
            count_occurrence(o, public, &mut report);
            if let Some((DeclKind::Definition, linkage, export)) = o.class {
                record_definition(w, o, (linkage, export), public, &fn_macros, &mut report);
            }
        }
        rewrite_file(opts, w, v, public, tree, &mut report)?;
    }
    report.definitions.sort();
    report.func_name_warnings.sort();
    report.files_touched = report.touched_files.len();
    report.survivors = survivors;
    report.other_c_linkage_definitions = others;
    Ok(report)
}

/// Read the implementation files; tokenize and scan those that mention
/// miopen (or a function-name keyword, for macros that expand to one).
fn read_and_scan(tree: &Tree, report: &mut Report) -> Result<Vec<FileWork>, RenameError> {
    let mut to_lex: Vec<(usize, Vec<u8>)> = Vec::new();
    for (i, e) in tree.entries.iter().enumerate().filter(|(_, e)| e.kind == EntryKind::Source) {
        report.files_scanned += 1;
        let src = std::fs::read(&e.abs).map_err(io_err(&e.abs))?;
        if contains(&src, b"miopen") || FN_NAME_KEYWORDS.iter().any(|k| contains(&src, k.as_bytes())) {
            to_lex.push((i, src));
        }
    }
    report.files_tokenized = to_lex.len();
    let paths: Vec<PathBuf> = to_lex.iter().map(|(i, _)| tree.entries[*i].abs.clone()).collect();
    let lexed = lex::tokenize_all(&paths)?;
    let mut work = Vec::with_capacity(to_lex.len());
    for ((i, src), toks) in to_lex.into_iter().zip(lexed) {
        let scan = scan::scan(&tree.entries[i].abs, &src, toks?)?;
        work.push(FileWork { entry: i, rel: paths::slash_path(&tree.entries[i].rel), src, scan });
    }
    Ok(work)
}

/// The C-linkage definitions the header does not declare: survivors (an
/// API name, renamed as well) and the others (reported only), sorted.
fn c_linkage_definitions(
    work: &[FileWork],
    public: &BTreeMap<String, bool>,
) -> (Vec<report::Survivor>, Vec<report::CDef>) {
    let mut survivors = Vec::new();
    let mut others = Vec::new();
    for w in work {
        let exported_c =
            |d: &&scan::FnDecl| d.kind == DeclKind::Definition && d.linkage != Linkage::None && !d.is_static;
        for d in w.scan.decls.iter().filter(exported_c) {
            let t = &w.scan.toks[d.name_tok];
            let name = t.text.as_str();
            let stem = name.strip_suffix("_impl");
            if public.contains_key(name) || stem.is_some_and(|x| public.contains_key(x)) {
                continue;
            }
            let linkage = report::linkage_str(d.linkage).to_string();
            let (file, line) = (w.rel.clone(), t.line);
            match stem {
                None if starts_api(name) => {
                    survivors.push(report::Survivor { name: name.into(), file, line, linkage, already_renamed: false })
                }
                Some(stem) if starts_api(stem) => {
                    survivors.push(report::Survivor { name: stem.into(), file, line, linkage, already_renamed: true })
                }
                _ => others.push(report::CDef { name: name.into(), file, line, linkage }),
            }
        }
    }
    survivors.sort();
    others.sort();
    (survivors, others)
}

/// Every `#define`'s name with the words of its replacement list.
fn macro_words(work: &[FileWork]) -> HashMap<String, HashSet<String>> {
    let mut words: HashMap<String, HashSet<String>> = HashMap::new();
    for s in work.iter().map(|w| &w.scan) {
        for (a, b) in s.directives.iter().filter(|d| d.name == "define").map(|d| d.toks) {
            if a + 2 >= b {
                continue;
            }
            let set = words.entry(s.toks[a + 2].text.clone()).or_default();
            set.extend(s.toks[a + 3..b].iter().filter(|t| t.is_wordlike()).map(|t| t.text.clone()));
        }
    }
    words
}

/// The identifier occurrences of renamed names in one file (outside its
/// generated block); names inside strings and comments are counted in `left`.
fn file_occurrences(s: &Scan, is_name: &dyn Fn(&str) -> bool, left: &mut report::LeftAlone) -> Vec<Occ> {
    let mut occs = Vec::new();
    for (k, t) in s.toks.iter().enumerate().filter(|(k, _)| !s.in_block[*k]) {
        match t.kind {
            Kind::Ident => occs.extend(identifier_occurrence(s, k, is_name)),
            Kind::Comment | Kind::Literal => count_left_alone(t, is_name, left),
            _ => {}
        }
    }
    occs
}

fn identifier_occurrence(s: &Scan, k: usize, is_name: &dyn Fn(&str) -> bool) -> Option<Occ> {
    let text = &s.toks[k].text;
    let (name, is_impl) = if is_name(text) {
        (text.clone(), false)
    } else {
        (text.strip_suffix("_impl").filter(|x| is_name(x))?.to_string(), true)
    };
    let class = s.decl_at.get(&k).map(|&d| {
        let d = &s.decls[d];
        (d.kind, d.linkage, d.export)
    });
    Some(Occ { tok: k, name, is_impl, class })
}

fn count_left_alone(t: &lex::Tok, is_name: &dyn Fn(&str) -> bool, left: &mut report::LeftAlone) {
    let n = scan::words(&t.text).filter(|x| is_name(x)).count();
    if n == 0 {
        return;
    }
    left.tokens += 1;
    left.occurrences += n;
    if t.kind == Kind::Comment {
        left.comment_tokens += 1;
    } else if is_string_literal(&t.text) {
        left.string_tokens += 1;
    }
}

/// Collisions: `<name>_impl` exists while `<name>` still has a definition to
/// rename (someone else wrote a miopenFoo_impl). Also the public names that
/// have no definition in either spelling.
fn record_collisions(work: &[FileWork], occs: &[Vec<Occ>], public: &BTreeMap<String, bool>, report: &mut Report) {
    let mut defined: HashSet<&str> = HashSet::new();
    let mut defined_any: HashSet<&str> = HashSet::new();
    for o in occs.iter().flatten().filter(|o| matches!(o.class, Some((DeclKind::Definition, _, _)))) {
        defined_any.insert(o.name.as_str());
        if !o.is_impl {
            defined.insert(o.name.as_str());
        }
    }
    for (w, v) in work.iter().zip(occs) {
        for o in v.iter().filter(|o| o.is_impl && defined.contains(o.name.as_str())) {
            report.collisions.push(report::Collision {
                name: o.name.clone(),
                impl_name: format!("{}_impl", o.name),
                file: w.rel.clone(),
                line: w.scan.toks[o.tok].line,
            });
        }
    }
    report.collisions.sort();
    report.public_names_without_definition =
        public.keys().filter(|n| !defined_any.contains(n.as_str())).cloned().collect();
}

/// Count one occurrence in the report's totals by what it is.
fn count_occurrence(o: &Occ, public: &BTreeMap<String, bool>, report: &mut Report) {
    if o.is_impl {
        report.already_renamed_occurrences += 1;
        return;
    }
    match o.class {
        Some((DeclKind::Definition, linkage, export)) => {
            let dc = &mut report.definitions_renamed;
            dc.total += 1;
            match linkage {
                Linkage::ExternC => dc.extern_c += 1,
                Linkage::ExternCBlock => dc.extern_c_block += 1,
                Linkage::None => dc.bare += 1,
            }
            dc.with_miopen_export += usize::from(export);
            dc.survivors += usize::from(!public.contains_key(&o.name));
        }
        Some((DeclKind::Declaration, _, _)) => report.declarations_renamed += 1,
        None => report.call_sites_renamed += 1,
    }
}

/// List a definition in the report, with a warning when its body uses the
/// function's own name (which the rename changes).
fn record_definition(
    w: &FileWork,
    o: &Occ,
    (linkage, export): (Linkage, bool),
    public: &BTreeMap<String, bool>,
    fn_macros: &HashMap<String, String>,
    report: &mut Report,
) {
    let line = w.scan.toks[o.tok].line;
    report.definitions.push(report::Definition {
        name: o.name.clone(),
        file: w.rel.clone(),
        line,
        style: report::linkage_str(linkage).into(),
        export,
        survivor: !public.contains_key(&o.name),
    });
    if let Some(via) = fn_name_use(&w.scan, o.tok, fn_macros) {
        report.func_name_warnings.push(report::FuncNameWarning {
            name: o.name.clone(),
            file: w.rel.clone(),
            line,
            via,
        });
    }
}

/// Compute one file's new text; keep it in the tree entry when it changes.
fn rewrite_file(
    opts: &Options,
    w: &FileWork,
    occs: &[Occ],
    public: &BTreeMap<String, bool>,
    tree: &mut Tree,
    report: &mut Report,
) -> Result<(), RenameError> {
    let block_names: BTreeSet<&str> =
        occs.iter().filter(|o| public.contains_key(&o.name)).map(|o| o.name.as_str()).collect();
    if !block_names.is_empty() {
        report.blocks.files_with_block += 1;
    }
    let path = &tree.entries[w.entry].abs;
    let new = rewrite(path, &w.src, &w.scan, occs, &block_names, opts.block_export_macro.as_deref())?;
    if new != w.src {
        if !block_names.is_empty() && block_text_changed(&w.src, &new) {
            report.blocks.blocks_written += 1;
        }
        report.touched_files.push(w.rel.clone());
        tree.entries[w.entry].new_content = Some(new);
    }
    Ok(())
}

fn block_text_changed(old: &[u8], new: &[u8]) -> bool {
    let blk = |b: &[u8]| {
        let s = String::from_utf8_lossy(b);
        let a = s.find(BLOCK_BEGIN);
        let e = s.find(BLOCK_END);
        match (a, e) {
            (Some(a), Some(e)) if e >= a => Some(s[a..e].to_string()),
            _ => None,
        }
    };
    blk(old) != blk(new)
}

/// Macros whose expansion (transitively) names the enclosing function.
fn fn_name_macros(words: &HashMap<String, HashSet<String>>) -> HashMap<String, String> {
    let mut found: HashMap<String, String> = HashMap::new();
    for (m, ws) in words {
        if let Some(k) = FN_NAME_KEYWORDS.iter().find(|k| ws.contains(**k)) {
            found.insert(m.clone(), k.to_string());
        }
    }
    loop {
        let mut added = Vec::new();
        for (m, ws) in words {
            if found.contains_key(m) {
                continue;
            }
            if ws.iter().any(|w| found.contains_key(w)) {
                added.push(m.clone());
            }
        }
        if added.is_empty() {
            break;
        }
        for m in added {
            found.insert(m.clone(), m);
        }
    }
    found
}

/// Does the body of the definition named at token `name_tok` use the
/// function's own name (`__func__` & co., or a macro expanding to one)?
fn fn_name_use(s: &Scan, name_tok: usize, macros: &HashMap<String, String>) -> Option<String> {
    let d = &s.decls[*s.decl_at.get(&name_tok)?];
    let (a, b) = d.body?;
    for t in &s.toks[a..b] {
        if !t.is_wordlike() {
            continue;
        }
        if FN_NAME_KEYWORDS.contains(&t.text.as_str()) {
            return Some(t.text.clone());
        }
        if macros.contains_key(&t.text) {
            return Some(t.text.clone());
        }
    }
    None
}

/// Where the block goes: after the last top-level `#include` before `first`,
/// else at the start of the code (after leading comments / guard).
fn block_pos(scan: &Scan, src: &[u8], first: usize) -> usize {
    let mut pos = None;
    for d in &scan.directives {
        if d.start >= first {
            break;
        }
        if (d.name == "include" || d.name == "include_next") && d.brace_depth == 0 && d.pp_depth == scan.guard_depth {
            pos = Some(scan::next_line_start(src, d.end));
        }
    }
    pos.unwrap_or(scan.code_start)
}

fn depth_at(scan: &Scan, pos: usize) -> u32 {
    let i = scan.toks.partition_point(|t| t.start < pos);
    scan.depth_before.get(i).copied().unwrap_or(scan.depth_end)
}

fn line_of(src: &[u8], pos: usize) -> u32 {
    1 + src[..pos.min(src.len())].iter().filter(|&&b| b == b'\n').count() as u32
}

fn rewrite(
    path: &Path,
    src: &[u8],
    s: &Scan,
    occs: &[Occ],
    block_names: &BTreeSet<&str>,
    export_macro: Option<&str>,
) -> Result<Vec<u8>, RenameError> {
    let mut edits: Vec<(usize, usize, Vec<u8>)> = Vec::new();
    for b in &s.blocks {
        edits.push((b.start, b.end, Vec::new()));
    }
    for o in occs.iter().filter(|o| !o.is_impl) {
        let t = &s.toks[o.tok];
        if src.get(t.start..t.end()) != Some(t.text.as_bytes()) {
            return Err(RenameError::TokenMismatch { path: path.to_path_buf(), line: t.line, token: t.text.clone() });
        }
        edits.push((t.start, t.end(), format!("{}_impl", t.text).into_bytes()));
    }
    if !block_names.is_empty() {
        let first = occs
            .iter()
            .filter(|o| block_names.contains(o.name.as_str()))
            .map(|o| s.toks[o.tok].start)
            .min()
            .unwrap_or(0);
        let pos = block_pos(s, src, first);
        let depth = depth_at(s, pos);
        if depth != 0 || pos > first {
            return Err(RenameError::BlockPlacement { path: path.to_path_buf(), line: line_of(src, pos), depth });
        }
        let nl = if src.windows(2).any(|w| w == b"\r\n") { "\r\n" } else { "\n" };
        let mut text = String::new();
        if pos == src.len() && !src.is_empty() && !src.ends_with(b"\n") {
            text += nl;
        }
        text += BLOCK_BEGIN;
        text += nl;
        for n in block_names {
            match export_macro {
                Some(m) => text += &format!("extern \"C\" {m} decltype({n}) {n}_impl;{nl}"),
                None => text += &format!("extern \"C\" decltype({n}) {n}_impl;{nl}"),
            }
        }
        // `#line` numbers the lines after the block as in the original
        // source, so `__LINE__` (MIOpen's error messages and logs) and
        // compiler diagnostics are unchanged by the rename.
        text += &format!("#line {} {BLOCK_END}{nl}", line_of(src, pos));
        edits.push((pos, pos, text.into_bytes()));
    }
    edits.sort_by_key(|e| (e.0, e.1));
    let mut out = Vec::with_capacity(src.len() + 256);
    let mut cur = 0usize;
    for (a, b, r) in edits {
        if a < cur {
            return Err(RenameError::BlockPlacement { path: path.to_path_buf(), line: line_of(src, a), depth: 0 });
        }
        out.extend_from_slice(&src[cur..a]);
        out.extend_from_slice(&r);
        cur = b;
    }
    out.extend_from_slice(&src[cur..]);
    Ok(out)
}

/// Write the result. Copy mode writes every file of the tree whose output
/// differs (or is missing); in-place writes the changed files; check writes
/// nothing. Returns the number of files written.
pub fn write(opts: &Options, tree: &Tree) -> Result<usize, RenameError> {
    let mut written = 0;
    match &opts.mode {
        Mode::Check => {}
        Mode::InPlace => {
            for e in &tree.entries {
                if let Some(c) = &e.new_content {
                    std::fs::write(&e.abs, c).map_err(io_err(&e.abs))?;
                    written += 1;
                }
            }
        }
        Mode::Copy(out) => {
            for e in &tree.entries {
                let dest = out.join(&e.rel);
                if let Some(dir) = dest.parent() {
                    std::fs::create_dir_all(dir).map_err(io_err(dir))?;
                }
                if e.kind == EntryKind::Symlink {
                    let target = std::fs::read_link(&e.abs).map_err(io_err(&e.abs))?;
                    if std::fs::read_link(&dest).ok().as_ref() != Some(&target) {
                        let _ = std::fs::remove_file(&dest);
                        symlink(&target, &dest).map_err(io_err(&dest))?;
                        written += 1;
                    }
                    continue;
                }
                let content = match &e.new_content {
                    Some(c) => c.clone(),
                    None => std::fs::read(&e.abs).map_err(io_err(&e.abs))?,
                };
                let same = match std::fs::metadata(&dest) {
                    Ok(m) if m.is_file() && m.len() == content.len() as u64 => {
                        std::fs::read(&dest).map(|d| d == content).unwrap_or(false)
                    }
                    _ => false,
                };
                if !same {
                    if std::fs::symlink_metadata(&dest).map(|m| m.file_type().is_symlink()).unwrap_or(false) {
                        std::fs::remove_file(&dest).map_err(io_err(&dest))?;
                    }
                    std::fs::write(&dest, &content).map_err(io_err(&dest))?;
                    keep_exec_bit(&e.abs, &dest);
                    written += 1;
                }
            }
        }
    }
    Ok(written)
}

/// Executable sources stay executable; the rest keeps the default mode (a
/// read-only source must not make its copy read-only, or the next run could
/// not update it).
#[cfg(unix)]
fn keep_exec_bit(src: &Path, dest: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let (Ok(s), Ok(d)) = (std::fs::metadata(src), std::fs::metadata(dest)) {
        let x = s.permissions().mode() & 0o111;
        if x != 0 && d.permissions().mode() & 0o111 != x {
            let _ = std::fs::set_permissions(dest, std::fs::Permissions::from_mode(d.permissions().mode() | x));
        }
    }
}

#[cfg(not(unix))]
fn keep_exec_bit(_: &Path, _: &Path) {}

#[cfg(unix)]
fn symlink(target: &Path, dest: &Path) -> std::io::Result<()> {
    std::os::unix::fs::symlink(target, dest)
}

#[cfg(not(unix))]
fn symlink(target: &Path, dest: &Path) -> std::io::Result<()> {
    std::fs::copy(target, dest).map(|_| ())
}
