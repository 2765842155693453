//! The Find 2.0 group: MIOpen's problem API for convolution problems
//! (family `conv_find2`; `convolution` is its umbrella).
//!
//! Problems and find options are opaque MIOpen objects without getters, so
//! their calls run on MIOpen Private and the wrapper records what it needs
//! of them ([`records`]). A search whose problem hipDNN can run returns the
//! wrapper's own solution objects ([`solutions`]): every call that takes a
//! solution looks its address up there and answers for a hipDNN solution,
//! or leaves MIOpen's own solutions to MIOpen Private.
//!
//! - [`entry`]: one function per forwarded entry point;
//! - `records`: the problems' and options' recorded contents;
//! - `solutions`: the hipDNN solution objects;
//! - `handlers`: the search and the run;
//! - `queries`: save, load, destroy and the getters of a hipDNN solution;
//! - `refusal`: a call on a hipDNN solution refused with MIOpen's status;
//! - [`group`]: the group's runtime row (release, hipDNN probes).

pub mod entry;
pub mod group;
mod handlers;
mod queries;
mod records;
mod refusal;
mod solutions;
