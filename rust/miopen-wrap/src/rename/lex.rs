//! Tokens of one source file, read with libclang.
//!
//! Each file is parsed on its own as a C++17 translation unit with
//! `single_file_parse` (no `#include` is opened, so a missing include never
//! matters and parsing is cheap), and the whole main-file range is tokenized.
//! libclang's tokenizer is a raw lexer: preprocessor directives, the bodies of
//! `#if 0` blocks and comments all come back as tokens, which is exactly what a
//! textual rename wants.

use std::path::{Path, PathBuf};

use clang::token::TokenKind;
use clang::Index;

use super::RenameError;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Keyword,
    Punct,
    Literal,
    Comment,
}

#[derive(Debug)]
pub struct Tok {
    pub kind: Kind,
    pub text: String,
    /// Byte offset of the first byte in the file.
    pub start: usize,
    /// 1-based line.
    pub line: u32,
}

impl Tok {
    pub fn end(&self) -> usize {
        self.start + self.text.len()
    }
    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == Kind::Punct && self.text == p
    }
    pub fn is_word(&self, w: &str) -> bool {
        matches!(self.kind, Kind::Ident | Kind::Keyword) && self.text == w
    }
    pub fn is_wordlike(&self) -> bool {
        matches!(self.kind, Kind::Ident | Kind::Keyword)
    }
}

/// Arguments for the per-file parse: C++17, nothing else. Include errors are
/// irrelevant (single-file parse never opens includes).
const ARGS: &[&str] = &["-x", "c++", "-std=c++17", "-w"];

/// Tokenize one file with an existing index.
pub fn tokenize_file(index: &Index, path: &Path) -> Result<Vec<Tok>, RenameError> {
    let tu = index
        .parser(path)
        .arguments(ARGS)
        .single_file_parse(true)
        .skip_function_bodies(true)
        .incomplete(true)
        .keep_going(true)
        .parse()
        .map_err(|e| RenameError::Parse { path: path.to_path_buf(), reason: format!("{e:?}") })?;
    let Some(range) = tu.get_entity().get_range() else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for t in range.tokenize() {
        let kind = match t.get_kind() {
            TokenKind::Identifier => Kind::Ident,
            TokenKind::Keyword => Kind::Keyword,
            TokenKind::Punctuation => Kind::Punct,
            TokenKind::Literal => Kind::Literal,
            TokenKind::Comment => Kind::Comment,
        };
        let loc = t.get_location().get_file_location();
        out.push(Tok { kind, text: t.get_spelling(), start: loc.offset as usize, line: loc.line });
    }
    Ok(out)
}

/// Tokenize many files with one libclang index (the crate allows one
/// `Clang` per process; [`crate::libclang::with_index`] serialises it).
/// Results come back in the order of `paths`.
pub fn tokenize_all(paths: &[PathBuf]) -> Result<Vec<Result<Vec<Tok>, RenameError>>, RenameError> {
    crate::libclang::with_index(|index| paths.iter().map(|p| tokenize_file(index, p)).collect())
        .map_err(RenameError::Libclang)
}

/// Tokenize in-memory text (tests): written to a temporary file first.
#[cfg(test)]
pub fn tokenize_str(text: &str) -> Vec<Tok> {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("t.cpp");
    std::fs::write(&p, text).expect("write");
    let mut r = tokenize_all(&[p]).expect("libclang");
    r.remove(0).expect("tokenize")
}
