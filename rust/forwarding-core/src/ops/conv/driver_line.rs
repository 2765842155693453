//! The MIOpenDriver command lines MIOpen logs under
//! `MIOPEN_ENABLE_LOGGING_CMD` for a convolution, plain or fused, so that a
//! forwarded call (which MIOpen never sees) logs the line MIOpen would have:
//!
//! `MIOpen(HIP): Command [LogCmdConvolution] ./bin/MIOpenDriver conv -n 1 -c 3 -H 8 -W 8 -k 4 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -m conv -g 1 -F 1 -t 1`
//!
//! `MIOpen(HIP): Command [LogCmdFusion] ./bin/MIOpenDriver CBAInfer -J 4 -n 1 -c 2 -H 4 -W 4 -k 3 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -g 1`
//!
//! The format is MIOpen's (`ConvArgsForMIOpenDriver`, `MIOPEN_LOG_DRIVER_CMD`
//! and its fusion plan's `LogCmdFusion`); the test bed's MIOpen writes the
//! same lines and the environment tests compare the two byte for byte.
//! What differs between the lines is data: [`LINES`] (which logger, which
//! sub-command, which flags), [`SPATIAL`] (the flags of a 2-D and a 3-D
//! shape), the input type's suffix and the direction's `-F`.

use std::fmt::Write;

use super::problem::{miopen_mode, Problem};
use crate::tensor::{layout_by_strides, miopen_type};

/// Which of the lines MIOpen logs: a row of [`LINES`] each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmdKind {
    /// `miopenConvolution{Forward,BackwardData,BackwardWeights}`.
    Run,
    /// `miopenConvolution*Immediate`.
    Immediate,
    /// `miopenFindConvolution*Algorithm`.
    Find,
    /// `miopenFindSolutions` of a convolution problem.
    FindSolutions,
    /// `miopenRunSolution` of a solution of this MIOpen solver id.
    RunSolution(u64),
    /// A fusion plan's execute, conv -> bias -> activation (MIOpen's fusion mode 4).
    FusionConvBiasActivation,
    /// A fusion plan's execute, conv -> activation (mode 5).
    FusionConvActivation,
}

/// What one kind of line holds besides the problem's shape.
#[derive(Debug, PartialEq, Eq)]
pub struct LineRow {
    /// MIOpen's logging helper, named in the line.
    pub logger: &'static str,
    /// MIOpenDriver's sub-command, before the input type's suffix.
    pub command: &'static str,
    /// `-J`: MIOpen's fusion mode.
    pub fusion_mode: Option<u32>,
    /// `-m <mode>` before `-g`, `-F <direction> -t 1` after it: a
    /// convolution call's line (a fusion plan's has `-g` alone).
    pub call_flags: bool,
    /// `-S <solver id>`: MIOpen's solver id of the call (0 where the call
    /// names none).
    pub solver: bool,
}

/// The lines, in [`CmdKind`]'s order.
pub static LINES: [LineRow; 7] = [
    LineRow { logger: "LogCmdConvolution", command: "conv", fusion_mode: None, call_flags: true, solver: false },
    LineRow { logger: "LogCmdConvolution", command: "conv", fusion_mode: None, call_flags: true, solver: true },
    LineRow { logger: "LogCmdFindConvolution", command: "conv", fusion_mode: None, call_flags: true, solver: false },
    LineRow { logger: "LogCmdFindConvolution", command: "conv", fusion_mode: None, call_flags: true, solver: true },
    LineRow { logger: "LogCmdConvolution", command: "conv", fusion_mode: None, call_flags: true, solver: true },
    LineRow { logger: "LogCmdFusion", command: "CBAInfer", fusion_mode: Some(4), call_flags: false, solver: false },
    LineRow { logger: "LogCmdFusion", command: "CAInfer", fusion_mode: Some(5), call_flags: false, solver: false },
];

impl CmdKind {
    /// The kind's row and the solver id its `-S` names.
    pub fn row(self) -> (&'static LineRow, u64) {
        match self {
            CmdKind::Run => (&LINES[0], 0),
            CmdKind::Immediate => (&LINES[1], 0),
            CmdKind::Find => (&LINES[2], 0),
            CmdKind::FindSolutions => (&LINES[3], 0),
            CmdKind::RunSolution(id) => (&LINES[4], id),
            CmdKind::FusionConvBiasActivation => (&LINES[5], 0),
            CmdKind::FusionConvActivation => (&LINES[6], 0),
        }
    }
}

