use super::*;
use crate::ops::conv::{miopen_activation as act, ConvParams};
use crate::tensor::miopen_type;

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
    assert_eq!(tr.spec, translate_fused(&p, &e).unwrap());
}

#[test]
fn without_bias_and_with_clips_from_the_arguments() {
    let p = plan(vec![conv_op(), Op::Activation { mode: act::CLIPPEDRELU }]);
    let tr = translate(&p, ActivationArgs { alpha: 6.0, beta: 0.0 }).unwrap();
    let fu = tr.spec.fused.unwrap();
    assert!(fu.bias.is_none());
    assert_eq!(fu.upper_clip, Some(6f32.to_bits()));
    let p = plan(vec![conv_op(), Op::Activation { mode: act::CLAMP }]);
    let fu = translate(&p, ActivationArgs { alpha: -1.0, beta: 2.0 }).unwrap().spec.fused.unwrap();
    assert_eq!((fu.lower_clip, fu.upper_clip), (Some((-1f32).to_bits()), Some(2f32.to_bits())));
    assert!(cause(translate(&p, ActivationArgs { alpha: 0.1, beta: 2.0 })).contains("not exact"));
}

#[test]
fn other_plans_are_declined_with_their_operators() {
    assert_eq!(
        cause(translate(&plan(vec![]), ActivationArgs::AT_COMPILE)),
        "the plan has no operators (MIOpen decides)"
    );
    let bn = plan(vec![conv_op(), Op::BatchNormInference, Op::Activation { mode: act::RELU }]);
    assert_eq!(
        cause(translate(&bn, ActivationArgs::AT_COMPILE)),
        "operators conv -> batchnorm inference -> activation (forwardable: conv -> [bias] -> activation)"
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
    assert_eq!(driver_line(&plan(vec![conv_op(), Op::BatchNormInference, Op::Activation { mode: act::RELU }])), None);
    assert_eq!(driver_line(&plan(vec![conv_op()])), None);
}
