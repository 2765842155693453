//! The MIOpenDriver line MIOpen logs for a fusion plan's execute under
//! `MIOPEN_ENABLE_LOGGING_CMD` (its `LogCmdFusion`), for the plans the
//! wrapper forwards, so that a forwarded execute (which MIOpen never sees)
//! logs the line MIOpen would have:
//!
//! `MIOpen(HIP): Command [LogCmdFusion] ./bin/MIOpenDriver CBAInfer -J 4 -n 1 -c 2 -H 4 -W 4 -k 3 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -g 1`
//!
//! conv -> bias -> activation is MIOpen's fusion mode 4 (`CBAInfer`),
//! conv -> activation mode 5 (`CAInfer`); the sub-command takes the input
//! type's suffix and the convolution's shape follows as in a convolution's
//! line, less its driver name, `-m`, `-F` and `-t`. The test bed's MIOpen
//! writes it the same way (`test/mini-miopen/src/fusion_logging.cpp`).

use super::{output_of, shape_of, Plan};
use crate::conv::driver_cmd::shape;
use crate::conv::{miopen_type, Direction, Problem};

/// The whole line, newline included, for a plan the wrapper forwards; None
/// for any other plan (MIOpen Private runs those and writes their line).
pub fn line(plan: &Plan) -> Option<String> {
    let (conv, w, bias, _) = shape_of(&plan.ops).ok()?;
    let y = output_of(&plan.input, conv, w).ok()?;
    let (sub_command, mode) = if bias.is_some() { ("CBAInfer", 4) } else { ("CAInfer", 5) };
    let p = Problem { direction: Direction::Forward, x: plan.input.clone(), w: w.clone(), y, conv: conv.clone() };
    let mut s = format!("{sub_command}{} -J {mode}", type_suffix(p.x.dtype));
    shape(&mut s, &p);
    s += &format!(" -g {}", p.conv.groups);
    Some(format!("MIOpen(HIP): Command [LogCmdFusion] ./bin/MIOpenDriver {s}\n"))
}

/// MIOpen's suffix of a driver sub-command after the input's type.
fn type_suffix(dtype: u32) -> &'static str {
    match dtype {
        miopen_type::HALF => "fp16",
        miopen_type::BFLOAT16 => "bfp16",
        miopen_type::INT8 => "int8",
        _ => "",
    }
}
