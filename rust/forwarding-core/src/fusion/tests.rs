use super::*;
use crate::ops::conv::{miopen_activation as act, ConvParams};
use crate::tensor::{miopen_type, ElemType};

fn packed(dims: &[i64]) -> Vec<i64> {
    packed_strides(dims, false)
}

fn t(dims: &[i64]) -> Tensor {
    Tensor { dtype: miopen_type::FLOAT, dims: dims.to_vec(), strides: packed(dims) }
}

fn conv_params(pads: &[i64]) -> ConvParams {
    ConvParams {
        mode: 0,
        pads: pads.to_vec(),
        strides: vec![1; pads.len()],
        dilations: vec![1; pads.len()],
        groups: 1,
        deterministic: 0,
        fp16_alt_impl: 0,
    }
}

fn conv_op() -> Op {
    Op::Conv { conv: conv_params(&[1, 1]), w: t(&[6, 3, 3, 3]) }
}

fn plan(ops: Vec<Op>) -> Plan {
    Plan { direction: miopen_direction::VERTICAL, input: t(&[2, 3, 8, 8]), ops }
}

fn cbr() -> Plan {
    plan(vec![conv_op(), Op::Bias { bias: t(&[1, 6, 1, 1]) }, Op::Activation { mode: act::RELU }])
}

fn cause<T: std::fmt::Debug>(r: Result<T, Decline>) -> String {
    r.unwrap_err().0
}

#[test]
fn conv_bias_relu_is_the_fused_graph_of_conv_bias_activation_forward() {
    let tr = translate(&cbr(), ActivationArgs::AT_COMPILE).unwrap();
    assert_eq!(tr.output.dims, vec![2, 6, 8, 8]);
    assert_eq!(tr.output.strides, packed(&[2, 6, 8, 8]));
    // The same graph the one-call API builds: one plan serves both.
    let p = Problem {
        direction: Direction::Forward,
        x: t(&[2, 3, 8, 8]),
        w: t(&[6, 3, 3, 3]),
        y: t(&[2, 6, 8, 8]),
        conv: conv_params(&[1, 1]),
    };
    let relu = Activation { mode: act::RELU, alpha: 0.0, beta: 0.0 };
    let e = Epilogue { bias: Some(t(&[1, 6, 1, 1])), has_z: false, activation: relu };
    assert_eq!(tr.spec, Graph::Conv(translate_fused(&p, &e).unwrap()));
}

#[test]
fn without_bias_and_with_clips_from_the_arguments() {
    let p = plan(vec![conv_op(), Op::Activation { mode: act::CLIPPEDRELU }]);
    let tr = translate(&p, ActivationArgs { alpha: 6.0, beta: 0.0 }).unwrap();
    let fu = tr.spec.conv().unwrap().fused.clone().unwrap();
    assert!(fu.bias.is_none());
    assert_eq!(fu.upper_clip, Some(6f32.to_bits()));
    let p = plan(vec![conv_op(), Op::Activation { mode: act::CLAMP }]);
    let fu =
        translate(&p, ActivationArgs { alpha: -1.0, beta: 2.0 }).unwrap().spec.conv().unwrap().fused.clone().unwrap();
    assert_eq!((fu.lower_clip, fu.upper_clip), (Some((-1f32).to_bits()), Some(2f32.to_bits())));
    assert!(cause(translate(&p, ActivationArgs { alpha: 0.1, beta: 2.0 })).contains("not exact"));
}

