//! What the wrapper writes to stderr, and the one panic boundary.
//!
//! Every line starts with the wrapper's prefix and is one unbuffered
//! `write(2)`, without Rust's stderr lock, so a line is never interleaved
//! mid-way and a forked child never waits on that lock. Every piece of code
//! the C ABI reaches runs inside [`boundary`], so no panic unwinds into C.

use std::io::Write;
use std::mem::ManuallyDrop;
use std::os::fd::FromRawFd;
use std::panic::{catch_unwind, AssertUnwindSafe};

pub use miopen_forwarding_core::config::PREFIX;

/// Writes `line` (newline included) to fd 2 in one call.
pub fn write_stderr(line: &str) {
    // SAFETY: fd 2 is borrowed for the duration of the write and not closed.
    let mut f = ManuallyDrop::new(unsafe { std::fs::File::from_raw_fd(2) });
    let _ = f.write_all(line.as_bytes());
}

/// `<PREFIX>: warning: <message>`.
pub fn warning(message: &str) {
    write_stderr(&format!("{PREFIX}: warning: {message}\n"));
}

/// `<PREFIX>: error: <message>`.
pub fn error(message: &str) {
    write_stderr(&format!("{PREFIX}: error: {message}\n"));
}

/// `<PREFIX>: <message>` (the banner, trace lines).
pub fn line(message: &str) -> String {
    format!("{PREFIX}: {message}\n")
}

/// Runs `f`; if it panics, the panic stops here and `on_panic` gives the
/// value instead (what the C caller then receives).
pub fn boundary<T>(f: impl FnOnce() -> T, on_panic: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|_| on_panic())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_becomes_the_fallback_value() {
        assert_eq!(boundary(|| 7, || 0), 7);
        let quiet = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let got = boundary(|| -> i32 { panic!("in the forwarding layer") }, || -1);
        std::panic::set_hook(quiet);
        assert_eq!(got, -1);
    }

    #[test]
    fn lines_carry_the_prefix() {
        assert_eq!(line("forwarding enabled"), "MIOpen(hipDNN wrapper): forwarding enabled\n");
    }
}
