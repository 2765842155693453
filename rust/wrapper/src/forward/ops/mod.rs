//! Op layers several groups' handlers share: the FFI half of
//! `miopen_forwarding_core::ops`. A group's folder is a front end that holds
//! only what its MIOpen API adds.
//!
//! - [`conv`]: the convolution, behind the legacy convolution API
//!   (`forward::conv`), fusion plans (`forward::fusion`) and Find 2.0
//!   (`forward::find2`).
pub mod conv;