#[test]
fn other_plans_are_declined_with_their_operators() {
    assert_eq!(
        cause(translate(&plan(vec![]), ActivationArgs::AT_COMPILE)),
        "the plan has no operators (MIOpen decides)"
    );
    let bn = plan(vec![
        conv_op(),
        Op::BatchNormInference { mode: 1, params: t(&[1, 3, 1, 1]) },
        Op::Activation { mode: act::RELU },
    ]);
    assert_eq!(
        cause(translate(&bn, ActivationArgs::AT_COMPILE)),
        "operators conv -> batchnorm inference -> activation (forwardable: conv -> [bias] -> activation, batchnorm inference -> activation, batchnorm backward -> activation backward)"
    );
    let alone = plan(vec![conv_op()]);
    assert!(cause(translate(&alone, ActivationArgs::AT_COMPILE)).starts_with("operators conv ("));
    let bias_only = plan(vec![conv_op(), Op::Bias { bias: t(&[1, 6, 1, 1]) }]);
    assert!(cause(translate(&bias_only, ActivationArgs::AT_COMPILE)).starts_with("operators conv -> bias ("));
    let unreadable = plan(vec![conv_op(), Op::Unreadable("wDesc is not readable".into())]);
    assert_eq!(cause(translate(&unreadable, ActivationArgs::AT_COMPILE)), "wDesc is not readable");
    let pass = plan(vec![conv_op(), Op::Activation { mode: act::PASTHRU }]);
    assert!(cause(translate(&pass, ActivationArgs::AT_COMPILE)).contains("PASTHRU"));
    let mut horizontal = cbr();
    horizontal.direction = 1;
    assert!(cause(translate(&horizontal, ActivationArgs::AT_COMPILE)).starts_with("fusion direction 1"));
}

#[test]
fn the_convolution_group_rules_apply() {
    let mut p = cbr();
    if let Op::Conv { conv, .. } = &mut p.ops[0] {
        conv.deterministic = 1;
    }
    assert!(cause(translate(&p, ActivationArgs::AT_COMPILE)).starts_with("MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC=1"));
    let mut p = cbr();
    p.ops[1] = Op::Bias { bias: t(&[1, 5, 1, 1]) };
    assert!(cause(translate(&p, ActivationArgs::AT_COMPILE)).starts_with("bias is not"));
    let mut p = cbr();
    p.input.dtype = miopen_type::HALF;
    assert!(cause(translate(&p, ActivationArgs::AT_COMPILE)).starts_with("mixed types"));
    let mut p = cbr();
    p.ops[0] = Op::Conv { conv: conv_params(&[0, 0]), w: t(&[6, 3, 3, 3]) };
    p.input = t(&[2, 3, 2, 2]);
    assert!(cause(translate(&p, ActivationArgs::AT_COMPILE)).contains("larger than the padded input"));
}

#[test]
fn the_output_follows_the_input_memory_order() {
    let nhwc = |d: &[i64]| Tensor { dtype: miopen_type::FLOAT, dims: d.to_vec(), strides: packed_strides(d, true) };
    let c = conv_params(&[1, 1]);
    let y = output_of(&nhwc(&[2, 3, 8, 8]), &c, &t(&[6, 3, 3, 3])).unwrap();
    assert_eq!(y.strides, vec![384, 1, 48, 6]);
    // Padded (strided) input: MIOpen's output is packed N, C, H, W.
    let mut padded = t(&[2, 3, 8, 8]);
    padded.strides = vec![400, 100, 10, 1];
    assert_eq!(output_of(&padded, &c, &t(&[6, 3, 3, 3])).unwrap().strides, packed(&[2, 6, 8, 8]));
    // One channel: both packed forms coincide, and MIOpen names it N, C, H, W.
    assert_eq!(output_of(&t(&[2, 1, 8, 8]), &c, &t(&[6, 1, 3, 3])).unwrap().strides, packed(&[2, 6, 8, 8]));
    // Strides and dilations.
    let mut c2 = conv_params(&[0, 2]);
    c2.strides = vec![2, 1];
    c2.dilations = vec![1, 2];
    assert_eq!(output_of(&t(&[1, 3, 9, 9]), &c2, &t(&[6, 3, 3, 3])).unwrap().dims, vec![1, 6, 4, 9]);
}

// The lines MIOpen's LogCmdFusion writes, worked by hand: conv -> bias ->
// activation is CBAInfer mode 4, conv -> activation CAInfer mode 5.
#[test]
fn driver_line_of_a_conv_bias_activation_plan() {
    assert_eq!(
        driver_line(&cbr()).unwrap(),
        "MIOpen(HIP): Command [LogCmdFusion] ./bin/MIOpenDriver CBAInfer -J 4 -n 2 -c 3 -H 8 -W 8 -k 6 -y 3 -x 3 \
         -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 -g 1\n"
    );
}

