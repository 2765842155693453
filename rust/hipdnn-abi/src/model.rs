//! The data file's shape (its header comment documents every key) and the
//! rules a file must meet before anything is generated from it.

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

use serde::Deserialize;

/// What is wrong with a data file, in words that name the entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error(pub String);

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Error {}

fn fail<T>(msg: impl Into<String>) -> Result<T, Error> {
    Err(Error(msg.into()))
}

/// The whole data file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Abi {
    #[serde(rename = "enum")]
    pub enums: Vec<CEnum>,
    #[serde(rename = "define", default)]
    pub defines: Vec<Define>,
}

/// One C enum.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CEnum {
    pub c_type: String,
    pub header: String,
    /// The module of `hipdnn_backend::abi`; `None`: only the test bed uses it.
    pub rust: Option<String>,
    pub doc: String,
    pub prefix: String,
    #[serde(default)]
    pub suffix: String,
    /// The name reported for a value outside the enum.
    pub unknown: Option<String>,
    pub source: String,
    pub values: Vec<Value>,
}

/// One enumerator.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Value {
    pub name: String,
    pub value: i64,
    #[serde(default)]
    pub testbed_only: bool,
    pub c_name: Option<String>,
    pub note: Option<String>,
    pub section: Option<String>,
    pub source: Option<String>,
}

/// One `#define` of the test bed's headers.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Define {
    pub name: String,
    pub value: i64,
    pub header: String,
    pub doc: String,
    pub source: String,
}

impl CEnum {
    /// The C spelling of `v`: prefix + name + suffix, a trailing `_EXT` of
    /// the name kept last, unless the value spells itself (`c_name`).
    pub fn c_name(&self, v: &Value) -> String {
        v.c_name.clone().unwrap_or_else(|| self.rule_name(&v.name))
    }

    fn rule_name(&self, name: &str) -> String {
        let (stem, ext) = name.strip_suffix("_EXT").map_or((name, ""), |s| (s, "_EXT"));
        format!("{}{stem}{}{ext}", self.prefix, self.suffix)
    }

    /// The values the wrapper has constants for (none without a module).
    pub fn wrapper_values(&self) -> impl Iterator<Item = &Value> {
        self.values.iter().filter(|v| self.rust.is_some() && !v.testbed_only)
    }
}

impl Abi {
    /// Parses and validates the text of a data file.
    pub fn parse(text: &str) -> Result<Abi, Error> {
        let abi: Abi = toml::from_str(text).map_err(|e| Error(format!("not a hipDNN ABI data file: {e}")))?;
        abi.validate()?;
        Ok(abi)
    }

    /// Reads, parses and validates a data file.
    pub fn load(path: &Path) -> Result<Abi, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error(format!("cannot read {}: {e}", path.display())))?;
        Abi::parse(&text).map_err(|e| Error(format!("{}: {e}", path.display())))
    }

    /// The headers, in the order of the data file, each with its enum or
    /// its defines.
    pub fn headers(&self) -> Vec<&str> {
        let mut seen = Vec::new();
        let all = self.enums.iter().map(|e| e.header.as_str()).chain(self.defines.iter().map(|d| d.header.as_str()));
        for h in all {
            if !seen.contains(&h) {
                seen.push(h);
            }
        }
        seen
    }

    /// Negative control: the value whose C name is `c_name` set to `value`,
    /// as in a copy of the data file with that one number changed. The
    /// result is validated again.
    pub fn renumber(&mut self, c_name: &str, value: i64) -> Result<(), Error> {
        let mut found = false;
        for e in &mut self.enums {
            let hit = e.values.iter().position(|v| e.c_name(v) == c_name);
            if let Some(i) = hit {
                e.values[i].value = value;
                e.values.sort_by_key(|v| v.value);
                found = true;
            }
        }
        for d in &mut self.defines {
            if d.name == c_name {
                d.value = value;
                found = true;
            }
        }
        if !found {
            return fail(format!("renumber: no value is spelled {c_name} in C"));
        }
        self.validate()
    }

    fn validate(&self) -> Result<(), Error> {
        if self.enums.is_empty() {
            return fail("no [[enum]]");
        }
        let mut c_names = BTreeSet::new();
        let mut modules = BTreeSet::new();
        let mut enum_headers = BTreeSet::new();
        for e in &self.enums {
            e.validate()?;
            if !enum_headers.insert(&e.header) {
                return fail(format!("{}: a header holds one enum, {} holds two", e.c_type, e.header));
            }
            if let Some(m) = &e.rust {
                if !modules.insert(m) {
                    return fail(format!("{}: module {m} is used twice", e.c_type));
                }
            }
            for c in
                std::iter::once(e.c_type.clone()).chain(e.values.iter().map(|v| e.c_name(v))).chain(e.unknown.clone())
            {
                if !c_names.insert(c.clone()) {
                    return fail(format!("{}: the C name {c} is declared twice", e.c_type));
                }
            }
        }
        for d in &self.defines {
            d.validate()?;
            if enum_headers.contains(&d.header) {
                return fail(format!("{}: {} holds an enum; a define needs a header of its own", d.name, d.header));
            }
            if !c_names.insert(d.name.clone()) {
                return fail(format!("{}: the C name is declared twice", d.name));
            }
        }
        Ok(())
    }
}

