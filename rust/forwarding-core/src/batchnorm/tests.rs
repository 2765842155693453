use super::*;
use crate::tensor::miopen_type::{BFLOAT16, DOUBLE, FLOAT, HALF};

fn packed(dims: &[i64], channels_last: bool) -> Vec<i64> {
    let mut strides = vec![0; dims.len()];
    let mut s = 1;
    for d in layout_order(dims.len(), channels_last).into_iter().rev() {
        strides[d] = s;
        s *= dims[d];
    }
    strides
}

fn t(dtype: u32, dims: &[i64], channels_last: bool) -> Tensor {
    Tensor { dtype, dims: dims.to_vec(), strides: packed(dims, channels_last) }
}

fn problem(io: u32, dims: &[i64], channels_last: bool) -> Problem {
    let mut pd = vec![1; dims.len()];
    pd[1] = dims[1];
    let param = t(FLOAT, &pd, false);
    Problem {
        mode: miopen_bn_mode::SPATIAL,
        x: t(io, dims, channels_last),
        y: t(io, dims, channels_last),
        scale: param.clone(),
        bias: param.clone(),
        mean: param.clone(),
        variance: param,
        epsilon: 1e-5,
    }
}

fn cause(p: &Problem) -> String {
    translate(p).expect_err("declined").0
}

#[test]
fn every_forwarded_layout_rank_and_type_translates() {
    for dims in [&[2, 3, 4, 5][..], &[1, 4, 2, 3, 3]] {
        for last in [false, true] {
            for (io, want) in [(FLOAT, ElemType::F32), (HALF, ElemType::F16), (BFLOAT16, ElemType::BF16)] {
                let p = problem(io, dims, last);
                let g = translate(&p).unwrap_or_else(|d| panic!("{dims:?} {last} {io}: {d}"));
                assert_eq!((g.x.dtype, g.y.dtype), (want, want));
                assert_eq!((g.x.dims.clone(), g.x.strides.clone()), (p.x.dims.clone(), p.x.strides.clone()));
                for s in [&g.scale, &g.bias, &g.mean, &g.variance] {
                    assert_eq!(s.dtype, ElemType::F32);
                    assert_eq!(s.dims, p.scale.dims);
                }
                let uids = [g.x.uid, g.mean.uid, g.variance.uid, g.scale.uid, g.bias.uid, g.y.uid];
                assert_eq!(uids, [uid::X, uid::MEAN, uid::VARIANCE, uid::SCALE, uid::BIAS, uid::Y]);
                assert!(uids.iter().all(|&u| u != uid::EPSILON));
            }
        }
    }
}

#[test]
fn epsilon_is_kept_exactly_and_is_part_of_the_key() {
    let mut p = problem(FLOAT, &[2, 3, 4, 5], false);
    p.epsilon = 0.1 + 0.2; // not 0.3, and not a float
    let g = translate(&p).unwrap();
    assert_eq!(g.epsilon(), 0.1 + 0.2);
    assert_ne!(g.epsilon(), f64::from(g.epsilon() as f32));
    let mut q = p.clone();
    q.epsilon = 0.3;
    assert_ne!(translate(&q).unwrap(), g, "a different double is a different plan");
    assert_eq!(translate(&p.clone()).unwrap(), g);
}

#[test]
fn the_key_distinguishes_every_field_that_changes_the_graph() {
    let base = translate(&problem(FLOAT, &[2, 3, 4, 5], false)).unwrap();
    let others = [
        problem(HALF, &[2, 3, 4, 5], false),
        problem(FLOAT, &[2, 3, 4, 5], true),
        problem(FLOAT, &[2, 3, 4, 6], false),
        problem(FLOAT, &[2, 3, 1, 4, 5], false),
    ];
    for p in &others {
        assert_ne!(translate(p).unwrap(), base, "{p:?}");
    }
}

