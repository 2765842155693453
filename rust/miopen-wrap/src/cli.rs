//! Command-line front end: one subcommand per tool family.
pub fn run() -> i32 {
    eprintln!("miopen-wrap: no subcommands wired yet");
    2
}
