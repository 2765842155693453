//! The MIOpenDriver command line MIOpen logs for a convolution call under
//! `MIOPEN_ENABLE_LOGGING_CMD`, so that a forwarded convolution (which
//! MIOpen never sees) logs the same line MIOpen would have:
//!
//! `MIOpen(HIP): Command [LogCmdConvolution] ./bin/MIOpenDriver conv -n 1 -c 3 -H 8 -W 8 -k 4 -y 3 -x 3 -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -m conv -g 1 -F 1 -t 1`
//!
//! The format is MIOpen's (`ConvArgsForMIOpenDriver` and
//! `MIOPEN_LOG_DRIVER_CMD`); the test bed's MIOpen writes it the same way and
//! `test/forwarding/check_environment.py` compares the two byte for byte.

use super::{miopen_mode, miopen_type, Direction, Problem};
use crate::tensor::layout_by_strides;

/// Which of MIOpen's logging helpers writes the line (its name is in it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmdKind {
    /// `miopenConvolution{Forward,BackwardData,BackwardWeights}`.
    Run,
    /// `miopenConvolution*Immediate` (MIOpen adds `-S 0`).
    Immediate,
    /// `miopenFindConvolution*Algorithm`.
    Find,
    /// `miopenFindSolutions` of a convolution problem (MIOpen adds `-S 0`).
    FindSolutions,
    /// `miopenRunSolution` of a solution of this MIOpen solver id (`-S <id>`).
    RunSolution(u64),
}

impl CmdKind {
    fn logger(self) -> &'static str {
        match self {
            CmdKind::Run | CmdKind::Immediate | CmdKind::RunSolution(_) => "LogCmdConvolution",
            CmdKind::Find | CmdKind::FindSolutions => "LogCmdFindConvolution",
        }
    }
}

/// The whole line, newline included, as MIOpen writes it to stderr.
pub fn line(p: &Problem, kind: CmdKind) -> String {
    format!("MIOpen(HIP): Command [{}] ./bin/MIOpenDriver {}\n", kind.logger(), arguments(p, kind))
}

/// MIOpenDriver's arguments for the problem.
pub fn arguments(p: &Problem, kind: CmdKind) -> String {
    let mut s = String::from(driver_name(p.x.dtype));
    shape(&mut s, p);
    let mode = if p.conv.mode == miopen_mode::TRANSPOSE { "trans" } else { "conv" };
    s += &format!(" -m {mode} -g {} -F {} -t 1", p.conv.groups, direction_flag(p.direction));
    match kind {
        CmdKind::Immediate | CmdKind::FindSolutions => s += " -S 0",
        CmdKind::RunSolution(id) => s += &format!(" -S {id}"),
        CmdKind::Run | CmdKind::Find => {}
    }
    s
}

/// The problem's sizes, pads, strides, dilations and the layouts that are
/// not the plain one: what a fusion plan's line has of its convolution
/// (MIOpen's `ConvArgsForMIOpenDriver` without `print_for_conv_driver`, less
/// its ` -g`).
pub(crate) fn shape(s: &mut String, p: &Problem) {
    let transposed = p.conv.mode == miopen_mode::TRANSPOSE;
    let w = &p.w.dims;
    let spatial = p.conv.pads.len();
    if spatial == 2 && p.x.dims.len() == 4 && w.len() == 4 {
        dims_2d(s, p, if transposed { w[1] } else { w[0] });
        layouts(s, p, "NCHW");
    } else if spatial == 3 && p.x.dims.len() == 5 && w.len() == 5 {
        dims_3d(s, p, if transposed { w[1] } else { w[0] });
        layouts(s, p, "NCDHW");
    }
}

/// MIOpenDriver's sub-command, after the input's type.
fn driver_name(dtype: u32) -> &'static str {
    match dtype {
        miopen_type::HALF => "convfp16",
        miopen_type::BFLOAT16 => "convbfp16",
        miopen_type::INT8 => "convint8",
        _ => "conv",
    }
}

/// MIOpenDriver's `-F`.
fn direction_flag(d: Direction) -> u32 {
    match d {
        Direction::Forward => 1,
        Direction::BackwardData => 2,
        Direction::BackwardWeights => 4,
    }
}

fn dims_2d(s: &mut String, p: &Problem, k: i64) {
    let (x, w, c) = (&p.x.dims, &p.w.dims, &p.conv);
    *s += &format!(
        " -n {} -c {} -H {} -W {} -k {k} -y {} -x {} -p {} -q {} -u {} -v {} -l {} -j {}",
        x[0],
        x[1],
        x[2],
        x[3],
        w[2],
        w[3],
        c.pads[0],
        c.pads[1],
        c.strides[0],
        c.strides[1],
        c.dilations[0],
        c.dilations[1]
    );
}

fn dims_3d(s: &mut String, p: &Problem, k: i64) {
    let (x, w, c) = (&p.x.dims, &p.w.dims, &p.conv);
    *s += &format!(
        " -n {} -c {} --in_d {} -H {} -W {} -k {k} --fil_d {} -y {} -x {} --pad_d {} -p {} -q {} \
         --conv_stride_d {} -u {} -v {} --dilation_d {} -l {} -j {} --spatial_dim 3",
        x[0],
        x[1],
        x[2],
        x[3],
        x[4],
        w[2],
        w[3],
        w[4],
        c.pads[0],
        c.pads[1],
        c.pads[2],
        c.strides[0],
        c.strides[1],
        c.strides[2],
        c.dilations[0],
        c.dilations[1],
        c.dilations[2]
    );
}