#[test]
fn per_activation_and_unknown_modes_are_declined() {
    let mut p = problem(FLOAT, &[2, 3, 4, 5], false);
    p.mode = miopen_bn_mode::PER_ACTIVATION;
    assert_eq!(cause(&p), "per-activation batchnorm (hipDNN's MIOpen provider runs spatial only)");
    p.mode = 7;
    assert_eq!(cause(&p), "batchnorm mode 7 (invalid: MIOpen decides)");
    // A C caller's -1, printed as MIOpen prints the enum (not 4294967295).
    p.mode = -1i32 as u32;
    assert_eq!(cause(&p), "batchnorm mode -1 (invalid: MIOpen decides)");
}

#[test]
fn ranks_types_and_shapes_outside_the_provider_are_declined() {
    assert_eq!(cause(&problem(FLOAT, &[2, 3, 4], false)), "x has 3 dimensions (forwardable: 4 or 5; MIOpen decides)");
    assert_eq!(
        cause(&problem(DOUBLE, &[2, 3, 4, 5], false)),
        "type miopenDouble (forwardable: miopenFloat, miopenHalf, miopenBFloat16)"
    );
    let mut p = problem(FLOAT, &[2, 3, 4, 5], false);
    p.y.dtype = HALF;
    assert_eq!(cause(&p), "x is miopenFloat but y is miopenHalf (invalid problem: MIOpen decides)");
    let mut p = problem(FLOAT, &[2, 3, 4, 5], false);
    p.y = t(FLOAT, &[2, 3, 4, 6], false);
    assert_eq!(cause(&p), "y's lengths differ from x's (invalid problem: MIOpen decides)");
}

#[test]
fn layouts_other_than_the_four_packed_ones_are_declined() {
    let mut p = problem(FLOAT, &[2, 3, 4, 5], false);
    p.x.strides = vec![120, 40, 10, 1]; // padded rows
    p.y.strides = p.x.strides.clone();
    let want =
        "x and y are not both packed NCHW/NHWC (NCDHW/NDHWC) in one layout (hipDNN's MIOpen provider takes only those)";
    assert_eq!(cause(&p), want);
    let mut mixed = problem(FLOAT, &[2, 3, 4, 5], false);
    mixed.y = t(FLOAT, &[2, 3, 4, 5], true);
    assert_eq!(cause(&mixed), want, "x NCHW, y NHWC");
}

#[test]
fn per_channel_tensors_must_be_fp32_of_the_derived_shape() {
    let mut p = problem(HALF, &[2, 3, 4, 5], false);
    p.scale.dtype = HALF;
    assert_eq!(
        cause(&p),
        "scale is miopenHalf (hipDNN's MIOpen provider takes fp32 scale, bias, mean and variance only)"
    );
    let mut p = problem(FLOAT, &[2, 3, 4, 5], false);
    p.variance.dtype = DOUBLE;
    assert_eq!(cause(&p), "variance is miopenDouble (MIOpen decides)");
    let mut p = problem(FLOAT, &[2, 3, 4, 5], false);
    p.mean = t(FLOAT, &[1, 3, 1, 2], false);
    assert_eq!(cause(&p), "mean is not the (1, 3, 1, ...) tensor of x's rank (invalid problem: MIOpen decides)");
    let mut p = problem(FLOAT, &[2, 3, 4, 5], false);
    p.bias.strides = vec![6, 2, 1, 1];
    assert_eq!(cause(&p), "bias is not packed (stride 2 along C; hipDNN's MIOpen provider takes packed tensors only)");
}

fn training_problem(io: u32, dims: &[i64], save: bool) -> training::Problem {
    let p = problem(io, dims, false);
    training::Problem {
        mode: p.mode,
        x: p.x,
        y: p.y,
        scale: p.scale.clone(),
        bias: p.bias,
        saved_mean: p.mean,
        saved_inv_variance: p.variance,
        epsilon: 1e-3,
        save,
    }
}

fn backward_problem(dims: &[i64], use_saved: bool, epsilon: f64) -> backward::Problem {
    let p = problem(HALF, dims, true);
    backward::Problem {
        mode: p.mode,
        x: p.x.clone(),
        dy: p.x.clone(),
        dx: p.y,
        scale: p.scale,
        bias: p.bias,
        saved_mean: p.mean,
        saved_inv_variance: p.variance,
        epsilon,
        use_saved,
    }
}

