//! A plain convolution problem to its hipDNN graph spec, or the decline:
//! the problem is forwarded only when hipDNN can express it *exactly*;
//! anything off is declined with a cause, and MIOpen Private runs the call
//! (returning its own status for an invalid problem).

use super::problem::{miopen_mode, ConvParams, Problem};
use super::spec::{uid, GraphSpec};
use crate::print::Int;
use crate::tensor::{decline, miopen_type, Decline, ElemType, Tensor, TensorSpec};

/// The most spatial dimensions forwarded (MIOpen's 3-D convolutions).
pub const MAX_SPATIAL: usize = 3;

/// Translate a plain convolution problem, or say why not.
pub fn translate(p: &Problem) -> Result<GraphSpec, Decline> {
    let dtype = common_type(&[("x", &p.x), ("w", &p.w), ("y", &p.y)])?;
    check_attributes(&p.conv, dtype)?;
    let spatial = check_shapes(p)?;
    let (x, w, y) = lift_1d(p, spatial);
    let pads = lift(&p.conv.pads, spatial, 0);
    Ok(GraphSpec {
        direction: p.direction,
        x: tensor(uid::X, "x", dtype, x),
        w: tensor(uid::W, "w", dtype, w),
        y: tensor(uid::Y, "y", dtype, y),
        pre_padding: pads.clone(),
        post_padding: pads,
        filter_strides: lift(&p.conv.strides, spatial, 1),
        dilations: lift(&p.conv.dilations, spatial, 1),
        fused: None,
    })
}

/// Attributes frameworks set must keep their meaning: no hipDNN engine in
/// the pinned set promises deterministic kernels or MIOpen's alternate fp16
/// path, so a problem asking for either stays on MIOpen. MIOpen's values:
/// DETERMINISTIC 0 (default) or 1; FP16_ALT_IMPL -1 (default, decided by
/// MIOpen), 0 (off) or 1 (on), and it only changes fp16 problems.
fn check_attributes(c: &ConvParams, dtype: ElemType) -> Result<(), Decline> {
    if c.deterministic > 0 {
        return decline(format!(
            "MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC={} (no hipDNN engine is known to honour it)",
            c.deterministic
        ));
    }
    if c.fp16_alt_impl > 0 && dtype == ElemType::F16 {
        return decline(format!(
            "MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL={} (no hipDNN engine is known to honour it)",
            c.fp16_alt_impl
        ));
    }
    match c.mode {
        miopen_mode::CONVOLUTION | miopen_mode::GROUP_CONV | miopen_mode::DEPTHWISE => Ok(()),
        miopen_mode::TRANSPOSE => decline("miopenTranspose mode (not translated)"),
        m => decline(format!("convolution mode {} (unknown)", Int(m))),
    }
}

/// Every tensor must have the same forwarded type: hipDNN's conv graph has
/// one storage type per tensor, and a mixed problem would be a different
/// computation from MIOpen's.
fn common_type(ts: &[(&str, &Tensor)]) -> Result<ElemType, Decline> {
    let first = ts[0].1.dtype;
    if ts.iter().any(|(_, t)| t.dtype != first) {
        let list: Vec<String> = ts.iter().map(|(n, t)| format!("{n}={}", miopen_type::name(t.dtype))).collect();
        return decline(format!("mixed types ({})", list.join(", ")));
    }
    ElemType::from_miopen(first)
        .ok_or_else(|| Decline(format!("type {} (forwardable: {})", miopen_type::name(first), ElemType::forwardable())))
}

/// Shapes must be a valid convolution; returns the spatial rank. Anything
/// off is declined so MIOpen Private reports it with its own status.
fn check_shapes(p: &Problem) -> Result<usize, Decline> {
    let c = &p.conv;
    let spatial = c.pads.len();
    if spatial == 0 || spatial > MAX_SPATIAL {
        return decline(format!("{spatial} spatial dimensions (forwardable: 1 to {MAX_SPATIAL})"));
    }
    if c.strides.len() != spatial || c.dilations.len() != spatial {
        return decline("inconsistent convolution descriptor (invalid problem: MIOpen decides)");
    }
    for (name, t) in [("x", &p.x), ("w", &p.w), ("y", &p.y)] {
        if t.dims.len() != spatial + 2 || t.strides.len() != t.dims.len() {
            return decline(format!(
                "{name} has {} dimensions for a {spatial}-D convolution (invalid or vectorized layout: MIOpen decides)",
                t.dims.len()
            ));
        }
        if t.dims.iter().any(|&d| d <= 0) || t.strides.iter().any(|&s| s <= 0) {
            return decline(format!("{name} has a non-positive length or stride (invalid problem: MIOpen decides)"));
        }
    }
    if c.pads.iter().any(|&v| v < 0) || c.strides.iter().chain(&c.dilations).any(|&v| v <= 0) {
        return decline("negative padding or non-positive stride/dilation (invalid problem: MIOpen decides)");
    }
    check_channels(p)?;
    check_output(p, spatial)?;
    Ok(spatial)
}

fn check_channels(p: &Problem) -> Result<(), Decline> {
    let g = p.conv.groups;
    let (n, c, k) = (p.x.dims[0], p.x.dims[1], p.w.dims[0]);
    if g < 1 || c % g != 0 || k % g != 0 || p.w.dims[1].checked_mul(g) != Some(c) {
        return decline(format!(
            "channels do not match groups (x.C={c}, w=[{k}, {}], groups={g}; invalid problem: MIOpen decides)",
            p.w.dims[1]
        ));
    }
    if p.y.dims[0] != n || p.y.dims[1] != k {
        return decline("y's N or C does not match x and w (invalid problem: MIOpen decides)");
    }
    Ok(())
}

fn check_output(p: &Problem, spatial: usize) -> Result<(), Decline> {
    for i in 0..spatial {
        let Some(out) = p.conv.output_length(i, p.x.dims[i + 2], p.w.dims[i + 2]) else {
            return decline(format!("spatial dimension {i} overflows (invalid problem: MIOpen decides)"));
        };
        if out != p.y.dims[i + 2] {
            return decline(format!(
                "y's spatial dimension {i} is {} but the convolution gives {out} (invalid problem: MIOpen decides)",
                p.y.dims[i + 2]
            ));
        }
    }
    Ok(())
}

/// A tensor's dims and strides.
type Shape = (Vec<i64>, Vec<i64>);

/// A 1-D convolution is the 2-D one with a unit height: exact, and the form
/// every hipDNN engine takes.
fn lift_1d(p: &Problem, spatial: usize) -> (Shape, Shape, Shape) {
    let one = |t: &Tensor| -> Shape {
        if spatial != 1 {
            return (t.dims.clone(), t.strides.clone());
        }
        let (d, s) = (&t.dims, &t.strides);
        (vec![d[0], d[1], 1, d[2]], vec![s[0], s[1], d[2] * s[2], s[2]])
    };
    (one(&p.x), one(&p.w), one(&p.y))
}

fn lift(v: &[i64], spatial: usize, unit: i64) -> Vec<i64> {
    if spatial == 1 {
        vec![unit, v[0]]
    } else {
        v.to_vec()
    }
}

fn tensor(uid: i64, name: &'static str, dtype: ElemType, ds: Shape) -> TensorSpec {
    TensorSpec { uid, name, dtype, dims: ds.0, strides: ds.1, is_virtual: false }
}
