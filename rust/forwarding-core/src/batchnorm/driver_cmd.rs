//! The MIOpenDriver command line MIOpen logs for a batchnorm call under
//! `MIOPEN_ENABLE_LOGGING_CMD`, so that a forwarded batchnorm call (which
//! MIOpen never sees) logs the same line MIOpen would have:
//!
//! `MIOpen(HIP): Command [LogCmdBNorm] ./bin/MIOpenDriver bnorm -n 2 -c 3 -H 4 -W 5 -m 1 --forw 2 -b 0 -s 1 --layout NCHW`
//!
//! The format is MIOpen's (`LogCmdBNorm` and `BnormArgsForMIOpenDriver`,
//! cited in docs/forwarding.md); the test bed's MIOpen writes it the same
//! way for inference, training and backward, and
//! `test/groups/batchnorm/check_bn_driver_line.py` compares the two for all
//! three directions.

use crate::print::Int;
use crate::tensor::{layout_by_strides, miopen_type, Tensor};

/// MIOpen's `BatchNormDirection_t`: which pass the call is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    ForwardInference,
    ForwardTraining,
    Backward,
}

/// What MIOpen's line says of one batchnorm call. The flags are MIOpen's
/// pointer tests: `running` when both running-statistics buffers are given
/// (an inference call's estimates stand in those slots), `saved` when both
/// saved-statistics buffers are.
#[derive(Debug, Clone, Copy)]
pub struct Cmd<'a> {
    pub x: &'a Tensor,
    /// The element type of the statistics' descriptor (MIOpen's `sMeanDesc`:
    /// the estimated mean for inference, the saved mean otherwise).
    pub stats_dtype: u32,
    /// `miopenBatchNormMode_t`, printed as its number.
    pub mode: u32,
    pub direction: Direction,
    pub running: bool,
    pub saved: bool,
}

/// The whole line, newline included, as MIOpen writes it to stderr; `None`
/// for an x of fewer than four dimensions (MIOpen reads past its lengths:
/// there is no line to copy).
pub fn line(c: &Cmd) -> Option<String> {
    arguments(c).map(|a| format!("MIOpen(HIP): Command [LogCmdBNorm] ./bin/MIOpenDriver {a}\n"))
}

/// MIOpenDriver's arguments for the call.
pub fn arguments(c: &Cmd) -> Option<String> {
    let d = &c.x.dims;
    if d.len() < 4 {
        return None;
    }
    let mut s = format!("{}{}", driver_name(c.x.dtype, c.stats_dtype), shape_and_mode(c.x, c.mode));
    s += match c.direction {
        Direction::ForwardInference => " --forw 2 -b 0",
        Direction::ForwardTraining => " --forw 1 -b 0",
        Direction::Backward => " --forw 0 -b 1",
    };
    if c.running {
        s += " -s 1";
    }
    if c.saved {
        s += " -r 1";
    }
    s += &format!(" --layout {}", layout_name(c.x));
    Some(s)
}

/// MIOpen's fusion mode of a batchnorm inference -> activation plan (its
/// `GetFusionMode`).
const FUSION_MODE: u32 = 2;

/// The line MIOpen logs under `MIOPEN_ENABLE_LOGGING_CMD` for an execute of a
/// batchnorm inference -> activation fusion plan whose input is x, newline
/// included (`LogCmdFusion`, mode 2: `LogCmdBnormFusion`, rocm-libraries
/// `projects/miopen/src/fusion.cpp` @ 14386ac and `BnormArgsForMIOpenDriver`
/// in `projects/miopen/src/driver_arguments.cpp` @ 60d7c5f): `CBAInfer`
/// (`CBAInferfp16` for a bf16 plan, MIOpen's test), ` -J 2`, the batchnorm
/// input's shape and mode, ` -I 0` (no inverse variance). `None` for an x of
/// fewer than four dimensions (MIOpen reads past its lengths).
pub fn fusion_line(x: &Tensor, mode: u32) -> Option<String> {
    if x.dims.len() < 4 {
        return None;
    }
    let command = if x.dtype == miopen_type::BFLOAT16 { "CBAInferfp16" } else { "CBAInfer" };
    let args = shape_and_mode(x, mode);
    Some(format!("MIOpen(HIP): Command [LogCmdFusion] ./bin/MIOpenDriver {command} -J {FUSION_MODE}{args} -I 0\n"))
}

/// `-n -c [-D] -H -W` of x (at least 4-D) and `-m <mode>`: MIOpen's
/// `BnormArgsForMIOpenDriver` without the driver's own flags, which the
/// fused plan's line shares ([`fusion_line`]).
fn shape_and_mode(x: &Tensor, mode: u32) -> String {
    let d = &x.dims;
    let mut s = format!(" -n {} -c {}", d[0], d[1]);
    if d.len() == 5 {
        s += &format!(" -D {} -H {} -W {}", d[2], d[3], d[4]);
    } else {
        s += &format!(" -H {} -W {}", d[2], d[3]);
    }
    s + &format!(" -m {}", Int(mode))
}

/// MIOpenDriver's sub-command, after x's type and the statistics' type.
fn driver_name(x: u32, stats: u32) -> &'static str {
    use miopen_type::{BFLOAT16, FLOAT, HALF};
    match (x, stats) {
        (HALF, HALF) => "bnormfp16",
        (BFLOAT16, BFLOAT16) => "bnormbfp16",
        (HALF, FLOAT) => "bnormfp16fp32",
        (BFLOAT16, FLOAT) => "bnormbfp16fp32",
        _ => "bnorm",
    }
}

/// MIOpen's `GetLayout_str` of x: NCHW / NCDHW labels by stride, "UNKNOWN"
/// for another rank.
fn layout_name(x: &Tensor) -> String {
    match x.dims.len() {
        4 => layout_by_strides(x, "NCHW"),
        5 => layout_by_strides(x, "NCDHW"),
        _ => "UNKNOWN".into(),
    }
}

#[cfg(test)]
mod tests;
