use super::*;

fn packed(dims: &[i64]) -> Vec<i64> {
    let mut s = vec![1; dims.len()];
    for i in (0..dims.len() - 1).rev() {
        s[i] = s[i + 1] * dims[i + 1];
    }
    s
}

fn t(dtype: u32, dims: &[i64]) -> Tensor {
    Tensor { dtype, dims: dims.to_vec(), strides: packed(dims) }
}

fn conv(pads: &[i64]) -> ConvParams {
    let n = pads.len();
    ConvParams {
        mode: miopen_mode::CONVOLUTION,
        pads: pads.to_vec(),
        strides: vec![1; n],
        dilations: vec![1; n],
        groups: 1,
        deterministic: 0,
        fp16_alt_impl: -1,
    }
}

fn problem() -> Problem {
    let f = miopen_type::FLOAT;
    Problem {
        direction: Direction::Forward,
        x: t(f, &[2, 4, 8, 8]),
        w: t(f, &[6, 4, 3, 3]),
        y: t(f, &[2, 6, 8, 8]),
        conv: conv(&[1, 1]),
    }
}

fn cause(r: Result<GraphSpec, Decline>) -> String {
    r.expect_err("declined").0
}

#[test]
fn plain_problem_translates_with_symmetric_padding() {
    let g = translate(&problem()).unwrap();
    assert_eq!(g.x.dims, vec![2, 4, 8, 8]);
    assert_eq!(g.w.dims, vec![6, 4, 3, 3]);
    assert_eq!(g.pre_padding, vec![1, 1]);
    assert_eq!(g.post_padding, g.pre_padding);
    assert_eq!((g.x.uid, g.w.uid, g.y.uid), (uid::X, uid::W, uid::Y));
    assert!(!g.x.is_virtual && g.fused.is_none());
    assert_eq!(g.x.dtype, ElemType::F32);
}

#[test]
fn nhwc_strides_are_kept_as_the_layout() {
    let mut p = problem();
    p.x.strides = vec![8 * 8 * 4, 1, 8 * 4, 4];
    let g = translate(&p).unwrap();
    assert_eq!(g.x.strides, vec![256, 1, 32, 4]);
    assert_eq!(g.x.dims, vec![2, 4, 8, 8]);
}

#[test]
fn groups_go_through_the_weight_shape_and_every_group_mode() {
    for mode in [miopen_mode::CONVOLUTION, miopen_mode::GROUP_CONV, miopen_mode::DEPTHWISE] {
        let mut p = problem();
        p.conv.mode = mode;
        p.conv.groups = 2;
        p.w = t(miopen_type::FLOAT, &[6, 2, 3, 3]);
        let g = translate(&p).unwrap();
        assert_eq!(g.w.dims, vec![6, 2, 3, 3]);
    }
    let mut p = problem();
    p.conv.groups = 4; // depthwise: C/G = 1
    p.w = t(miopen_type::FLOAT, &[8, 1, 3, 3]);
    p.y = t(miopen_type::FLOAT, &[2, 8, 8, 8]);
    assert!(translate(&p).is_ok());
}

#[test]
fn mixed_and_unforwarded_types_are_declined_by_name() {
    let mut p = problem();
    p.w.dtype = miopen_type::HALF;
    assert_eq!(cause(translate(&p)), "mixed types (x=miopenFloat, w=miopenHalf, y=miopenFloat)");
    let mut p = problem();
    for x in [&mut p.x, &mut p.w, &mut p.y] {
        x.dtype = miopen_type::INT8;
    }
    assert_eq!(cause(translate(&p)), "type miopenInt8 (forwardable: miopenFloat, miopenHalf, miopenBFloat16)");
    for ty in [miopen_type::HALF, miopen_type::BFLOAT16] {
        let mut p = problem();
        for x in [&mut p.x, &mut p.w, &mut p.y] {
            x.dtype = ty;
        }
        assert!(translate(&p).is_ok());
    }
}

