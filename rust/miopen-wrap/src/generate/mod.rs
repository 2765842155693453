//! `miopen-wrap generate` (not implemented yet).
pub fn cli_main(_args: &[String]) -> i32 {
    eprintln!("miopen-wrap generate: not implemented yet");
    2
}
