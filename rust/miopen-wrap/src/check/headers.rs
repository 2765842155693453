//! Gate `headers` (RFC 0001 §4.6, §6 leakage row):
//! - no `_impl` identifier in the public include tree outside the private
//!   subtree (where `miopen/miopen_impl.h` lives);
//! - no implementation source includes `miopen_impl.h`.
use std::path::{Path, PathBuf};

use super::error::{CheckError, Result};
use super::report::{short_list, GateReport};
use super::Gate;
use crate::paths::same_path;

pub const IMPL_HEADER: &str = "miopen_impl.h";

#[derive(Debug, Clone, Default)]
pub struct HeadersOptions {
    /// Root of the public include tree (e.g. `<prefix>/include`).
    pub public_include: Option<PathBuf>,
    /// Private subtree, relative to `public_include` or absolute
    /// (e.g. `miopen_private`); skipped by the `_impl` scan.
    pub private_subdir: Option<PathBuf>,
    /// Implementation source trees that must not include `miopen_impl.h`.
    pub impl_sources: Vec<PathBuf>,
}

/// Regular files under `root` (symlinks to files included), sorted, leaving
/// out the subtree `skip`.
fn walk(root: &Path, skip: Option<&Path>) -> Result<Vec<PathBuf>> {
    let entries = crate::paths::walk_tree(root, |dir| skip.is_some_and(|s| same_path(dir, s)))
        .map_err(|(path, source)| CheckError::Walk { path, source })?;
    Ok(entries
        .into_iter()
        .filter(|e| e.file_type.is_file() || (e.file_type.is_symlink() && e.abs.is_file()))
        .map(|e| e.abs)
        .collect())
}

fn read_text(path: &Path) -> Result<Option<String>> {
    let bytes = std::fs::read(path).map_err(|source| CheckError::Io { path: path.to_path_buf(), source })?;
    if bytes.contains(&0) {
        return Ok(None); // binary file
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

/// Identifiers on a line that carry an `_impl` component: the identifier
/// ends in `_impl` or contains `_impl_` (`miopenFoo_impl`, `miopen_impl`,
/// `foo_impl_t`), but not `_implicit` / `_implementation`.
pub fn impl_identifiers(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let ident = &line[start..i];
            let hit = ident.ends_with("_impl") || ident.contains("_impl_");
            if hit {
                out.push(ident.to_string());
            }
        } else if c.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// The header named by an `#include`/`#include_next`/`#import` line, if any.
pub fn include_target(line: &str) -> Option<&str> {
    let t = line.trim_start().strip_prefix('#')?.trim_start();
    let rest = ["include_next", "include", "import"].iter().find_map(|kw| t.strip_prefix(kw))?.trim_start();
    let (open, close) = match rest.chars().next()? {
        '<' => ('<', '>'),
        '"' => ('"', '"'),
        _ => return None,
    };
    let body = rest.strip_prefix(open)?;
    let end = body.find(close)?;
    Some(&body[..end])
}

fn is_source_like(path: &Path) -> bool {
    const EXTS: &[&str] = &[
        "c", "cc", "cpp", "cxx", "c++", "h", "hh", "hpp", "hxx", "h++", "inl", "ipp", "tpp", "inc", "cu", "cuh", "hip",
        "cl", "in",
    ];
    path.extension().and_then(|e| e.to_str()).map(|e| EXTS.contains(&e.to_ascii_lowercase().as_str())).unwrap_or(false)
}

pub fn headers(opts: &HeadersOptions) -> Result<GateReport> {
    let mut r = GateReport::new(Gate::Headers);
    let mut offenders: Vec<String> = Vec::new();
    let mut scanned_headers = 0usize;
    let mut scanned_sources = 0usize;

    if let Some(root) = &opts.public_include {
        let private = opts.private_subdir.as_ref().map(|s| if s.is_absolute() { s.clone() } else { root.join(s) });
        r.note(format!("public include tree: {}", root.display()));
        match &private {
            Some(p) => {
                let impl_h = p.join("miopen").join(IMPL_HEADER);
                r.note(format!(
                    "private subtree (excluded): {}{}",
                    p.display(),
                    if impl_h.is_file() {
                        format!(" (holds miopen/{IMPL_HEADER})")
                    } else {
                        format!(" (note: no miopen/{IMPL_HEADER} there)")
                    }
                ));
            }
            None => r.note("private subtree: none given; the whole tree must be _impl-free"),
        }
        let files = walk(root, private.as_deref())?;
        for f in &files {
            let Some(text) = read_text(f)? else { continue };
            scanned_headers += 1;
            if f.file_name().and_then(|n| n.to_str()) == Some(IMPL_HEADER) {
                r.problem(format!("{} is in the public include tree (belongs under the private subtree)", f.display()));
                offenders.push(f.display().to_string());
            }
            for (no, line) in text.lines().enumerate() {
                for ident in impl_identifiers(line) {
                    r.problem(format!("{}:{}: `{ident}`", f.display(), no + 1));
                    offenders.push(format!("{}:{}", f.display(), no + 1));
                }
            }
        }
        r.note(format!("scanned {scanned_headers} public header file(s)"));
    }

    for dir in &opts.impl_sources {
        let files = walk(dir, None)?;
        let mut n = 0usize;
        for f in files.iter().filter(|f| is_source_like(f)) {
            let Some(text) = read_text(f)? else { continue };
            n += 1;
            for (no, line) in text.lines().enumerate() {
                if let Some(target) = include_target(line) {
                    let base = target.rsplit('/').next().unwrap_or(target);
                    if base == IMPL_HEADER {
                        r.problem(format!(
                            "{}:{}: includes `{target}` (MIOpen's own sources must not include the _impl header)",
                            f.display(),
                            no + 1
                        ));
                        offenders.push(format!("{}:{}", f.display(), no + 1));
                    }
                }
            }
        }
        r.note(format!("scanned {n} implementation source file(s) under {}", dir.display()));
        scanned_sources += n;
    }

    r.summary = if offenders.is_empty() {
        format!(
            "no _impl leakage in {scanned_headers} public header(s); none of {scanned_sources} source(s) includes {IMPL_HEADER}"
        )
    } else {
        format!("{} leak(s): {}", offenders.len(), short_list(&offenders, 5))
    };
    Ok(r)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers() {
        assert_eq!(impl_identifiers("miopenStatus_t miopenFoo_impl(int);"), vec!["miopenFoo_impl"]);
        assert_eq!(impl_identifiers("#include <miopen/miopen_impl.h>"), vec!["miopen_impl"]);
        assert!(impl_identifiers("miopenConvolutionAlgoImplicitGEMM implicit_gemm").is_empty());
        assert!(impl_identifiers("my_implementation").is_empty());
        assert_eq!(impl_identifiers("detail_impl_t x;"), vec!["detail_impl_t"]);
    }

    #[test]
    fn includes() {
        assert_eq!(include_target("#include <miopen/miopen_impl.h>"), Some("miopen/miopen_impl.h"));
        assert_eq!(include_target("  #  include \"miopen_impl.h\" // x"), Some("miopen_impl.h"));
        assert_eq!(include_target("#include_next <a.h>"), Some("a.h"));
        assert_eq!(include_target("// #include <a.h>"), None);
        assert_eq!(include_target("#include MACRO"), None);
    }
}
