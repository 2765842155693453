//! Errors that stop a gate from being evaluated at all (as opposed to a gate
//! that ran and found a problem, which is a `FAIL` verdict, not an error).
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("cannot read {}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{}: cannot parse ELF: {source}", path.display())]
    Elf {
        path: PathBuf,
        #[source]
        source: object::read::Error,
    },
    #[error("{}: not an ELF file (detected: {kind})", path.display())]
    NotElf { path: PathBuf, kind: String },
    #[error("{}: expected a shared library (ET_DYN with a dynamic section)", path.display())]
    NotSharedLibrary { path: PathBuf },
    #[error("{}: expected a shared library or relocatable object", path.display())]
    NotLinkable { path: PathBuf },
    #[error("cannot run `{program}`: {source}")]
    Spawn {
        program: String,
        #[source]
        source: std::io::Error,
    },
    #[error("`{program}` could not compare the libraries (exit status {status}): {detail}")]
    ToolFailed { program: String, status: String, detail: String },
    #[error("{}: {source}", path.display())]
    Walk {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// An `--ignore` glob that does not parse (the message names it).
    #[error("{0}")]
    Pattern(String),
}

pub type Result<T> = std::result::Result<T, CheckError>;
