//! The module graph of each crate of the workspace has no cycle, and
//! neither have the files of any one folder.
//!
//! Every `.rs` file of a crate's `src/` is parsed with `syn`; each path that
//! names a module of the crate (`crate::…`, `super::…`, `self::…`, or a
//! child module's name), or an item of one, is an edge from the module it
//! appears in to the module it names. Two graphs are checked: modules at the
//! granularity of the crate's top-level modules, and of `forward`'s
//! children in the wrapper (the family groups and what they share); and
//! the files of each folder (siblings: a use between files of two
//! subfolders of one folder is an edge between those subfolders; a folder's
//! `mod.rs` and its own files are not siblings). Test modules (`tests.rs`,
//! `#[cfg(test)]`) are left out: tests may use anything.
//!
//! Run it alone with `cargo test -p miopen-wrap --test module_graph -- --nocapture`:
//! it prints each crate's graph.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// A module path inside a crate (`["forward", "common", "steps"]`).
type ModPath = Vec<String>;

/// The module path of a source file of `src`.
fn module_of(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "lib" | "main" | "mod") {
        parts.push(stem.to_string());
    }
    parts
}

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| a.path().is_ident("cfg") && a.meta.to_token_stream_string().contains("test"))
}

trait TokenString {
    fn to_token_stream_string(&self) -> String;
}

impl TokenString for syn::Meta {
    fn to_token_stream_string(&self) -> String {
        quote::ToTokens::to_token_stream(self).to_string()
    }
}

/// Collects every module-relative path of one file, with the module it appears in.
struct Refs {
    here: ModPath,
    found: Vec<(ModPath, Vec<String>)>,
}

impl Refs {
    fn record(&mut self, segments: Vec<String>) {
        if !segments.is_empty() {
            self.found.push((self.here.clone(), segments));
        }
    }
}

fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.to_string());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut v = prefix.clone();
            if n.ident != "self" {
                v.push(n.ident.to_string());
            }
            out.push(v);
        }
        syn::UseTree::Rename(r) => {
            let mut v = prefix.clone();
            v.push(r.ident.to_string());
            out.push(v);
        }
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => g.items.iter().for_each(|t| use_paths(t, prefix, out)),
    }
}

impl<'ast> Visit<'ast> for Refs {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if is_cfg_test(&m.attrs) || m.ident == "tests" {
            return;
        }
        self.here.push(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
        self.here.pop();
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_cfg_test(&f.attrs) {
            syn::visit::visit_item_fn(self, f);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let mut out = Vec::new();
        use_paths(&u.tree, &mut Vec::new(), &mut out);
        out.into_iter().for_each(|p| self.record(p));
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.record(p.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, p);
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        // Macro bodies are tokens: find `crate :: a :: b` and `super :: a` runs in them.
        let tokens: Vec<String> = m.tokens.clone().into_iter().map(|t| t.to_string()).collect();
        let mut i = 0;
        while i < tokens.len() {
            if matches!(tokens[i].as_str(), "crate" | "super" | "self") {
                let mut v = vec![tokens[i].clone()];
                let mut j = i + 1;
                while j + 1 < tokens.len() && tokens[j] == ":" {
                    // `::` arrives as two `:` punct tokens.
                    j += 1;
                    if tokens[j] == ":" {
                        j += 1;
                    }
                    if j < tokens.len() {
                        v.push(tokens[j].clone());
                        j += 1;
                    }
                }
                self.record(v);
                i = j;
            } else {
                i += 1;
            }
        }
    }
}

/// Resolves a path written in module `here` to the module it names, if it
/// names one of `modules`.
fn resolve(here: &ModPath, path: &[String], modules: &BTreeSet<ModPath>) -> Option<ModPath> {
    let mut base: ModPath = match path.first().map(String::as_str)? {
        "crate" => Vec::new(),
        "self" => here.clone(),
        "super" => {
            let mut b = here.clone();
            let mut rest = path;
            while rest.first().map(String::as_str) == Some("super") {
                b.pop();
                rest = &rest[1..];
            }
            return longest(b, rest, modules);
        }
        first => {
            // A child module of `here` named without a prefix.
            let mut child = here.clone();
            child.push(first.to_string());
            if !modules.contains(&child) {
                return None;
            }
            here.clone()
        }
    };
    let rest = if matches!(path[0].as_str(), "crate" | "self") { &path[1..] } else { path };
    base.truncate(base.len());
    longest(base, rest, modules)
}

fn longest(mut base: ModPath, rest: &[String], modules: &BTreeSet<ModPath>) -> Option<ModPath> {
    // An item of `base` itself (`super::Item`) is a use of `base`.
    let mut best = (!base.is_empty() && modules.contains(&base)).then(|| base.clone());
    for seg in rest {
        base.push(seg.clone());
        if modules.contains(&base) {
            best = Some(base.clone());
        } else {
            break;
        }
    }
    best
}

/// The node of a module: its top-level module, or for `forward::x::…` in
/// the wrapper, `forward::x`.
fn node(m: &ModPath) -> String {
    match m.as_slice() {
        [] => "<crate root>".to_string(),
        [first, second, ..] if first == "forward" => format!("forward::{second}"),
        [first, ..] => first.clone(),
    }
}

/// The edges between nodes of the crate whose sources are in `src`.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (here, target) in references(src).0 {
        let (from, to) = (node(&here), node(&target));
        if from != to && from != "<crate root>" {
            edges.entry(from).or_default().insert(to);
        }
    }
    edges
}

