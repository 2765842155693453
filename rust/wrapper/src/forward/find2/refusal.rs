//! A call on a hipDNN solution that the wrapper refuses with MIOpen's
//! status (there is no MIOpen solution to leave it to): one line says what
//! was wrong and what MIOpen says of the same call on a solution of its own.
//!
//! MIOpen's words, where its source has them for the same check (ROCm/MIOpen
//! @ 2d1fd997): `deref`'s "Dereferencing nullptr"
//! (`src/include/miopen/errors.hpp`), the null-parameter checks of
//! `miopenSaveSolution` / `miopenGetSolutionSize`
//! (`src/api/find2_0_commons.cpp`), and `Solution::Run`'s workspace check
//! and `RunImpl`'s missing argument (`src/solution.cpp`; the workspace
//! text follows the solver's name there, which a hipDNN solution has none of).

use std::borrow::Cow;
use std::fmt;

use miopen_forwarding_core::find2::argument;
use miopen_forwarding_core::print::Int;

use crate::forward::common::Outcome;

/// What MIOpen does with the same call on a solution of its own.
pub enum Miopen {
    /// Rejects it, saying this.
    Says(Cow<'static, str>),
    /// Rejects it with the same status (the parity tests compare them), in
    /// words its source does not have for this check.
    Rejects,
    /// Runs it: the refusal is hipDNN's limit, not MIOpen's.
    Runs,
    /// Has no such solution: the bytes are the wrapper's blob.
    HasNone,
}

impl fmt::Display for Miopen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Miopen::Says(text) => write!(f, "MIOpen says \"{text}\""),
            Miopen::Rejects => f.write_str("MIOpen rejects it with the same status"),
            Miopen::Runs => f.write_str("MIOpen would run it; hipDNN cannot"),
            Miopen::HasNone => f.write_str("MIOpen has no such solution (the blob is the wrapper's)"),
        }
    }
}

/// `deref` of a null object.
pub const NULL_OBJECT: &str = "Dereferencing nullptr";
/// `miopenGetSolutionSize` with a null `size`.
pub const NULL_SIZE: &str = "Size parameter should not be a nullptr.";
/// `miopenSaveSolution` / `miopenLoadSolution` with a null `data`.
pub const NULL_DATA: &str = "Data parameter should not be a nullptr.";

/// `Solution::Run` given less workspace than the solution needs.
pub fn short_workspace(need: usize, given: usize) -> Miopen {
    Miopen::Says(format!("requires at least {need} workspace, while {given} was provided").into())
}

/// `RunImpl` without an argument the problem has.
pub fn missing_argument(id: u32) -> Miopen {
    let name = match id {
        argument::X => "miopenTensorConvolutionX".to_string(),
        argument::W => "miopenTensorConvolutionW".to_string(),
        argument::Y => "miopenTensorConvolutionY".to_string(),
        other => Int(other).to_string(),
    };
    Miopen::Says(format!("Problem is missing {name} tensor descriptor.").into())
}

/// The refusal: MIOpen's `status`, what was wrong, and what MIOpen says.
pub fn rejected(status: u32, why: impl fmt::Display, miopen: Miopen) -> Outcome {
    Outcome::Refused { status, why: format!("{why}; {miopen}") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use miopen_forwarding_core::status::miopen;

    fn why(o: Outcome) -> String {
        match o {
            Outcome::Refused { why, .. } => why,
            _ => panic!("not a refusal"),
        }
    }

    #[test]
    fn a_refusal_says_what_was_wrong_and_what_miopen_says() {
        let w = why(rejected(miopen::BAD_PARM, "workspace of 47 bytes < the solution's 48", short_workspace(48, 47)));
        assert_eq!(
            w,
            "workspace of 47 bytes < the solution's 48; MIOpen says \"requires at least 48 workspace, while 47 was \
             provided\""
        );
        assert_eq!(
            why(rejected(miopen::INVALID_VALUE, "no argument 2", missing_argument(argument::W))),
            "no argument 2; MIOpen says \"Problem is missing miopenTensorConvolutionW tensor descriptor.\""
        );
        assert!(why(rejected(miopen::BAD_PARM, "x is not aligned", Miopen::Runs))
            .ends_with("; MIOpen would run it; hipDNN cannot"));
        // Every form names MIOpen: a refusal never leaves out what MIOpen does.
        for m in [Miopen::Says(NULL_OBJECT.into()), Miopen::Rejects, Miopen::Runs, Miopen::HasNone] {
            assert!(m.to_string().starts_with("MIOpen "), "{m}");
        }
    }
}