#[test]
fn attributes_transpose_and_rank_decline() {
    let mut p = problem();
    p.conv.deterministic = 1;
    assert!(cause(translate(&p)).starts_with("MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC=1"));
    let mut p = problem();
    p.conv.fp16_alt_impl = 1; // only changes fp16 problems
    assert!(translate(&p).is_ok());
    for x in [&mut p.x, &mut p.w, &mut p.y] {
        x.dtype = miopen_type::HALF;
    }
    assert!(cause(translate(&p)).starts_with("MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL=1"));
    for default in [-1, 0] {
        p.conv.fp16_alt_impl = default;
        assert!(translate(&p).is_ok(), "FP16_ALT_IMPL={default} is MIOpen's default or off");
    }
    let mut p = problem();
    p.conv.mode = miopen_mode::TRANSPOSE;
    assert_eq!(cause(translate(&p)), "miopenTranspose mode (not translated)");
    let mut p = problem();
    p.conv = conv(&[0, 0, 0, 0]);
    assert!(cause(translate(&p)).starts_with("4 spatial dimensions"));
}

#[test]
fn invalid_problems_are_left_to_miopen() {
    let mut p = problem();
    p.y.dims[3] = 7;
    assert!(cause(translate(&p)).contains("invalid problem"));
    let mut p = problem();
    p.w.dims[1] = 3;
    assert!(cause(translate(&p)).contains("channels do not match groups"));
    let mut p = problem();
    p.x.strides[0] = 0;
    assert!(cause(translate(&p)).contains("non-positive"));
    let mut p = problem();
    p.x.dims.push(4); // vectorized layouts report an extra dimension
    p.x.strides.push(1);
    assert!(cause(translate(&p)).contains("vectorized"));
}

#[test]
fn strided_dilated_3d_output_is_checked() {
    let f = miopen_type::FLOAT;
    let mut p = Problem {
        direction: Direction::BackwardData,
        x: t(f, &[1, 2, 7, 9, 5]),
        w: t(f, &[3, 2, 3, 3, 2]),
        y: t(f, &[1, 3, 3, 4, 4]),
        conv: conv(&[1, 0, 1]),
    };
    p.conv.strides = vec![2, 2, 1];
    p.conv.dilations = vec![2, 1, 1];
    // d=2: span 5, (7+2-5)/2+1 = 3; (9-3)/2+1 = 4; (5+2-2)/1+1 = 6 -> wrong on purpose
    assert!(cause(translate(&p)).contains("spatial dimension 2"));
    p.y.dims[4] = 6;
    p.y.strides = packed(&p.y.dims);
    let g = translate(&p).unwrap();
    assert_eq!(g.dilations, vec![2, 1, 1]);
    assert_eq!(g.filter_strides, vec![2, 2, 1]);
}

#[test]
fn one_d_is_lifted_to_2d_exactly() {
    let f = miopen_type::FLOAT;
    let p = Problem {
        direction: Direction::Forward,
        x: t(f, &[1, 2, 10]),
        w: t(f, &[4, 2, 3]),
        y: t(f, &[1, 4, 10]),
        conv: conv(&[1]),
    };
    let g = translate(&p).unwrap();
    assert_eq!(g.x.dims, vec![1, 2, 1, 10]);
    assert_eq!(g.x.strides, vec![20, 10, 10, 1]);
    assert_eq!(g.pre_padding, vec![0, 1]);
    assert_eq!(g.filter_strides, vec![1, 1]);
}

fn epilogue(mode: u32, alpha: f64, beta: f64, bias: bool) -> Epilogue {
    Epilogue {
        bias: bias.then(|| t(miopen_type::FLOAT, &[1, 6, 1, 1])),
        has_z: false,
        activation: Activation { mode, alpha, beta },
    }
}

