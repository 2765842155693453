//! The `--report` JSON and the human summary.
//!
//! Schema (all paths relative to the source tree unless noted):
//! ```text
//! {
//!   "tool": "miopen-wrap rename", "schema_version": 1,
//!   "header": "<path as given>", "source": "<path>", "output": "<path>"|null,
//!   "mode": "copy"|"in-place"|"check",
//!   "elapsed_ms": u64,
//!   "files_scanned": u64,        // source files by extension (header and excludes left out)
//!   "files_tokenized": u64,      // of those, files whose text contains "miopen"
//!   "files_touched": u64,        // files whose content the rename changes (or would, --check)
//!   "touched_files": [path],
//!   "files_written": u64,        // files actually written (copy mode: changed outputs only)
//!   "public_names": {"total", "beta", "non_beta"},
//!   "public_names_without_definition": [name],
//!   "definitions_renamed": {"total", "extern_c", "extern_c_block", "bare",
//!                           "with_miopen_export", "survivors"},
//!   "declarations_renamed": u64,
//!   "call_sites_renamed": u64,   // every other renamed occurrence (calls, references, macros)
//!   "already_renamed_occurrences": u64,   // `_impl` occurrences present before this run
//!   "blocks": {"files_with_block", "blocks_written"},
//!   "survivors": [{"name", "file", "line", "linkage", "already_renamed"}],
//!   "other_c_linkage_definitions": [{"name", "file", "line", "linkage"}],
//!   "collisions": [{"name", "impl_name", "file", "line"}],
//!   "left_alone_in_strings_comments": {"tokens", "occurrences", "string_tokens", "comment_tokens"},
//!   "func_name_warnings": [{"name", "file", "line", "via"}],
//!   "definitions": [{"name", "file", "line", "style", "export", "survivor"}]
//! }
//! ```

use serde::Serialize;

use super::scan::Linkage;

#[derive(Debug, Default, Serialize)]
pub struct PublicNames {
    pub total: usize,
    pub beta: usize,
    pub non_beta: usize,
}

#[derive(Debug, Default, Serialize)]
pub struct DefinitionCounts {
    pub total: usize,
    pub extern_c: usize,
    pub extern_c_block: usize,
    pub bare: usize,
    pub with_miopen_export: usize,
    pub survivors: usize,
}

