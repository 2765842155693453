//! Configuration, routing policy and the FFI-free parts of forwarding.
//!
//! Nothing here touches FFI: the wrapper crate reads the environment and
//! MIOpen's descriptors, hands plain values to this crate, and drives hipDNN
//! with what comes back. Keeping these parts pure makes every rule
//! unit-testable without either library.
//!
//! - [`config`]: `MIOPEN_HIPDNN_FORWARDING`, `MIOPEN_DISABLE_HIPDNN_FOR`, the banner;
//! - [`environment`]: MIOpen's own variables under forwarding (decline or warn);
//! - [`table`]: the forwarding table (entry point -> family -> handler);
//! - [`routing`]: the per-call decision and its reason;
//! - [`conv`]: the convolution problem model (descriptor fields -> graph spec or decline);
//! - [`driver_cmd`]: MIOpen's `MIOPEN_ENABLE_LOGGING_CMD` line for a forwarded convolution;
//! - [`mirrors`]: the MIOpen enumerator values used by number (checked against the header at build time);
//! - [`plan_cache`]: the bounded, thread-safe plan cache and its counters;
//! - [`status`]: hipDNN status -> `miopenStatus_t`.
pub mod config;
pub mod conv;
pub mod driver_cmd;
pub mod environment;
pub mod mirrors;
pub mod plan_cache;
pub mod routing;
pub mod status;
pub mod table;

pub use config::{Config, Mode};
pub use routing::{Decision, Reason, Route};
pub use table::{Direction, Family, Handler};
