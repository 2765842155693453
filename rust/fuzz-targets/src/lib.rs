//! The fuzz targets: each takes arbitrary bytes, makes the input one of
//! the wrapper's parsers or translations takes from them, and checks what
//! must hold of the answer. A target never panics on its own account: a
//! panic (or, under the fuzzer's AddressSanitizer, a bad access) is a
//! finding.
//!
//! `fuzz/` (a cargo-fuzz layout, its own workspace) drives them with
//! libFuzzer; `tests/corpus.rs` replays the committed corpora on stable.

pub mod adopt;
pub mod batchnorm;
pub mod blob;
pub mod bytes;
pub mod conv;
pub mod env;
pub mod fusion;
pub mod planted;

/// A target: any bytes in, a panic on a finding.
pub type Target = fn(&[u8]);

/// Every target by the name its corpus directory and fuzz binary carry.
pub const TARGETS: &[(&str, Target)] = &[
    ("blob", blob::run),
    ("conv", conv::run),
    ("fusion", fusion::run),
    ("batchnorm", batchnorm::run),
    ("env", env::run),
    ("adopt", adopt::run),
];
