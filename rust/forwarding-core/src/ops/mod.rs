//! Op layers: the model of one operation that several groups' front ends
//! share. A front end (a group's folder) holds only what its MIOpen API
//! adds; what the operation is, how it translates to a hipDNN graph and
//! how MIOpen logs it lives here once.
//!
//! - [`conv`]: the convolution, shared by the legacy convolution API
//!   (`crate::conv`), fusion plans (`crate::fusion`) and Find 2.0
//!   (`crate::find2`).
pub mod conv;