#[test]
fn driver_line_of_a_conv_activation_plan_names_the_type_and_layouts() {
    let mut p = plan(vec![conv_op(), Op::Activation { mode: act::CLIPPEDRELU }]);
    p.input.dtype = miopen_type::HALF;
    // channels-last input: the derived output is channels-last too.
    p.input.strides = vec![192, 1, 24, 3];
    assert_eq!(
        driver_line(&p).unwrap(),
        "MIOpen(HIP): Command [LogCmdFusion] ./bin/MIOpenDriver CAInferfp16 -J 5 -n 2 -c 3 -H 8 -W 8 -k 6 -y 3 -x 3 \
         -p 1 -q 1 -u 1 -v 1 -l 1 -j 1 --in_layout NHWC --out_layout NHWC -g 1\n"
    );
}

#[test]
fn no_driver_line_for_a_plan_the_wrapper_does_not_forward() {
    assert_eq!(
        driver_line(&plan(vec![
            conv_op(),
            Op::BatchNormInference { mode: 1, params: t(&[1, 3, 1, 1]) },
            Op::Activation { mode: act::RELU }
        ])),
        None
    );
    assert_eq!(driver_line(&plan(vec![conv_op()])), None);
}

fn bn_plan(x: Tensor, params: Tensor, mode: u32, act_mode: u32) -> Plan {
    Plan {
        direction: miopen_direction::VERTICAL,
        input: x,
        ops: vec![Op::BatchNormInference { mode, params }, Op::Activation { mode: act_mode }],
    }
}

fn bn_relu() -> Plan {
    bn_plan(t(&[2, 3, 4, 5]), t(&[1, 3, 1, 1]), 1, act::RELU)
}

fn bn_graph(tr: &Translated) -> &crate::batchnorm::fused::GraphSpecActivation {
    match &tr.spec {
        Graph::BatchNormActivation(g) => g,
        other => panic!("not the batchnorm graph: {other:?}"),
    }
}

#[test]
fn batchnorm_inference_then_activation_is_the_batchnorm_two_node_graph() {
    use crate::batchnorm::{fused, uid};
    let tr = translate_with(&bn_relu(), ActivationArgs::AT_COMPILE, 1e-3).unwrap();
    assert_eq!(tr.output, t(&[2, 3, 4, 5]), "the output is the plan's input descriptor");
    let g = bn_graph(&tr);
    assert!(g.bn.y.is_virtual && g.bn.y.dtype == ElemType::F32, "y is the virtual FLOAT intermediate");
    assert_eq!((g.bn.y.uid, g.out.uid, g.out.is_virtual), (uid::Y, fused::OUT, false));
    assert_eq!(g.bn.epsilon_bits, 1e-3f64.to_bits());
    assert_eq!((g.lower_clip, g.upper_clip), (None, None));
    for (name, s) in [("scale", &g.bn.scale), ("bias", &g.bn.bias), ("mean", &g.bn.mean), ("variance", &g.bn.variance)]
    {
        assert_eq!((s.name, s.dims.as_slice(), s.dtype), (name, &[1, 3, 1, 1][..], ElemType::F32));
    }
    // translate() compiles with the placeholder epsilon.
    let at_compile = translate(&bn_relu(), ActivationArgs::AT_COMPILE).unwrap();
    assert_eq!(bn_graph(&at_compile).bn.epsilon_bits, fused::EPSILON_AT_COMPILE.to_bits());
    // The clips come from the activation's arguments, as the convolution's.
    let clipped = bn_plan(t(&[2, 3, 4, 5]), t(&[1, 3, 1, 1]), 1, act::CLIPPEDRELU);
    let g = translate_with(&clipped, ActivationArgs { alpha: 6.0, beta: 0.0 }, 1e-5).unwrap();
    assert_eq!((bn_graph(&g).lower_clip, bn_graph(&g).upper_clip), (Some(0f32.to_bits()), Some(6f32.to_bits())));
    let clamp = bn_plan(t(&[2, 3, 4, 5]), t(&[1, 3, 1, 1]), 1, act::CLAMP);
    let g = translate_with(&clamp, ActivationArgs { alpha: -1.0, beta: 2.0 }, 1e-5).unwrap();
    assert_eq!((bn_graph(&g).lower_clip, bn_graph(&g).upper_clip), (Some((-1f32).to_bits()), Some(2f32.to_bits())));
    // fp16 x with fp32 parameters is forwarded; the output keeps x's type.
    let mut x16 = t(&[2, 3, 4, 5]);
    x16.dtype = miopen_type::HALF;
    let g = translate_with(&bn_plan(x16, t(&[1, 3, 1, 1]), 1, act::RELU), ActivationArgs::AT_COMPILE, 1e-5).unwrap();
    assert_eq!((bn_graph(&g).bn.x.dtype, bn_graph(&g).out.dtype), (ElemType::F16, ElemType::F16));
}

