//! The public header as an API model, read with libclang.
//!
//! MIOpen's `miopen.h` is C++-only (it relies on `extern "C"` blocks and C++
//! constructs under some configurations), so it is always parsed as C++.
//! Every function declared *in the header file itself* with C language
//! linkage is an entry point. Whether it is beta is found by parsing twice,
//! with and without `MIOPEN_BETA_API`. Its op family is the doxygen group
//! (`@addtogroup` / `@defgroup`) whose `@{ ... @}` range encloses it; the
//! group markers are read from libclang's comment tokens.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clang::token::TokenKind;
use clang::{Entity, EntityKind, Index, TranslationUnit, Type, TypeKind};
use serde::{Deserialize, Serialize};

#[derive(Debug, thiserror::Error)]
pub enum HeaderError {
    #[error("libclang could not be loaded: {0}")]
    Libclang(String),
    #[error("{path}: libclang could not parse the header: {reason}")]
    Parse { path: PathBuf, reason: String },
    #[error("{path}: the header has errors:\n{diagnostics}")]
    Diagnostics { path: PathBuf, diagnostics: String },
    #[error("{path}: no C entry points found (is this MIOpen's public header?)")]
    Empty { path: PathBuf },
}

#[derive(Debug, Clone, Default)]
pub struct ParseOptions {
    /// Extra `-I` directories (generated `miopen/config.h`, `export.h`, HIP headers).
    pub include_dirs: Vec<PathBuf>,
    /// Extra `-D` definitions, `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Param {
    /// As declared; empty when the prototype omits it (the generator invents one).
    pub name: String,
    /// Type as spelled by clang (typedef names kept).
    pub ty: String,
    /// How the parameter passes a typedef'd value (`miopenTensorDescriptor_t`),
    /// if it does: read from clang's type, not from the spelling.
    #[serde(default)]
    pub typedef: Option<TypedefUse>,
}