/// The flags of a shape of one spatial rank: the input's and the filter's
/// spatial lengths, pads, strides, dilations (in that order after `-n`,
/// `-c` and `-k`), what follows them, and the plain layout (the one whose
/// tensors name no `--*_layout`).
pub struct SpatialFlags {
    pub rank: usize,
    pub input: &'static [&'static str],
    pub filter: &'static [&'static str],
    pub pads: &'static [&'static str],
    pub strides: &'static [&'static str],
    pub dilations: &'static [&'static str],
    pub tail: &'static str,
    pub plain_layout: &'static str,
}

/// The shapes MIOpen writes (a 1-D problem's line has none).
pub const SPATIAL: [SpatialFlags; 2] = [
    SpatialFlags {
        rank: 2,
        input: &["-H", "-W"],
        filter: &["-y", "-x"],
        pads: &["-p", "-q"],
        strides: &["-u", "-v"],
        dilations: &["-l", "-j"],
        tail: "",
        plain_layout: "NCHW",
    },
    SpatialFlags {
        rank: 3,
        input: &["--in_d", "-H", "-W"],
        filter: &["--fil_d", "-y", "-x"],
        pads: &["--pad_d", "-p", "-q"],
        strides: &["--conv_stride_d", "-u", "-v"],
        dilations: &["--dilation_d", "-l", "-j"],
        tail: " --spatial_dim 3",
        plain_layout: "NCDHW",
    },
];

/// MIOpen's suffix of a sub-command after the input's type (none for the rest).
const TYPE_SUFFIXES: [(u32, &str); 3] =
    [(miopen_type::HALF, "fp16"), (miopen_type::BFLOAT16, "bfp16"), (miopen_type::INT8, "int8")];

/// The whole line, newline included, as MIOpen writes it to stderr.
pub fn line(p: &Problem, kind: CmdKind) -> String {
    let (row, _) = kind.row();
    format!("MIOpen(HIP): Command [{}] ./bin/MIOpenDriver {}\n", row.logger, arguments(p, kind))
}

/// MIOpenDriver's arguments for the problem.
pub fn arguments(p: &Problem, kind: CmdKind) -> String {
    let (row, solver_id) = kind.row();
    let suffix = TYPE_SUFFIXES.iter().find(|(t, _)| *t == p.x.dtype).map_or("", |(_, s)| s);
    let mut s = format!("{}{suffix}", row.command);
    if let Some(mode) = row.fusion_mode {
        let _ = write!(s, " -J {mode}");
    }
    shape(&mut s, p);
    if row.call_flags {
        let mode = if p.conv.mode == miopen_mode::TRANSPOSE { "trans" } else { "conv" };
        let _ = write!(s, " -m {mode}");
    }
    let _ = write!(s, " -g {}", p.conv.groups);
    if row.call_flags {
        let _ = write!(s, " -F {} -t 1", p.direction.driver_flag());
    }
    if row.solver {
        let _ = write!(s, " -S {solver_id}");
    }
    s
}

/// The problem's sizes, pads, strides, dilations and the layouts that are
/// not the plain one (MIOpen's `ConvArgsForMIOpenDriver` up to its `-m`);
/// nothing for a rank MIOpen does not write.
fn shape(s: &mut String, p: &Problem) {
    let (x, w, c) = (&p.x.dims, &p.w.dims, &p.conv);
    let spatial = c.pads.len();
    let Some(f) = SPATIAL.iter().find(|f| f.rank == spatial && x.len() == spatial + 2 && w.len() == spatial + 2) else {
        return;
    };
    // A transposed convolution's output channels are the filter's second dimension.
    let k = if c.mode == miopen_mode::TRANSPOSE { w[1] } else { w[0] };
    let _ = write!(s, " -n {} -c {}", x[0], x[1]);
    flags(s, f.input, &x[2..]);
    let _ = write!(s, " -k {k}");
    flags(s, f.filter, &w[2..]);
    flags(s, f.pads, &c.pads);
    flags(s, f.strides, &c.strides);
    flags(s, f.dilations, &c.dilations);
    *s += f.tail;
    for (flag, t) in [("--in_layout", &p.x), ("--fil_layout", &p.w), ("--out_layout", &p.y)] {
        let layout = layout_by_strides(t, f.plain_layout);
        if layout != f.plain_layout {
            let _ = write!(s, " {flag} {layout}");
        }
    }
}

fn flags(s: &mut String, names: &[&str], values: &[i64]) {
    for (name, v) in names.iter().zip(values) {
        let _ = write!(s, " {name} {v}");
    }
}

#[cfg(test)]
mod tests;