#[derive(Debug, Default, Serialize)]
pub struct BlockCounts {
    pub files_with_block: usize,
    pub blocks_written: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Survivor {
    pub name: String,
    pub file: String,
    pub line: u32,
    pub linkage: String,
    pub already_renamed: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct CDef {
    pub name: String,
    pub file: String,
    pub line: u32,
    pub linkage: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Collision {
    pub name: String,
    pub impl_name: String,
    pub file: String,
    pub line: u32,
}

#[derive(Debug, Default, Serialize)]
pub struct LeftAlone {
    /// String-literal and comment tokens holding a renamed name as a whole word.
    pub tokens: usize,
    /// Whole-word occurrences inside those tokens.
    pub occurrences: usize,
    pub string_tokens: usize,
    pub comment_tokens: usize,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct FuncNameWarning {
    pub name: String,
    pub file: String,
    pub line: u32,
    /// `__func__`, `__FUNCTION__`, `__PRETTY_FUNCTION__`, or the macro that expands to one.
    pub via: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, Eq, PartialOrd, Ord)]
pub struct Definition {
    pub name: String,
    pub file: String,
    pub line: u32,
    /// `extern-c`, `extern-c-block` or `bare`.
    pub style: String,
    pub export: bool,
    pub survivor: bool,
}

#[derive(Debug, Default, Serialize)]
pub struct Report {
    pub tool: &'static str,
    pub schema_version: u32,
    pub header: String,
    pub source: String,
    pub output: Option<String>,
    pub mode: &'static str,
    pub elapsed_ms: u64,
    pub files_scanned: usize,
    pub files_tokenized: usize,
    pub files_touched: usize,
    pub touched_files: Vec<String>,
    pub files_written: usize,
    pub public_names: PublicNames,
    pub public_names_without_definition: Vec<String>,
    pub definitions_renamed: DefinitionCounts,
    pub declarations_renamed: usize,
    pub call_sites_renamed: usize,
    pub already_renamed_occurrences: usize,
    pub blocks: BlockCounts,
    pub survivors: Vec<Survivor>,
    pub other_c_linkage_definitions: Vec<CDef>,
    pub collisions: Vec<Collision>,
    pub left_alone_in_strings_comments: LeftAlone,
    pub func_name_warnings: Vec<FuncNameWarning>,
    pub definitions: Vec<Definition>,
}

pub fn linkage_str(l: Linkage) -> &'static str {
    match l {
        Linkage::None => "bare",
        Linkage::ExternC => "extern-c",
        Linkage::ExternCBlock => "extern-c-block",
    }
}

impl Report {
    pub fn summary(&self) -> String {
        let mut s = String::new();
        let d = &self.definitions_renamed;
        let la = &self.left_alone_in_strings_comments;
        s += &format!(
            "miopen-wrap rename ({}): {} -> {}\n",
            self.mode,
            self.source,
            self.output.as_deref().unwrap_or(&self.source)
        );
        s += &format!(
            "  public names: {} ({} beta, {} not beta); {} without a definition in the tree\n",
            self.public_names.total,
            self.public_names.beta,
            self.public_names.non_beta,
            self.public_names_without_definition.len()
        );
        s += &format!(
            "  files: {} scanned, {} tokenized, {} touched, {} written\n",
            self.files_scanned, self.files_tokenized, self.files_touched, self.files_written
        );
        s += &format!(
            "  renamed: {} definitions (extern \"C\" {}, extern \"C\" block {}, bare {}; {} with MIOPEN_EXPORT; {} survivors), {} declarations, {} call sites/references\n",
            d.total, d.extern_c, d.extern_c_block, d.bare, d.with_miopen_export, d.survivors, self.declarations_renamed, self.call_sites_renamed
        );
        if self.already_renamed_occurrences > 0 {
            s += &format!("  already in _impl form: {} occurrences\n", self.already_renamed_occurrences);
        }
        s += &format!(
            "  private declaration blocks: {} files, {} written/updated\n",
            self.blocks.files_with_block, self.blocks.blocks_written
        );
        s += &format!(
            "  left alone: {} occurrences in {} string/comment tokens ({} strings, {} comments)\n",
            la.occurrences, la.tokens, la.string_tokens, la.comment_tokens
        );
        s += &format!("  survivors (exported C functions not in the header, renamed): {}\n", self.survivors.len());
        for v in &self.survivors {
            s += &format!(
                "    {} ({}:{}{})\n",
                v.name,
                v.file,
                v.line,
                if v.already_renamed { ", already renamed" } else { "" }
            );
        }
        s += &format!("  other C-linkage definitions (left alone): {}\n", self.other_c_linkage_definitions.len());
        for v in &self.other_c_linkage_definitions {
            s += &format!("    {} ({}:{})\n", v.name, v.file, v.line);
        }
        if !self.public_names_without_definition.is_empty() {
            s += "  public names with no definition found:\n";
            for n in &self.public_names_without_definition {
                s += &format!("    {n}\n");
            }
        }
        let mut fw: Vec<&str> = self.func_name_warnings.iter().map(|w| w.name.as_str()).collect();
        fw.dedup();
        if !fw.is_empty() {
            s += &format!(
                "  warning: {} renamed functions use __func__/__FUNCTION__/__PRETTY_FUNCTION__ (directly or via a macro); they now log the _impl name\n",
                fw.len()
            );
        }
        s += &format!("  collisions: {}\n", self.collisions.len());
        for c in &self.collisions {
            s += &format!(
                "    {} already exists at {}:{} (would clash with the rename of {})\n",
                c.impl_name, c.file, c.line, c.name
            );
        }
        s += &format!("  time: {:.2} s\n", self.elapsed_ms as f64 / 1000.0);
        s
    }
}