#[test]
fn fused_relu_family_maps_to_clips() {
    let p = problem();
    let g = translate_fused(&p, &epilogue(miopen_activation::RELU, 0.0, 0.0, true)).unwrap();
    let fu = g.fused.unwrap();
    assert_eq!((fu.lower_clip, fu.upper_clip), (None, None));
    let (bias, add) = fu.bias.unwrap();
    assert_eq!(bias.dims, vec![1, 6, 1, 1]);
    assert!(add.is_virtual && fu.conv_out.is_virtual);
    assert_eq!(fu.conv_out.dtype, ElemType::F32);
    let g = translate_fused(&p, &epilogue(miopen_activation::CLIPPEDRELU, 6.0, 0.0, false)).unwrap();
    let fu = g.fused.unwrap();
    assert_eq!((fu.lower_clip, fu.upper_clip), (Some(0f32.to_bits()), Some(6f32.to_bits())));
    assert!(fu.bias.is_none());
    let g = translate_fused(&p, &epilogue(miopen_activation::CLAMP, -1.0, 2.0, true)).unwrap();
    let fu = g.fused.unwrap();
    assert_eq!((fu.lower_clip, fu.upper_clip), (Some((-1f32).to_bits()), Some(2f32.to_bits())));
}

#[test]
fn fused_declines() {
    let p = problem();
    let mut f = epilogue(miopen_activation::RELU, 0.0, 0.0, true);
    f.has_z = true;
    assert!(cause(translate_fused(&p, &f)).starts_with("z is given"));
    assert!(cause(translate_fused(&p, &epilogue(miopen_activation::PASTHRU, 0.0, 0.0, true))).contains("PASTHRU"));
    assert!(cause(translate_fused(&p, &epilogue(1, 0.0, 0.0, true))).contains("activation mode 1"));
    assert!(cause(translate_fused(&p, &epilogue(miopen_activation::CLIPPEDRELU, 0.1, 0.0, true))).contains("not exact"));
    let mut f = epilogue(miopen_activation::RELU, 0.0, 0.0, true);
    f.bias = Some(t(miopen_type::FLOAT, &[1, 6, 2, 1]));
    assert!(cause(translate_fused(&p, &f)).starts_with("bias is not"));
    f.bias = Some(t(miopen_type::HALF, &[1, 6, 1, 1]));
    assert!(cause(translate_fused(&p, &f)).starts_with("bias type miopenHalf"));
}

#[test]
fn equal_problems_give_equal_keys() {
    use std::collections::HashSet;
    let a = translate(&problem()).unwrap();
    let b = translate(&problem()).unwrap();
    let mut p = problem();
    p.conv.pads = vec![1, 0];
    p.y = t(miopen_type::FLOAT, &[2, 6, 8, 6]);
    let c = translate(&p).unwrap();
    let set: HashSet<_> = [a, b, c].into_iter().collect();
    assert_eq!(set.len(), 2);
}

#[test]
fn the_direction_table_orders_the_query_calls_and_names_the_data() {
    let (x, w, y) = ("x", "w", "y");
    assert_eq!(Direction::Forward.query_order([x, w, y]), [w, x, y]);
    assert_eq!(Direction::BackwardData.query_order([x, w, y]), [y, w, x]);
    assert_eq!(Direction::BackwardWeights.query_order([x, w, y]), [y, x, w]);
    for d in Direction::ALL {
        assert_eq!(d.from_query_order(d.query_order([x, w, y])), [x, w, y], "{d:?}");
    }
    let flags: Vec<u32> = Direction::ALL.iter().map(|d| d.driver_flag()).collect();
    assert_eq!(flags, [1, 2, 4]);
    assert_eq!(Direction::BackwardData.data_names(), ["dx", "w", "dy"]);
    assert_eq!(Direction::BackwardWeights.as_str(), "backward-weights");
}

#[test]
fn the_largest_epilogue_is_a_bias_and_relu_of_y() {
    let p = problem();
    let g = translate_fused(&p, &Epilogue::largest(&p)).unwrap();
    let fu = g.fused.unwrap();
    assert_eq!(fu.bias.unwrap().0.dims, vec![1, 6, 1, 1]);
    assert_eq!((fu.lower_clip, fu.upper_clip), (None, None));
}