#[test]
fn the_batchnorm_graph_key_tells_apart_epsilon_and_clips() {
    let key = |mode, a: f64, eps: f64| {
        let p = bn_plan(t(&[2, 3, 4, 5]), t(&[1, 3, 1, 1]), 1, mode);
        bn_graph(&translate_with(&p, ActivationArgs { alpha: a, beta: 0.0 }, eps).unwrap()).clone()
    };
    assert_eq!(key(act::RELU, 0.0, 1e-5), key(act::RELU, 0.0, 1e-5));
    assert_ne!(key(act::RELU, 0.0, 1e-5), key(act::RELU, 0.0, 1e-5 + 1e-20), "epsilon's bits");
    assert_ne!(key(act::CLIPPEDRELU, 6.0, 1e-5), key(act::CLIPPEDRELU, 5.0, 1e-5), "the clip");
    assert_ne!(key(act::CLIPPEDRELU, 6.0, 1e-5), key(act::RELU, 6.0, 1e-5), "the mode");
}

#[test]
fn batchnorm_plans_the_fused_kernel_or_the_provider_would_compute_otherwise_are_declined() {
    let d = |p: &Plan| cause(translate_with(p, ActivationArgs::AT_COMPILE, 1e-5));
    let p = |x: Tensor, params: Tensor, mode: u32, act_mode: u32| bn_plan(x, params, mode, act_mode);
    assert!(d(&p(t(&[2, 3, 4, 5]), t(&[1, 3, 4, 5]), 0, act::RELU)).starts_with("per-activation batchnorm"));
    assert!(d(&p(t(&[2, 3, 4, 5]), t(&[1, 3, 1, 1]), 5, act::RELU)).starts_with("batchnorm mode 5"));
    assert!(d(&p(t(&[2, 3, 2, 4, 5]), t(&[1, 3, 1, 1, 1]), 1, act::RELU)).starts_with("x has 5 dimensions"));
    let nhwc =
        Tensor { dtype: miopen_type::FLOAT, dims: vec![2, 3, 4, 5], strides: packed_strides(&[2, 3, 4, 5], true) };
    assert!(d(&p(nhwc, t(&[1, 3, 1, 1]), 1, act::RELU)).starts_with("x is not packed NCHW"));
    let mut bf16 = t(&[2, 3, 4, 5]);
    bf16.dtype = miopen_type::BFLOAT16;
    assert!(d(&p(bf16, t(&[1, 3, 1, 1]), 1, act::RELU)).contains("fp32 and fp16 only"));
    let mut half_params = t(&[1, 3, 1, 1]);
    half_params.dtype = miopen_type::HALF;
    assert!(d(&p(t(&[2, 3, 4, 5]), half_params, 1, act::RELU)).contains("fp32 scale, bias, mean and variance only"));
    assert!(d(&p(t(&[2, 3, 4, 5]), t(&[1, 4, 1, 1]), 1, act::RELU)).contains("is not the (1, 3, 1, ...) tensor"));
    assert!(d(&p(t(&[2, 3, 4, 5]), t(&[1, 3, 1, 1]), 1, act::PASTHRU)).contains("PASTHRU"));
    assert!(cause(translate_with(
        &p(t(&[2, 3, 4, 5]), t(&[1, 3, 1, 1]), 1, act::CLIPPEDRELU),
        ActivationArgs { alpha: 0.1, beta: 0.0 },
        1e-5
    ))
    .contains("not exact"));
    // Other batchnorm plans name their operators and what is forwardable.
    let alone = Plan { ops: vec![bn_relu().ops[0].clone()], ..bn_relu() };
    assert_eq!(
        d(&alone),
        "operators batchnorm inference (forwardable: conv -> [bias] -> activation, batchnorm inference -> activation, \
         batchnorm backward -> activation backward)"
    );
    let three = Plan { ops: [bn_relu().ops, vec![Op::Activation { mode: act::RELU }]].concat(), ..bn_relu() };
    assert!(d(&three).starts_with("operators batchnorm inference -> activation -> activation (forwardable: "));
    let reversed =
        Plan { ops: vec![Op::ActivationBackward { mode: act::RELU }, Op::BatchNormBackward { mode: 1 }], ..bn_relu() };
    assert!(d(&reversed).starts_with("operators activation backward -> batchnorm backward (forwardable: "));
    let lone = Plan { ops: vec![Op::BatchNormBackward { mode: 1 }], ..bn_relu() };
    assert!(d(&lone).starts_with("operators batchnorm backward (forwardable: "));
    // MIOpen's mode-2 line (LogCmdBnormFusion), not the convolution's; none
    // for another batchnorm plan (MIOpen Private runs it).
    assert_eq!(
        driver_line(&bn_relu()).unwrap(),
        "MIOpen(HIP): Command [LogCmdFusion] ./bin/MIOpenDriver CBAInfer -J 2 -n 2 -c 3 -H 4 -W 5 -m 1 -I 0\n"
    );
    let mut bf16 = bn_relu();
    bf16.input.dtype = crate::tensor::miopen_type::BFLOAT16;
    bf16.input.dims = vec![1, 2, 3, 4, 5];
    assert!(driver_line(&bf16).unwrap().contains("CBAInferfp16 -J 2 -n 1 -c 2 -D 3 -H 4 -W 5 -m 1 -I 0\n"));
    assert_eq!(driver_line(&alone), None);
    let mut two_d = bn_relu();
    two_d.input.dims = vec![2, 3];
    assert_eq!(driver_line(&two_d), None, "MIOpen reads past the lengths: no line to copy");
}