/// The edges between the files of one folder, for every folder of the crate
/// whose sources are in `src`: a use of module `a::x::…` by a file
/// `a::y::…` is an edge `a::y -> a::x` between the two siblings of folder
/// `a` that contain them (an inline module is its file's). A file and its
/// own folder's `mod.rs` (an ancestor) are not siblings: the folder
/// declares its files and they use what it declares.
fn file_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let (refs, files) = references(src);
    let file_of = |m: &ModPath| {
        let mut file = m.clone();
        while !files.contains(&file) {
            file.pop();
        }
        file
    };
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in refs.iter().map(|(a, b)| (file_of(a), file_of(b))) {
        let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
        if common < from.len() && common < to.len() {
            let (a, b) = (from[..=common].join("::"), to[..=common].join("::"));
            edges.entry(a).or_default().insert(b);
        }
    }
    edges
}

/// Every use of a module of the crate whose sources are in `src` (the
/// module a path appears in and the module it names), and the modules that
/// are files.
fn references(src: &Path) -> (Vec<(ModPath, ModPath)>, BTreeSet<ModPath>) {
    let files: Vec<PathBuf> = walkdir::WalkDir::new(src)
        .into_iter()
        .map(|e| e.unwrap().into_path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs") && p.file_name().is_some_and(|n| n != "tests.rs"))
        .collect();
    let file_modules: BTreeSet<ModPath> = files.iter().map(|f| module_of(src, f)).collect();
    let mut modules = file_modules.clone();
    let mut refs = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let mut r = Refs { here: module_of(src, f), found: Vec::new() };
        // Inline modules are modules too.
        for item in &parsed.items {
            if let syn::Item::Mod(m) = item {
                if m.content.is_some() && !is_cfg_test(&m.attrs) {
                    let mut p = r.here.clone();
                    p.push(m.ident.to_string());
                    modules.insert(p);
                }
            }
        }
        r.visit_file(&parsed);
        refs.extend(r.found);
    }
    let uses = refs.into_iter().filter_map(|(here, path)| resolve(&here, &path, &modules).map(|target| (here, target)));
    (uses.collect(), file_modules)
}

/// A cycle of the graph, if it has one.
fn cycle(edges: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        edges: &BTreeMap<String, BTreeSet<String>>,
        stack: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = stack.iter().position(|s| s == n) {
            let mut c = stack[i..].to_vec();
            c.push(n.to_string());
            return Some(c);
        }
        if done.contains(n) {
            return None;
        }
        stack.push(n.to_string());
        for next in edges.get(n).into_iter().flatten() {
            if let Some(c) = visit(next, edges, stack, done) {
                return Some(c);
            }
        }
        stack.pop();
        done.insert(n.to_string());
        None
    }
    let mut done = BTreeSet::new();
    edges.keys().find_map(|n| visit(n, edges, &mut Vec::new(), &mut done))
}

fn crate_src(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(name).join("src")
}

