//! Tools that turn a MIOpen source tree into the public wrapper + private
//! implementation pair: `rename` (source rename to `_impl`), `generate`
//! (stubs, `miopen_impl.h`, export map, manifest), `check` (release gates)
//! and `adopt` (all of it on a MIOpen tree, with the CMake and source edits);
//! `facts` reports what the tests check against.
pub mod adopt;
pub mod check;
pub mod cli;
pub mod exit;
pub mod facts;
pub mod generate;
pub mod header;
pub mod libclang;
pub mod paths;
pub mod rename;