#[test]
fn batchnorm_backward_then_activation_backward_is_the_batchnorm_three_node_graph() {
    use crate::batchnorm::fused::DY_ACTIVATED;
    use crate::batchnorm::uid;
    let plan = |mode, activation| Plan {
        ops: vec![Op::BatchNormBackward { mode }, Op::ActivationBackward { mode: activation }],
        ..bn_relu()
    };
    let tr = translate(&plan(1, act::RELU), ActivationArgs::AT_COMPILE).expect("forwarded");
    assert_eq!(tr.output, plan(1, act::RELU).input);
    let Graph::BatchNormBackwardActivation(g) = &tr.spec else { panic!("not the backward graph: {:?}", tr.spec) };
    assert_eq!((g.dy.uid, g.dx.uid, g.dy_activated.uid), (uid::DY, uid::DX, DY_ACTIVATED));
    assert!(tr.spec.conv().is_none());
    // The activation's arguments and a batchnorm epsilon change nothing.
    let other = translate_with(&plan(1, act::RELU), ActivationArgs { alpha: 3.0, beta: 1.0 }, 0.5).expect("forwarded");
    assert_eq!(other, tr);
    let d = |p: &Plan| cause(translate(p, ActivationArgs::AT_COMPILE));
    assert!(d(&plan(1, act::CLIPPEDRELU)).starts_with("activation backward mode CLIPPEDRELU"));
    assert!(d(&plan(0, act::RELU)).starts_with("per-activation batchnorm"));
    assert_eq!(driver_line(&plan(1, act::RELU)), None);
}
