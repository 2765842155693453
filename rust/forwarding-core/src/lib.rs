//! Configuration, routing policy and the FFI-free parts of forwarding.
//!
//! Nothing here touches FFI (but [`sync`]'s ThreadSanitizer annotations, built
//! only in the TSan tree): the wrapper crate reads the environment and
//! MIOpen's descriptors, hands plain values to this crate, and drives hipDNN
//! with what comes back. Keeping these parts pure makes every rule
//! unit-testable without either library.
//!
//! - [`config`]: `MIOPEN_HIPDNN_FORWARDING`, `MIOPEN_DISABLE_HIPDNN_FOR`, the banner;
//! - [`env_number`]: a count read from an environment variable;
//! - [`environment`]: MIOpen's own variables under forwarding (decline or warn): every family's and each group's;
//! - [`row`]: what a family group's data row holds (each group defines its
//!   row in its own folder, `<group>/group.rs`);
//! - [`groups`]: the one list of the groups' rows;
//! - [`family`]: the op families and their groups (handles into the rows), `FamilySet`;
//! - [`table`]: the forwarding table (entry point -> family) and the hooks, from the rows;
//! - [`routing`]: the per-call decision and its reason;
//! - [`tensor`]: the family-neutral problem model (tensors, element types, declines);
//! - [`ops`]: op layers several groups share: [`ops::conv`], the convolution
//!   (problem, graph spec or decline, fused epilogue, `MIOPEN_ENABLE_LOGGING_CMD` lines);
//! - [`conv`]: the convolution group's front end over [`ops::conv`] (the legacy API);
//! - [`fusion`]: the fusion-plan group's front end (recorded operators -> the fused conv or decline);
//! - [`batchnorm`]: the batchnorm group's problem model;
//! - [`graph_key`]: the plan key: a MIOpen handle and a family's own graph spec;
//! - [`mirrors`]: the MIOpen enumerator values used by number, shared and per group (checked against the header at build time);
//! - [`handle_workspace`]: the cap on the workspace a MIOpen handle owns for hipDNN plans;
//! - [`plan_cache`]: the bounded, thread-safe plan cache and its counters;
//! - [`per_thread`]: counters each thread bumps on a cache line of its own, summed when read;
//! - [`print`]: values in messages as MIOpen prints them (enums as `int`, floats as `%g`);
//! - [`status`]: hipDNN status -> `miopenStatus_t`;
//! - [`sync`]: std's `Mutex`, visible to ThreadSanitizer in the TSan tree;
//! - [`stub_asm`]: the exported stubs' machine code, one template per ABI.
pub mod batchnorm;
pub mod config;
pub mod conv;
pub mod env_number;
pub mod environment;
pub mod family;
pub mod find2;
pub mod fusion;
pub mod graph_key;
pub mod groups;
pub mod handle_workspace;
pub mod mirrors;
pub mod ops;
pub mod per_thread;
pub mod plan_cache;
pub mod print;
pub mod routing;
pub mod row;
pub mod status;
pub mod stub_asm;
pub mod sync;
pub mod table;
pub mod tensor;

pub use config::{Config, Mode};
pub use family::{Family, FamilySet, Group};
pub use routing::{Decision, Reason, Route};