fn check(name: &str) -> BTreeMap<String, BTreeSet<String>> {
    let edges = graph(&crate_src(name));
    println!("{name}:");
    for (from, to) in &edges {
        println!("  {from} -> {}", to.iter().cloned().collect::<Vec<_>>().join(", "));
    }
    if let Some(c) = cycle(&edges) {
        panic!("rust/{name}: the module graph has a cycle: {}", c.join(" -> "));
    }
    if let Some(c) = cycle(&file_graph(&crate_src(name))) {
        panic!("rust/{name}: the files of one folder have a cycle: {}", c.join(" -> "));
    }
    edges
}

#[test]
fn the_wrapper_runtime_has_no_cycle_and_the_stubs_are_its_top() {
    let edges = check("wrapper");
    assert!(edges.values().all(|to| !to.contains("stubs")), "no module may use the generated stubs: {edges:?}");
    // The leaves everything may use.
    for leaf in ["diagnostics", "entry_points"] {
        assert!(!edges.contains_key(leaf), "{leaf} must use no other module: {:?}", edges.get(leaf));
    }
    // A family group (a folder of `forward` other than `common`) depends on
    // what is shared, never the reverse.
    let groups: Vec<String> = std::fs::read_dir(crate_src("wrapper").join("forward"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() && !p.ends_with("common"))
        .map(|p| format!("forward::{}", p.file_name().unwrap().to_string_lossy()))
        .collect();
    assert!(!groups.is_empty());
    let common = edges.get("forward::common").cloned().unwrap_or_default();
    for g in &groups {
        assert!(!common.contains(g), "forward::common uses {g}: {common:?}");
        assert!(edges.get(g).is_some_and(|t| t.contains("forward::common")), "{g}: {edges:?}");
    }
}

#[test]
fn the_other_crates_have_no_cycle() {
    for name in ["miopen-wrap", "forwarding-core", "hipdnn-backend"] {
        check(name);
    }
}

#[test]
fn a_cycle_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("b")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod a; mod b; mod c;").unwrap();
    std::fs::write(src.join("a.rs"), "use crate::b::inner::f;\npub fn g() { f() }").unwrap();
    std::fs::write(src.join("b/mod.rs"), "pub mod inner;").unwrap();
    std::fs::write(src.join("b/inner.rs"), "pub fn f() { super::super::c::h() }").unwrap();
    std::fs::write(src.join("c.rs"), "pub fn h() { crate::a::g() }\n#[cfg(test)]\nmod tests { use crate::b; }")
        .unwrap();
    let edges = graph(&src);
    let c = cycle(&edges).expect("a -> b -> c -> a is a cycle");
    assert_eq!(c.first(), c.last());
    assert_eq!(c.len(), 4, "{c:?}");
    // Without the edge back, no cycle.
    std::fs::write(src.join("c.rs"), "pub fn h() {}").unwrap();
    assert_eq!(cycle(&graph(&src)), None);
}

#[test]
fn a_cycle_between_the_files_of_one_folder_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(src.join("g")).unwrap();
    std::fs::write(src.join("lib.rs"), "mod g;").unwrap();
    // The folder's mod.rs uses its files and they use it: not a cycle of files.
    std::fs::write(src.join("g/mod.rs"), "mod x; mod y; pub struct Row;\npub fn r() { x::f() }").unwrap();
    std::fs::write(src.join("g/x.rs"), "use super::Row;\npub fn f() { super::y::h() }").unwrap();
    std::fs::write(
        src.join("g/y.rs"),
        "pub fn h() { let _ = super::Row; }\n#[cfg(test)]\nmod tests { use super::super::x; }",
    )
    .unwrap();
    assert_eq!(cycle(&graph(&src)), None, "one top-level module");
    assert_eq!(cycle(&file_graph(&src)), None, "x -> y only");
    // y uses x (through an inline module of x's file): x <-> y.
    std::fs::write(src.join("g/x.rs"), "pub fn f() { super::y::h() }\npub mod inner { pub fn i() {} }").unwrap();
    std::fs::write(src.join("g/y.rs"), "pub fn h() { crate::g::x::inner::i() }").unwrap();
    let c = cycle(&file_graph(&src)).expect("g::x -> g::y -> g::x is a cycle");
    assert_eq!(c.len(), 3, "{c:?}");
    assert!(c.iter().all(|n| n == "g::x" || n == "g::y"), "{c:?}");
    assert_eq!(cycle(&graph(&src)), None, "the top-level graph cannot see it");
}
