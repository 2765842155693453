//! One function per forwarded batchnorm entry point, with the entry point's
//! name and C arguments (as the bindings type them), after the entry
//! point's index and the configuration. The generated routed body calls it
//! and runs MIOpen Private on `None`.