#[test]
fn training_graph_has_the_saved_statistics_only_when_both_are_saved() {
    let with = training::translate(&training_problem(BFLOAT16, &[2, 3, 4, 5], true)).unwrap();
    let saved = with.saved.clone().expect("saved statistics");
    assert_eq!((saved.mean.uid, saved.inv_variance.uid), (uid::MEAN, uid::INV_VARIANCE));
    assert_eq!((with.x.dtype, saved.mean.dtype), (ElemType::BF16, ElemType::F32));
    let without = training::translate(&training_problem(BFLOAT16, &[2, 3, 4, 5], false)).unwrap();
    assert!(without.saved.is_none());
    assert_ne!(with, without, "the plan key tells them apart");
    assert_eq!(with.epsilon(), 1e-3);
}

#[test]
fn training_epsilon_is_exact_in_the_key() {
    let mut p = training_problem(FLOAT, &[2, 3, 4, 5], true);
    let a = training::translate(&p).unwrap();
    p.epsilon = f64::from_bits(p.epsilon.to_bits() + 1);
    let b = training::translate(&p).unwrap();
    assert_ne!(a, b);
    assert_eq!(b.epsilon().to_bits(), p.epsilon.to_bits());
}

#[test]
fn training_declines_what_the_provider_cannot_run() {
    let mut p = training_problem(FLOAT, &[1, 3, 1, 1], true);
    assert!(training::translate(&p).unwrap_err().0.starts_with("one value per channel"));
    p = training_problem(FLOAT, &[2, 3, 4, 5], true);
    p.mode = miopen_bn_mode::PER_ACTIVATION;
    assert!(training::translate(&p).unwrap_err().0.starts_with("per-activation"));
    p = training_problem(HALF, &[2, 3, 4, 5], true);
    p.saved_mean.dtype = HALF;
    assert!(training::translate(&p).unwrap_err().0.starts_with("savedMean is miopenHalf"));
    p = training_problem(DOUBLE, &[2, 3, 4, 5], false);
    assert!(training::translate(&p).unwrap_err().0.contains("(forwardable: "));
}

#[test]
fn backward_without_saved_statistics_forwards_only_the_providers_epsilon() {
    let g = backward::translate(&backward_problem(&[2, 3, 4, 5], false, backward::PROVIDER_EPSILON)).unwrap();
    assert!(g.saved.is_none());
    let uids = [g.x.uid, g.dy.uid, g.dx.uid, g.scale.uid, g.dscale.uid, g.dbias.uid];
    assert_eq!(uids, [uid::X, uid::DY, uid::DX, uid::SCALE, uid::DSCALE, uid::DBIAS]);
    let off_by_one = f64::from_bits(backward::PROVIDER_EPSILON.to_bits() + 1);
    let why = backward::translate(&backward_problem(&[2, 3, 4, 5], false, off_by_one)).unwrap_err().0;
    assert!(why.starts_with("savedMean or savedInvVariance is null and epsilon is 1e-05:"), "{why}");
    assert!(why.ends_with("its MIOpen provider recomputes with 1e-05"), "{why}");
    // Epsilon as MIOpen's log prints a double (%g): not 1e-1, 0e0.
    for (epsilon, printed) in [(0.1, "0.1"), (0.5, "0.5"), (0.0, "0")] {
        let why = backward::translate(&backward_problem(&[2, 3, 4, 5], false, epsilon)).unwrap_err().0;
        assert!(why.contains(&format!("epsilon is {printed}:")), "{why}");
    }
    // With both saved statistics MIOpen does not use epsilon: any forwards.
    let saved = backward::translate(&backward_problem(&[2, 3, 4, 5], true, 0.5)).unwrap();
    assert!(saved.saved.is_some());
}

#[test]
fn backward_declines_mismatched_gradients() {
    let mut p = backward_problem(&[2, 3, 4, 5], true, 1e-5);
    p.dx.dtype = FLOAT;
    assert!(backward::translate(&p).is_err());
    p = backward_problem(&[2, 3, 4, 5], true, 1e-5);
    p.dy.dims[2] = 3;
    assert!(backward::translate(&p).unwrap_err().0.contains("lengths differ"));
}

