//! rename