/// A parameter whose type is a typedef name, by value or through a pointer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypedefUse {
    pub name: String,
    pub by: PassedBy,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PassedBy {
    /// `const T x`: the header promises the callee reads it only.
    ConstValue,
    /// `T x`.
    Value,
    /// `T* x` (T not const): the callee may write a T there (a create's out-parameter).
    MutablePointer,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryPoint {
    pub name: String,
    pub ret: String,
    pub params: Vec<Param>,
    pub variadic: bool,
    /// Doxygen group the declaration sits in (lower-cased), or "ungrouped".
    pub group: String,
    /// Declared only when MIOPEN_BETA_API is defined.
    pub beta: bool,
    /// 1-based line of the declaration in the header.
    pub line: u32,
}

impl Param {
    /// The parameter as a C declarator, e.g. `const int dims[]` or
    /// `void (*cb)(int)`: the name goes where clang's type spelling leaves
    /// the declarator hole.
    pub fn declarator(&self, name: &str) -> String {
        let ty = self.ty.as_str();
        if let Some(pos) = ty.find("(*") {
            return format!("{}{}{}", &ty[..pos + 2], name, &ty[pos + 2..]);
        }
        if let Some(pos) = ty.find('[') {
            return format!("{} {}{}", ty[..pos].trim_end(), name, &ty[pos..]);
        }
        if ty.ends_with('*') {
            format!("{ty}{name}")
        } else {
            format!("{ty} {name}")
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Api {
    pub header: PathBuf,
    pub entry_points: Vec<EntryPoint>,
}

impl Api {
    pub fn names(&self) -> BTreeSet<String> {
        self.entry_points.iter().map(|e| e.name.clone()).collect()
    }
}

/// Parse `header` as C++ (beta API on and off) and return its entry points,
/// in declaration order.
pub fn parse(header: &Path, opts: &ParseOptions) -> Result<Api, HeaderError> {
    let (with_beta, without_beta) = crate::libclang::with_index(|index| {
        Ok::<_, HeaderError>((parse_once(index, header, opts, true)?, parse_once(index, header, opts, false)?))
    })
    .map_err(HeaderError::Libclang)??;
    let without_beta: BTreeSet<String> = without_beta.into_iter().map(|e| e.name).collect();
    let mut entry_points = with_beta;
    for e in &mut entry_points {
        e.beta = !without_beta.contains(&e.name);
    }
    if entry_points.is_empty() {
        return Err(HeaderError::Empty { path: header.to_path_buf() });
    }
    Ok(Api { header: header.to_path_buf(), entry_points })
}

/// How libclang is told to read the header; the generator's bindgen run uses
/// the same arguments so both see the same declarations.
pub(crate) fn clang_args(opts: &ParseOptions, beta: bool) -> Vec<String> {
    let mut args = vec!["-x".to_string(), "c++".into(), "-std=c++17".into(), "-Wno-pragma-once-outside-header".into()];
    if beta {
        args.push("-DMIOPEN_BETA_API=1".into());
    }
    for d in &opts.defines {
        args.push(format!("-D{d}"));
    }
    for i in &opts.include_dirs {
        args.push(format!("-I{}", i.display()));
    }
    args
}

fn parse_once(index: &Index, header: &Path, opts: &ParseOptions, beta: bool) -> Result<Vec<EntryPoint>, HeaderError> {
    let tu = index
        .parser(header)
        .arguments(&clang_args(opts, beta))
        .detailed_preprocessing_record(true)
        .skip_function_bodies(true)
        .parse()
        .map_err(|e| HeaderError::Parse { path: header.to_path_buf(), reason: format!("{e:?}") })?;
    let errors: Vec<String> = tu
        .get_diagnostics()
        .iter()
        .filter(|d| d.get_severity() >= clang::diagnostic::Severity::Error)
        .map(|d| d.formatter().format())
        .collect();
    if !errors.is_empty() {
        return Err(HeaderError::Diagnostics { path: header.to_path_buf(), diagnostics: errors.join("\n") });
    }
    let groups = group_ranges(&tu);
    let mut out = Vec::new();
    collect(tu.get_entity(), header, &groups, &mut out);
    Ok(out)
}

fn in_header(e: &Entity, header: &Path) -> bool {
    e.get_location()
        .and_then(|l| l.get_file_location().file)
        .map(|f| crate::paths::same_path(&f.get_path(), header))
        .unwrap_or(false)
}

fn collect(parent: Entity, header: &Path, groups: &[(u32, u32, String)], out: &mut Vec<EntryPoint>) {
    for e in parent.get_children() {
        match e.get_kind() {
            // extern "C" { ... } blocks and namespaces hold the declarations.
            EntityKind::LinkageSpec | EntityKind::Namespace | EntityKind::UnexposedDecl => {
                collect(e, header, groups, out)
            }
            EntityKind::FunctionDecl if in_header(&e, header) => {
                if let Some(ep) = entry_point(&e, groups) {
                    if !out.iter().any(|x: &EntryPoint| x.name == ep.name) {
                        out.push(ep);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The typedef name of `t` (through clang's elaborated sugar), if it is one.
fn typedef_name(t: Type) -> Option<String> {
    let t = if t.get_kind() == TypeKind::Elaborated { t.get_elaborated_type()? } else { t };
    if t.get_kind() != TypeKind::Typedef {
        return None;
    }
    t.get_declaration()?.get_name()
}

fn typedef_use(t: Type) -> Option<TypedefUse> {
    if let Some(name) = typedef_name(t) {
        let by = if t.is_const_qualified() { PassedBy::ConstValue } else { PassedBy::Value };
        return Some(TypedefUse { name, by });
    }
    let pointee = (t.get_kind() == TypeKind::Pointer).then(|| t.get_pointee_type()).flatten()?;
    if pointee.is_const_qualified() {
        return None;
    }
    Some(TypedefUse { name: typedef_name(pointee)?, by: PassedBy::MutablePointer })
}

fn entry_point(e: &Entity, groups: &[(u32, u32, String)]) -> Option<EntryPoint> {
    let name = e.get_name()?;
    // C language linkage: the symbol name is the plain identifier.
    if e.get_mangled_name().as_deref() != Some(name.as_str()) {
        return None;
    }
    let ty = e.get_type()?;
    let ret = e.get_result_type()?.get_display_name();
    let params = e
        .get_arguments()
        .unwrap_or_default()
        .iter()
        .map(|a| Param {
            name: a.get_name().unwrap_or_default(),
            ty: a.get_type().map(|t| t.get_display_name()).unwrap_or_default(),
            typedef: a.get_type().and_then(typedef_use),
        })
        .collect();
    let line = e.get_location()?.get_file_location().line;
    let group = groups
        .iter()
        .rfind(|(start, end, _)| *start <= line && line <= *end)
        .map(|(_, _, g)| g.clone())
        .unwrap_or_else(|| "ungrouped".to_string());
    Some(EntryPoint { name, ret, params, variadic: ty.is_variadic(), group, beta: false, line })
}

/// Line ranges of doxygen groups: a comment naming `@addtogroup G` (or
/// `@defgroup G` with `@{`) opens G at its line when it also holds `@{`; the
/// next comment holding `@}` closes the innermost open group.
fn group_ranges(tu: &TranslationUnit) -> Vec<(u32, u32, String)> {
    let mut open: Vec<(u32, String)> = Vec::new();
    let mut done = Vec::new();
    let Some(range) = tu.get_entity().get_range() else { return done };
    for tok in range.tokenize() {
        if tok.get_kind() != TokenKind::Comment {
            continue;
        }
        let text = tok.get_spelling();
        let line = tok.get_location().get_file_location().line;
        let mut words = text.split_whitespace().peekable();
        let mut named: Option<String> = None;
        while let Some(w) = words.next() {
            if w == "@addtogroup" || w == "\\addtogroup" || w == "@defgroup" || w == "\\defgroup" {
                named = words.peek().map(|g| g.to_ascii_lowercase());
            }
        }
        if text.contains("@{") {
            if let Some(g) = named {
                open.push((line, g));
            }
        }
        if text.contains("@}") {
            if let Some((start, g)) = open.pop() {
                done.push((start, line, g));
            }
        }
    }
    let last = u32::MAX;
    done.extend(open.into_iter().map(|(s, g)| (s, last, g)));
    done.sort();
    done
}

#[cfg(test)]
mod tests;
