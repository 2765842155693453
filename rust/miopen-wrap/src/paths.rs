//! Paths for every command: comparison, globs (`globset`) and directory walks
//! (`walkdir`), so that `rename`, `check` and `adopt` agree on what a pattern
//! or a tree means.
use std::path::{Component, Path, PathBuf};

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};
use walkdir::WalkDir;

/// The same file or directory: equal after resolving symlinks, or equal as
/// written when either cannot be resolved (it does not exist yet).
pub fn same_path(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// `a/b/c` for a relative path, `/`-separated whatever the platform, without
/// `.` or `..` components.
pub fn slash_path(p: &Path) -> String {
    p.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn glob_set<'a>(patterns: impl IntoIterator<Item = &'a str>, literal_separator: bool) -> Result<GlobSet, String> {
    let mut set = GlobSetBuilder::new();
    for p in patterns {
        let glob: Glob = GlobBuilder::new(p)
            .literal_separator(literal_separator)
            .build()
            .map_err(|e| format!("invalid pattern `{p}`: {e}"))?;
        set.add(glob);
    }
    set.build().map_err(|e| e.to_string())
}

/// Symbol-name globs (`sqlite3_*`, `miopen?ook`): `*` and `?` match any
/// character.
#[derive(Debug, Clone)]
pub struct SymbolGlobs(GlobSet);

impl SymbolGlobs {
    pub fn new(patterns: &[String]) -> Result<Self, String> {
        glob_set(patterns.iter().map(String::as_str), false).map(SymbolGlobs)
    }

    pub fn matches(&self, name: &str) -> bool {
        self.0.is_match(name)
    }
}

/// Globs matched against a whole relative, `/`-separated path (`*` and `?`
/// stay within a component, `**` spans any number of them, none included).
#[derive(Debug, Clone)]
pub struct RelativeGlobs(GlobSet);

impl RelativeGlobs {
    pub fn new(patterns: &[String]) -> Result<Self, String> {
        glob_set(patterns.iter().map(String::as_str), true).map(RelativeGlobs)
    }

    pub fn matches(&self, rel: &str) -> bool {
        self.0.is_match(rel)
    }
}

/// Which files of a tree a list of `--exclude` patterns covers. A pattern is
/// an absolute path prefix, a glob without `/` matched against each
/// component (`kernels`), or a glob with `/` matched against the relative
/// path and each of its ancestors (`src/kern*`, `src/**/*.cpp`); `*` and `?`
/// never cross `/`, `**` does.
#[derive(Debug, Clone)]
pub struct PathFilter {
    absolute: Vec<PathBuf>,
    component: GlobSet,
    relative: GlobSet,
}

impl PathFilter {
    pub fn new(patterns: &[String]) -> Result<Self, String> {
        let cleaned: Vec<&str> = patterns.iter().map(|p| p.trim_end_matches('/')).filter(|p| !p.is_empty()).collect();
        let absolute = cleaned.iter().filter(|p| Path::new(p).is_absolute()).map(PathBuf::from).collect();
        let relative: Vec<&str> =
            cleaned.iter().filter(|p| !Path::new(p).is_absolute()).map(|p| p.trim_start_matches("./")).collect();
        Ok(PathFilter {
            absolute,
            component: glob_set(relative.iter().copied().filter(|p| !p.contains('/')), true)?,
            relative: glob_set(relative.iter().copied().filter(|p| p.contains('/')), true)?,
        })
    }

    /// Does a pattern cover `rel` (relative, `/`-separated) at `abs`?
    pub fn covers(&self, rel: &str, abs: &Path) -> bool {
        if self.absolute.iter().any(|a| abs.starts_with(a)) {
            return true;
        }
        let parts: Vec<&str> = rel.split('/').collect();
        parts.iter().any(|c| self.component.is_match(c))
            || (1..=parts.len()).any(|k| self.relative.is_match(parts[..k].join("/")))
    }
}

/// One entry of a tree walk: the path under the root and its kind, symlinks
/// not followed.
pub struct TreeEntry {
    pub abs: PathBuf,
    /// Relative to the walk's root.
    pub rel: PathBuf,
    pub file_type: std::fs::FileType,
}

/// Every file and symlink under `root` (directories are descended, not
/// listed), sorted by path, symlinks not followed; a directory for which
/// `prune` is true is left out with everything under it.
pub fn walk_tree(root: &Path, prune: impl Fn(&Path) -> bool) -> Result<Vec<TreeEntry>, (PathBuf, std::io::Error)> {
    let mut out = Vec::new();
    let walker = WalkDir::new(root)
        .follow_links(false)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !(e.file_type().is_dir() && prune(e.path())));
    for entry in walker {
        let entry = entry.map_err(|e| {
            let path = e.path().unwrap_or(root).to_path_buf();
            let io = e.into_io_error().unwrap_or_else(|| std::io::Error::other("filesystem loop"));
            (path, io)
        })?;
        if entry.file_type().is_dir() {
            continue;
        }
        let rel = entry.path().strip_prefix(root).unwrap_or(entry.path()).to_path_buf();
        out.push(TreeEntry { abs: entry.path().to_path_buf(), rel, file_type: entry.file_type() });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(p: &str) -> PathFilter {
        PathFilter::new(&[p.to_string()]).expect("valid pattern")
    }

    #[test]
    fn path_filter_patterns() {
        let abs = Path::new("/t/src/kernels/x.cpp");
        assert!(filter("kernels").covers("src/kernels/x.cpp", abs));
        assert!(filter("src/kernels").covers("src/kernels/x.cpp", abs));
        assert!(filter("src/kern*").covers("src/kernels/x.cpp", abs));
        assert!(filter("src/**/*.cpp").covers("src/kernels/x.cpp", abs));
        assert!(filter("**/x.cpp").covers("x.cpp", Path::new("/t/x.cpp")));
        assert!(filter("k?rnels").covers("src/kernels/x.cpp", abs));
        assert!(filter("/t/src/kernels").covers("src/kernels/x.cpp", abs));
        assert!(!filter("kernels").covers("src/kernel.cpp", Path::new("/t/src/kernel.cpp")));
        assert!(!filter("*.cpp").covers("d/a.hpp", Path::new("/t/d/a.hpp")));
        assert!(!filter("src/*.cpp").covers("src/d/a.cpp", Path::new("/t/src/d/a.cpp")));
        assert!(PathFilter::new(&["a[".to_string()]).is_err());
    }

    #[test]
    fn relative_globs() {
        let g = RelativeGlobs::new(&["src/**/ck_impl/**/CMakeLists.txt".into()]).expect("valid");
        assert!(g.matches("src/ck_impl/CMakeLists.txt"));
        assert!(g.matches("src/a/ck_impl/b/CMakeLists.txt"));
        assert!(!g.matches("src/CMakeLists.txt"));
    }

    #[test]
    fn symbol_globs() {
        let g = SymbolGlobs::new(&["sqlite3_*".into(), "a?c".into()]).expect("valid");
        assert!(g.matches("sqlite3_open"));
        assert!(g.matches("abc"));
        assert!(!g.matches("ac"));
        assert!(!g.matches("xsqlite3_open"));
        assert!(SymbolGlobs::new(&["*".into()]).expect("valid").matches(""));
    }

    #[test]
    fn walk_sorted_and_pruned() {
        let d = tempfile::tempdir().expect("tempdir");
        for f in ["b/2.txt", "a/1.txt", "skip/3.txt", "0.txt"] {
            let p = d.path().join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(&p, "x").expect("write");
        }
        let got: Vec<String> =
            walk_tree(d.path(), |p| p.ends_with("skip")).expect("walk").iter().map(|e| slash_path(&e.rel)).collect();
        assert_eq!(got, ["0.txt", "a/1.txt", "b/2.txt"]);
    }
}
