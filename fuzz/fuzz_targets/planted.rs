#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| miopen_wrap_fuzz_targets::planted::run(data));
