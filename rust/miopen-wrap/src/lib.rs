//! Tools that turn a MIOpen source tree into the public wrapper + private
//! implementation pair: `rename` (source rename to `_impl`), `generate`
//! (stubs, `miopen_impl.h`, export map, manifest) and `check` (release gates).
pub mod check;
pub mod cli;
pub mod generate;
pub mod header;
pub mod libclang;
pub mod rename;
