//! `hipdnn-abi`: generates from hipDNN's ABI data file what is not Rust (the
//! Rust constants come from hipdnn-backend's build script).
//!
//!   hipdnn-abi c-headers --data <abi.toml> --out-dir <dir> [--renumber <C_NAME>=<value>]
//!
//! writes the mini hipDNN's C headers into `<dir>` (test/mini-hipdnn's CMake
//! build runs it). `--renumber` is the negative control: the headers of a
//! copy of the data with that one number changed, for a test bed the wrapper
//! must then refuse (test/mini-hipdnn/CMakeLists.txt). The arguments are
//! parsed by hand: this crate is also a build dependency of hipdnn-backend,
//! so it stays small.

use std::path::PathBuf;
use std::process::ExitCode;

use hipdnn_abi::{c_out, Abi, Error};

const USAGE: &str = "usage: hipdnn-abi c-headers --data <abi.toml> --out-dir <dir> [--renumber <C_NAME>=<value>]";

/// The parsed command line of `c-headers`.
#[derive(Debug, Default, PartialEq)]
struct CHeaders {
    data: PathBuf,
    out_dir: PathBuf,
    renumber: Option<(String, i64)>,
}

fn parse(args: &[String]) -> Result<CHeaders, String> {
    let (command, rest) = args.split_first().ok_or("no command")?;
    if command != "c-headers" {
        return Err(format!("unknown command `{command}`"));
    }
    let (mut data, mut out_dir, mut renumber) = (None, None, None);
    let mut it = rest.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let slot = match flag.as_str() {
            "--data" => &mut data,
            "--out-dir" => &mut out_dir,
            "--renumber" => &mut renumber,
            _ => return Err(format!("unknown option `{flag}`")),
        };
        if slot.replace(value.clone()).is_some() {
            return Err(format!("{flag} given twice"));
        }
    }
    let renumber = match renumber {
        None => None,
        Some(r) => {
            let (name, value) = r.split_once('=').ok_or("--renumber expects C_NAME=VALUE")?;
            let value = value.parse().map_err(|e| format!("--renumber: `{value}` is not a number: {e}"))?;
            Some((name.to_string(), value))
        }
    };
    Ok(CHeaders {
        data: data.ok_or("--data is required")?.into(),
        out_dir: out_dir.ok_or("--out-dir is required")?.into(),
        renumber,
    })
}

fn run(cmd: &CHeaders) -> Result<(), Error> {
    let mut abi = Abi::load(&cmd.data)?;
    if let Some((name, value)) = &cmd.renumber {
        abi.renumber(name, *value)?;
    }
    c_out::write(&abi, &cmd.out_dir).map(|_| ())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cmd = match parse(&args) {
        Ok(cmd) => cmd,
        Err(e) => {
            eprintln!("hipdnn-abi: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&cmd) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("hipdnn-abi: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn the_command_line_is_read_strictly() {
        let full = parse(&args("c-headers --data a.toml --out-dir d --renumber HIPDNN_X=7")).unwrap();
        assert_eq!(full.renumber, Some(("HIPDNN_X".to_string(), 7)));
        assert_eq!((full.data, full.out_dir), ("a.toml".into(), "d".into()));
        for (bad, why) in [
            ("", "no command"),
            ("headers --data a", "unknown command"),
            ("c-headers --data a.toml", "--out-dir is required"),
            ("c-headers --data a --out-dir d --data b", "given twice"),
            ("c-headers --data a --out-dir", "needs a value"),
            ("c-headers --data a --out-dir d --renumber X", "C_NAME=VALUE"),
            ("c-headers --data a --out-dir d --renumber X=ten", "not a number"),
            ("c-headers --data a --out-dir d --verbose 1", "unknown option"),
        ] {
            let err = parse(&args(bad)).unwrap_err();
            assert!(err.contains(why), "{bad:?}: {err}");
        }
    }
}
