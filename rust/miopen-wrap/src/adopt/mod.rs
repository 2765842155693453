//! placeholder
use clap::Args;
use std::path::PathBuf;

use crate::cli::Exit;

#[derive(Debug, Args)]
pub struct AdoptArgs {
    tree: PathBuf,
}

pub fn cli(_args: &AdoptArgs) -> Exit {
    Exit::CouldNotRun
}
