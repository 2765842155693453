use super::*;
use crate::ops::conv::problem::{ConvParams, Direction};
use crate::tensor::Tensor;

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

// Every row of the table on one problem, worked by hand from MIOpen's format.
#[test]
fn each_row_of_the_table_writes_its_line() {
    let p = problem_2d(Direction::BackwardWeights, miopen_type::FLOAT);
    let shape = "-n 2 -c 4 -H 9 -W 7 -k 6 -y 3 -x 5 -p 1 -q 1 -u 2 -v 2 -l 1 -j 1";
    let want = [
        (CmdKind::Run, format!("[LogCmdConvolution] ./bin/MIOpenDriver conv {shape} -m conv -g 1 -F 4 -t 1")),
        (
            CmdKind::Immediate,
            format!("[LogCmdConvolution] ./bin/MIOpenDriver conv {shape} -m conv -g 1 -F 4 -t 1 -S 0"),
        ),
        (CmdKind::Find, format!("[LogCmdFindConvolution] ./bin/MIOpenDriver conv {shape} -m conv -g 1 -F 4 -t 1")),
        (
            CmdKind::FindSolutions,
            format!("[LogCmdFindConvolution] ./bin/MIOpenDriver conv {shape} -m conv -g 1 -F 4 -t 1 -S 0"),
        ),
        (
            CmdKind::RunSolution(91),
            format!("[LogCmdConvolution] ./bin/MIOpenDriver conv {shape} -m conv -g 1 -F 4 -t 1 -S 91"),
        ),
        (CmdKind::FusionConvBiasActivation, format!("[LogCmdFusion] ./bin/MIOpenDriver CBAInfer -J 4 {shape} -g 1")),
        (CmdKind::FusionConvActivation, format!("[LogCmdFusion] ./bin/MIOpenDriver CAInfer -J 5 {shape} -g 1")),
    ];
    for (kind, tail) in want {
        assert_eq!(line(&p, kind), format!("MIOpen(HIP): Command {tail}\n"), "{kind:?}");
    }
}

#[test]
fn every_kind_has_its_own_row() {
    let kinds = [
        CmdKind::Run,
        CmdKind::Immediate,
        CmdKind::Find,
        CmdKind::FindSolutions,
        CmdKind::RunSolution(7),
        CmdKind::FusionConvBiasActivation,
        CmdKind::FusionConvActivation,
    ];
    for (i, k) in kinds.iter().enumerate() {
        assert!(std::ptr::eq(k.row().0, &LINES[i]), "{k:?} is row {i}");
    }
    assert_eq!(CmdKind::RunSolution(7).row().1, 7);
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
    let int8 = problem_2d(Direction::Forward, miopen_type::INT8);
    assert!(arguments(&int8, CmdKind::Run).starts_with("convint8 -n 2 "));
    assert!(arguments(&int8, CmdKind::FusionConvActivation).starts_with("CAInferint8 -J 5 -n 2 "));
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

#[test]
fn a_one_d_line_has_no_shape() {
    let p = Problem {
        direction: Direction::Forward,
        x: packed(miopen_type::FLOAT, &[1, 2, 10]),
        w: packed(miopen_type::FLOAT, &[4, 2, 3]),
        y: packed(miopen_type::FLOAT, &[1, 4, 5]),
        conv: params(1, miopen_mode::CONVOLUTION, 1),
    };
    assert_eq!(arguments(&p, CmdKind::Run), "conv -m conv -g 1 -F 1 -t 1");
}
