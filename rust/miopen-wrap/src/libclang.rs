//! One place that owns libclang. The `clang` crate allows a single `Clang`
//! instance per process, so every user (header parser, rename lexer) goes
//! through [`with_index`], which serialises access.

use miopen_forwarding_core::sync::Mutex;

use clang::{Clang, Index};

static LIBCLANG: Mutex<()> = Mutex::new(());

/// Run `f` with a fresh libclang index. Errors if libclang cannot be loaded.
pub fn with_index<T>(f: impl FnOnce(&Index) -> T) -> Result<T, String> {
    let _guard = LIBCLANG.lock().unwrap_or_else(|p| p.into_inner());
    let clang = Clang::new()?;
    let index = Index::new(&clang, false, false);
    Ok(f(&index))
}
