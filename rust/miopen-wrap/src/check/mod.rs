//! `miopen-wrap check` (not implemented yet).
pub fn cli_main(_args: &[String]) -> i32 {
    eprintln!("miopen-wrap check: not implemented yet");
    2
}