/// `--in_layout` / `--fil_layout` / `--out_layout` for each tensor whose
/// layout is not the plain one.
fn layouts(s: &mut String, p: &Problem, plain: &str) {
    for (flag, t) in [("--in_layout", &p.x), ("--fil_layout", &p.w), ("--out_layout", &p.y)] {
        let layout = layout_by_strides(t, plain);
        if layout != plain {
            *s += &format!(" {flag} {layout}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conv::{ConvParams, Tensor};

    fn packed(dtype: u32, dims: &[i64]) -> Tensor {
        let mut strides = vec![1; dims.len()];
        for i in (0..dims.len() - 1).rev() {
            strides[i] = strides[i + 1] * dims[i + 1];
        }
        Tensor { dtype, dims: dims.to_vec(), strides }
    }

    fn nhwc(dims: &[i64]) -> Tensor {
        let (c, h, w) = (dims[1], dims[2], dims[3]);
        Tensor { dtype: miopen_type::FLOAT, dims: dims.to_vec(), strides: vec![h * w * c, 1, w * c, c] }
    }

    fn params(spatial: usize, mode: u32, groups: i64) -> ConvParams {
        ConvParams {
            mode,
            pads: vec![1; spatial],
            strides: vec![2; spatial],
            dilations: vec![1; spatial],
            groups,
            deterministic: 0,
            fp16_alt_impl: 0,
        }
    }

    fn problem_2d(direction: Direction, dtype: u32) -> Problem {
        Problem {
            direction,
            x: packed(dtype, &[2, 4, 9, 7]),
            w: packed(dtype, &[6, 4, 3, 5]),
            y: packed(dtype, &[2, 6, 5, 4]),
            conv: params(2, miopen_mode::CONVOLUTION, 1),
        }
    }

    #[test]
    fn forward_2d_line() {
        assert_eq!(
            line(&problem_2d(Direction::Forward, miopen_type::FLOAT), CmdKind::Run),
            "MIOpen(HIP): Command [LogCmdConvolution] ./bin/MIOpenDriver conv -n 2 -c 4 -H 9 -W 7 -k 6 -y 3 -x 5 \
             -p 1 -q 1 -u 2 -v 2 -l 1 -j 1 -m conv -g 1 -F 1 -t 1\n"
        );
    }

    #[test]
    fn direction_type_and_kind_change_their_flags() {
        let bwd = problem_2d(Direction::BackwardData, miopen_type::HALF);
        let a = arguments(&bwd, CmdKind::Immediate);
        assert!(a.starts_with("convfp16 -n 2 ") && a.ends_with(" -F 2 -t 1 -S 0"), "{a}");
        let wrw = problem_2d(Direction::BackwardWeights, miopen_type::BFLOAT16);
        assert!(line(&wrw, CmdKind::Find)
            .starts_with("MIOpen(HIP): Command [LogCmdFindConvolution] ./bin/MIOpenDriver convbfp16 "));
        assert!(arguments(&wrw, CmdKind::Find).ends_with(" -F 4 -t 1"));
        // Find 2.0's search logs the Find line with MIOpen's solver id 0.
        assert!(line(&wrw, CmdKind::FindSolutions).contains("[LogCmdFindConvolution]"));
        assert!(arguments(&wrw, CmdKind::FindSolutions).ends_with(" -F 4 -t 1 -S 0"));
        assert!(line(&wrw, CmdKind::RunSolution(91)).contains("[LogCmdConvolution]"));
        assert!(arguments(&wrw, CmdKind::RunSolution(91)).ends_with(" -F 4 -t 1 -S 91"));
    }

    #[test]
    fn transposed_uses_the_second_filter_dimension_and_groups_are_printed() {
        let mut p = problem_2d(Direction::Forward, miopen_type::FLOAT);
        p.conv = params(2, miopen_mode::TRANSPOSE, 2);
        let a = arguments(&p, CmdKind::Run);
        assert!(a.contains(" -k 4 ") && a.ends_with(" -m trans -g 2 -F 1 -t 1"), "{a}");
    }

    #[test]
    fn layouts_other_than_nchw_are_named() {
        let mut p = problem_2d(Direction::Forward, miopen_type::FLOAT);
        p.x = nhwc(&[2, 4, 9, 7]);
        p.y = nhwc(&[2, 6, 5, 4]);
        let a = arguments(&p, CmdKind::Run);
        assert!(a.ends_with(" -j 1 --in_layout NHWC --out_layout NHWC -m conv -g 1 -F 1 -t 1"), "{a}");
        // A strided tensor in NCHW order is still NCHW.
        p.x = Tensor { dtype: miopen_type::FLOAT, dims: vec![2, 4, 9, 7], strides: vec![1000, 100, 10, 1] };
        p.y = packed(miopen_type::FLOAT, &[2, 6, 5, 4]);
        assert!(!arguments(&p, CmdKind::Run).contains("layout"));
    }

    #[test]
    fn three_d_line() {
        let p = Problem {
            direction: Direction::Forward,
            x: packed(miopen_type::FLOAT, &[1, 2, 5, 6, 7]),
            w: packed(miopen_type::FLOAT, &[3, 2, 2, 3, 3]),
            y: packed(miopen_type::FLOAT, &[1, 3, 3, 3, 4]),
            conv: params(3, miopen_mode::CONVOLUTION, 1),
        };
        assert_eq!(
            arguments(&p, CmdKind::Run),
            "conv -n 1 -c 2 --in_d 5 -H 6 -W 7 -k 3 --fil_d 2 -y 3 -x 3 --pad_d 1 -p 1 -q 1 --conv_stride_d 2 \
             -u 2 -v 2 --dilation_d 1 -l 1 -j 1 --spatial_dim 3 -m conv -g 1 -F 1 -t 1"
        );
    }
}