fn fused_backward(
    io: u32,
    dims: &[i64],
    channels_last: bool,
    mode: u32,
    activation: u32,
) -> Result<fused::GraphSpecBackward, Decline> {
    let x = t(io, dims, channels_last);
    fused::translate_backward(&fused::BackwardProblem { x: &x, mode, activation })
}

const RELU: u32 = crate::ops::conv::miopen_activation::RELU;

#[test]
fn fused_backward_is_the_three_node_graph_with_virtual_intermediates() {
    for (io, want) in [(FLOAT, ElemType::F32), (HALF, ElemType::F16)] {
        let g = fused_backward(io, &[2, 3, 4, 5], false, miopen_bn_mode::SPATIAL, RELU).expect("forwarded");
        assert_eq!((g.x.dtype, g.dy.dtype, g.dx.dtype), (want, want, want));
        assert_eq!((g.x.dims.clone(), g.dy.strides.clone()), (vec![2, 3, 4, 5], vec![60, 20, 5, 1]));
        for s in [&g.mean, &g.inv_variance, &g.scale, &g.bias, &g.dscale, &g.dbias] {
            assert_eq!(
                (s.dtype, s.dims.clone(), s.strides.clone(), s.is_virtual),
                (ElemType::F32, vec![1, 3, 1, 1], vec![3, 1, 1, 1], false)
            );
        }
        for v in [&g.y, &g.dy_activated] {
            assert!(v.is_virtual);
            assert_eq!((v.dtype, v.dims.clone()), (ElemType::F32, vec![2, 3, 4, 5]));
        }
        assert!(!g.x.is_virtual && !g.dy.is_virtual && !g.dx.is_virtual);
        let uids = [
            g.x.uid,
            g.mean.uid,
            g.inv_variance.uid,
            g.scale.uid,
            g.bias.uid,
            g.y.uid,
            g.dy.uid,
            g.dy_activated.uid,
            g.dx.uid,
            g.dscale.uid,
            g.dbias.uid,
        ];
        let mut sorted = uids.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), uids.len(), "uids unique: {uids:?}");
    }
}

#[test]
fn fused_backward_declines_what_the_kernel_or_the_provider_computes_otherwise() {
    let d = |r: Result<fused::GraphSpecBackward, Decline>| r.expect_err("declined").0;
    let s = miopen_bn_mode::SPATIAL;
    assert!(d(fused_backward(FLOAT, &[2, 3, 4, 5], false, miopen_bn_mode::PER_ACTIVATION, RELU))
        .starts_with("per-activation batchnorm"));
    assert_eq!(
        d(fused_backward(FLOAT, &[2, 3, 4, 5], false, s, 7)),
        "activation backward mode CLIPPEDRELU (hipDNN's fused batchnorm backward graph is RELU_BWD only; forwardable: RELU)"
    );
    for other in [0, 1, 2, 4, 5, 6, 8, 9, 10] {
        assert!(
            d(fused_backward(FLOAT, &[2, 3, 4, 5], false, s, other)).starts_with("activation backward mode "),
            "{other}"
        );
    }
    assert!(d(fused_backward(FLOAT, &[2, 3, 4, 5], false, s, 99)).starts_with("activation backward mode 99 "));
    assert!(d(fused_backward(FLOAT, &[2, 3, 2, 4, 5], false, s, RELU)).starts_with("x has 5 dimensions"));
    assert!(d(fused_backward(BFLOAT16, &[2, 3, 4, 5], false, s, RELU))
        .starts_with("x is miopenBFloat16 (MIOpen's fused batchnorm kernels run fp32 and fp16 only"));
    assert!(d(fused_backward(DOUBLE, &[2, 3, 4, 5], false, s, RELU)).starts_with("type "));
    assert!(d(fused_backward(FLOAT, &[2, 3, 4, 5], true, s, RELU)).starts_with("x is not packed NCHW"));
    assert!(d(fused_backward(FLOAT, &[1, 3, 1, 1], false, s, RELU)).starts_with("one value per channel"));
}