impl CEnum {
    fn validate(&self) -> Result<(), Error> {
        let who = &self.c_type;
        declaration(who, &self.header, &self.doc, &self.source)?;
        c_identifier(who, &self.prefix)?;
        if let Some(m) = &self.rust {
            if m.is_empty() || !m.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
                return fail(format!("{who}: module `{m}` is not a lowercase Rust identifier"));
            }
        }
        if let Some(u) = &self.unknown {
            if self.rust.is_none() {
                return fail(format!("{who}: `unknown` names values for the Rust module, and it has none"));
            }
            c_identifier(who, u)?;
        }
        if self.values.is_empty() {
            return fail(format!("{who}: no values"));
        }
        let mut last: Option<i64> = None;
        for v in &self.values {
            self.validate_value(v)?;
            if last.is_some_and(|l| v.value <= l) {
                return fail(format!(
                    "{who}: {} = {} is not above the value before it (ascending, unique)",
                    v.name, v.value
                ));
            }
            last = Some(v.value);
        }
        Ok(())
    }

    fn validate_value(&self, v: &Value) -> Result<(), Error> {
        let who = format!("{}.{}", self.c_type, v.name);
        if v.name.is_empty()
            || !v.name.starts_with(|c: char| c.is_ascii_uppercase())
            || !v.name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
        {
            return fail(format!("{who}: a name is an uppercase identifier"));
        }
        if i32::try_from(v.value).is_err() {
            return fail(format!("{who}: {} does not fit a C enum (int)", v.value));
        }
        if v.testbed_only && self.rust.is_none() {
            return fail(format!("{who}: testbed_only in an enum the wrapper has no module for (all of it is)"));
        }
        if let Some(c) = &v.c_name {
            c_identifier(&who, c)?;
            if *c == self.rule_name(&v.name) {
                return fail(format!("{who}: c_name {c} is what the spelling rule gives; leave it out"));
            }
        } else {
            c_identifier(&who, &self.c_name(v))?;
        }
        for text in [&v.note, &v.section].into_iter().flatten() {
            comment_text(&who, text)?;
        }
        if let Some(s) = &v.source {
            citation(&who, s)?;
        }
        Ok(())
    }
}

impl Define {
    fn validate(&self) -> Result<(), Error> {
        declaration(&self.name, &self.header, &self.doc, &self.source)
    }
}

/// What an enum and a define both have: a C name, a header, a comment, a source.
fn declaration(name: &str, header: &str, doc: &str, source: &str) -> Result<(), Error> {
    c_identifier(name, name)?;
    header_file(name, header)?;
    comment_text(name, doc)?;
    citation(name, source)
}

fn c_identifier(who: &str, s: &str) -> Result<(), Error> {
    let ok = s.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok {
        Ok(())
    } else {
        fail(format!("{who}: `{s}` is not a C identifier"))
    }
}

fn header_file(who: &str, s: &str) -> Result<(), Error> {
    match s.strip_suffix(".h") {
        Some(stem) if c_identifier(who, stem).is_ok() => Ok(()),
        _ => fail(format!("{who}: header `{s}` is not a plain `Name.h`")),
    }
}

/// Text that goes into a C comment and a Rust doc comment: one line of
/// printable characters that cannot end the comment.
fn comment_text(who: &str, s: &str) -> Result<(), Error> {
    if s.trim().is_empty() || s.chars().any(char::is_control) || s.contains("*/") || s.contains("/*") {
        return fail(format!("{who}: comment text `{s}` must be one non-empty line without `/*` or `*/`"));
    }
    Ok(())
}

/// A source is cited as `file @ commit`.
fn citation(who: &str, s: &str) -> Result<(), Error> {
    comment_text(who, s)?;
    let commit =
        s.split_once('@').map(|(_, rest)| rest.trim_start().chars().take_while(char::is_ascii_hexdigit).count());
    if commit.is_some_and(|n| n >= 7) {
        Ok(())
    } else {
        fail(format!("{who}: source `{s}` must cite `file @commit` (at least 7 hex digits)"))
    }
}

#[cfg(test)]
pub(crate) mod tests;
