//! Configuration and routing policy of the MIOpen forwarding wrapper.
//!
//! Nothing here touches FFI: the wrapper crate reads the environment, hands
//! the values to [`config::Config::resolve`], and asks [`routing`] where a
//! call goes. Keeping the policy pure makes every rule unit-testable.
pub mod config;
pub mod routing;

pub use config::{Config, Mode};
pub use routing::{Decision, Reason, Route};
