//! Hand-worked lines, from MIOpen's `BnormArgsForMIOpenDriver`.

use super::*;

fn packed(dtype: u32, dims: &[i64]) -> Tensor {
    let mut strides = vec![1; dims.len()];
    for i in (0..dims.len() - 1).rev() {
        strides[i] = strides[i + 1] * dims[i + 1];
    }
    Tensor { dtype, dims: dims.to_vec(), strides }
}

fn cmd(x: &Tensor, direction: Direction, running: bool, saved: bool) -> Cmd<'_> {
    Cmd { x, stats_dtype: miopen_type::FLOAT, mode: 1, direction, running, saved }
}

#[test]
fn inference_line() {
    let x = packed(miopen_type::FLOAT, &[2, 3, 4, 5]);
    assert_eq!(
        line(&cmd(&x, Direction::ForwardInference, true, false)).unwrap(),
        "MIOpen(HIP): Command [LogCmdBNorm] ./bin/MIOpenDriver bnorm -n 2 -c 3 -H 4 -W 5 -m 1 --forw 2 -b 0 -s 1 \
         --layout NCHW\n"
    );
    // Null estimates (MIOpen computes the batch's statistics): no -s.
    assert_eq!(
        arguments(&cmd(&x, Direction::ForwardInference, false, false)).unwrap(),
        "bnorm -n 2 -c 3 -H 4 -W 5 -m 1 --forw 2 -b 0 --layout NCHW"
    );
}

#[test]
fn training_and_backward_flags() {
    let x = packed(miopen_type::FLOAT, &[2, 2, 3, 1]);
    let a = |d, r, s| arguments(&cmd(&x, d, r, s)).unwrap();
    assert_eq!(
        a(Direction::ForwardTraining, true, true),
        "bnorm -n 2 -c 2 -H 3 -W 1 -m 1 --forw 1 -b 0 -s 1 -r 1 --layout NCHW"
    );
    assert_eq!(
        a(Direction::ForwardTraining, false, true),
        "bnorm -n 2 -c 2 -H 3 -W 1 -m 1 --forw 1 -b 0 -r 1 --layout NCHW"
    );
    assert_eq!(a(Direction::Backward, false, true), "bnorm -n 2 -c 2 -H 3 -W 1 -m 1 --forw 0 -b 1 -r 1 --layout NCHW");
    assert_eq!(a(Direction::Backward, false, false), "bnorm -n 2 -c 2 -H 3 -W 1 -m 1 --forw 0 -b 1 --layout NCHW");
}

#[test]
fn types_five_dims_layout_and_mode() {
    // N=1 C=2 D=3 H=4 W=5 stored NDHWC.
    let x16 = Tensor { dtype: miopen_type::HALF, dims: vec![1, 2, 3, 4, 5], strides: vec![120, 1, 40, 10, 2] };
    let mut c = Cmd { mode: 0, ..cmd(&x16, Direction::ForwardInference, true, false) };
    assert_eq!(arguments(&c).unwrap(), "bnormfp16fp32 -n 1 -c 2 -D 3 -H 4 -W 5 -m 0 --forw 2 -b 0 -s 1 --layout NDHWC");
    c.stats_dtype = miopen_type::HALF;
    assert!(arguments(&c).unwrap().starts_with("bnormfp16 -n 1 "));
    let xb = Tensor { dtype: miopen_type::BFLOAT16, dims: vec![1, 2, 2, 2], strides: vec![8, 1, 4, 2] };
    let mut c = cmd(&xb, Direction::ForwardInference, true, false);
    assert_eq!(arguments(&c).unwrap(), "bnormbfp16fp32 -n 1 -c 2 -H 2 -W 2 -m 1 --forw 2 -b 0 -s 1 --layout NHWC");
    c.stats_dtype = miopen_type::BFLOAT16;
    assert!(arguments(&c).unwrap().starts_with("bnormbfp16 -n 1 "));
    // Any other pair of types is plain bnorm (fp16 x with bf16 statistics too).
    c.stats_dtype = miopen_type::HALF;
    assert!(arguments(&c).unwrap().starts_with("bnorm -n 1 "));
}

#[test]
fn other_ranks() {
    let x6 = packed(miopen_type::FLOAT, &[1, 2, 3, 4, 5, 6]);
    assert_eq!(
        arguments(&cmd(&x6, Direction::ForwardInference, true, false)).unwrap(),
        "bnorm -n 1 -c 2 -H 3 -W 4 -m 1 --forw 2 -b 0 -s 1 --layout UNKNOWN"
    );
    let x3 = packed(miopen_type::FLOAT, &[1, 2, 3]);
    assert_eq!(line(&cmd(&x3, Direction::ForwardInference, true, false)), None);
}
