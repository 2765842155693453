//! Command-line front end. Each tool family owns its own argument parsing
//! (`<family>::cli_main`), so this file only dispatches on the first word.

const USAGE: &str = "usage: miopen-wrap <command> [options]

commands:
  rename    rename public entry points to their _impl form in a MIOpen source tree
  generate  emit wrapper stubs, miopen_impl.h, export map and manifest from miopen.h
  check     release gates on built or installed libraries

scripts/adopt-miopen-tree.sh runs rename + generate + compile checks on a MIOpen
tree given by path and prints one report.

Run `miopen-wrap <command> --help` for the options of one command.";

pub fn run() -> i32 {
    let args: Vec<String> = std::env::args().collect();
    let Some(cmd) = args.get(1) else {
        eprintln!("{USAGE}");
        return 2;
    };
    // clap in each family expects argv[0]; give it "miopen-wrap <command>".
    let rest: Vec<String> = std::iter::once(format!("miopen-wrap {cmd}")).chain(args[2..].iter().cloned()).collect();
    match cmd.as_str() {
        "rename" => crate::rename::cli_main(&rest),
        "generate" => crate::generate::cli_main(&rest),
        "check" => crate::check::cli_main(&rest),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            0
        }
        other => {
            eprintln!("miopen-wrap: unknown command `{other}`\n\n{USAGE}");
            2
        }
    }
}
