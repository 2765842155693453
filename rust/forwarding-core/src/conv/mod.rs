//! The convolution problem model: MIOpen descriptor fields in, a hipDNN
//! graph spec or a decline reason out (the `convolution` group).
//!
//! The wrapper reads the descriptors through MIOpen Private's getters and
//! hands the plain values here; this module decides whether hipDNN can
//! express the problem *exactly* and, if so, what graph to build. Anything
//! it cannot prove equal is declined with a cause, and MIOpen Private runs
//! the call (and returns its own status for an invalid problem).

pub mod driver_cmd;
pub mod group;

pub use crate::tensor::{decline, miopen_type, Decline, ElemType, Tensor, TensorSpec};

/// Convolution direction, in MIOpen's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    Forward,
    BackwardData,
    BackwardWeights,
}

impl Direction {
    pub const ALL: [Direction; 3] = [Direction::Forward, Direction::BackwardData, Direction::BackwardWeights];

    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Forward => "forward",
            Direction::BackwardData => "backward-data",
            Direction::BackwardWeights => "backward-weights",
        }
    }

    /// MIOpen's names of the (x, w, y) data of the direction, as its API
    /// names the arguments (`dx`, `dw`, `dy` for the gradients); a
    /// descriptor is the name with `Desc`.
    pub fn data_names(self) -> [&'static str; 3] {
        match self {
            Direction::Forward => ["x", "w", "y"],
            Direction::BackwardData => ["dx", "w", "dy"],
            Direction::BackwardWeights => ["x", "dw", "dy"],
        }
    }

    /// (x, w, y) in the (a, b, c) order of the direction's query calls
    /// (`GetWorkSpaceSize`, `GetSolution*`, `Immediate`'s descriptors):
    /// forward (w, x, y), backward-data (dy, w, dx), backward-weights
    /// (dy, x, dw).
    pub fn query_order<T: Copy>(self, [x, w, y]: [T; 3]) -> [T; 3] {
        match self {
            Direction::Forward => [w, x, y],
            Direction::BackwardData => [y, w, x],
            Direction::BackwardWeights => [y, x, w],
        }
    }

    /// The inverse of [`Direction::query_order`]: (a, b, c) to (x, w, y).
    pub fn from_query_order<T: Copy>(self, [a, b, c]: [T; 3]) -> [T; 3] {
        match self {
            Direction::Forward => [b, a, c],
            Direction::BackwardData => [c, b, a],
            Direction::BackwardWeights => [b, c, a],
        }
    }
}

/// MIOpen's `miopenConvolutionMode_t`.
pub mod miopen_mode {
    pub const CONVOLUTION: u32 = 0;
    pub const TRANSPOSE: u32 = 1;
    pub const GROUP_CONV: u32 = 2;
    pub const DEPTHWISE: u32 = 3;
}

/// MIOpen's `miopenActivationMode_t` values the fused path maps.
pub mod miopen_activation {
    pub const PASTHRU: u32 = 0;
    pub const RELU: u32 = 3;
    pub const CLIPPEDRELU: u32 = 7;
    pub const CLAMP: u32 = 10;
}

/// A convolution descriptor as MIOpen reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvParams {
    pub mode: u32,
    pub pads: Vec<i64>,
    pub strides: Vec<i64>,
    pub dilations: Vec<i64>,
    pub groups: i64,
    /// `MIOPEN_CONVOLUTION_ATTRIB_DETERMINISTIC`.
    pub deterministic: i32,
    /// `MIOPEN_CONVOLUTION_ATTRIB_FP16_ALT_IMPL`.
    pub fp16_alt_impl: i32,
}

/// One convolution problem in forward naming whatever the direction: `x`
/// is the input (dx for backward-data), `w` the weights (dw for
/// backward-weights), `y` the output (dy for both backward directions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub direction: Direction,
    pub x: Tensor,
    pub w: Tensor,
    pub y: Tensor,
    pub conv: ConvParams,
}

/// The activation of a fused call, as MIOpen's descriptor holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Activation {
    pub mode: u32,
    pub alpha: f64,
    pub beta: f64,
}

/// The extra inputs of `miopenConvolutionBiasActivationForward`.
#[derive(Debug, Clone, PartialEq)]
pub struct Fusion {
    /// The bias descriptor; None when the call passes no bias pointer.
    pub bias: Option<Tensor>,
    /// The call passes a `z` (residual) pointer.
    pub has_z: bool,
    pub activation: Activation,
}

/// Unique ids of the graph's tensors (also the variant-pack keys).
pub mod uid {
    pub const X: i64 = 1;
    pub const W: i64 = 2;
    pub const Y: i64 = 3;
    pub const BIAS: i64 = 4;
    pub const CONV_OUT: i64 = 5;
    pub const ADD_OUT: i64 = 6;
}

/// The fused tail of a conv -> [bias add] -> ReLU graph. Clips are stored as
/// f32 bit patterns so the spec can be a cache key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FusedSpec {
    /// The virtual conv output (fp32).
    pub conv_out: TensorSpec,
    /// The bias tensor and the virtual output of the add.
    pub bias: Option<(TensorSpec, TensorSpec)>,
    pub lower_clip: Option<u32>,
    pub upper_clip: Option<u32>,
}

/// Everything needed to build the hipDNN graph; equal specs build equal
/// plans, so the spec (plus the MIOpen handle) is the plan-cache key.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct GraphSpec {
    pub direction: Direction,
    pub x: TensorSpec,
    pub w: TensorSpec,
    pub y: TensorSpec,
    pub pre_padding: Vec<i64>,
    pub post_padding: Vec<i64>,
    pub filter_strides: Vec<i64>,
    pub dilations: Vec<i64>,
    pub fused: Option<FusedSpec>,
}

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
        x: tensor(uid::X, "x", dtype, x, false),
        w: tensor(uid::W, "w", dtype, w, false),
        y: tensor(uid::Y, "y", dtype, y, false),
        pre_padding: pads.clone(),
        post_padding: pads,
        filter_strides: lift(&p.conv.strides, spatial, 1),
        dilations: lift(&p.conv.dilations, spatial, 1),
        fused: None,
    })
}

/// MIOpen's `miopenConvolutionBiasActivationForward` takes RELU alone
/// (`miopenStatusNotImplemented` for any other mode, before the plan it
/// builds is compiled), although the fused graph, which fusion plans share,
/// has the clips of CLIPPEDRELU and CLAMP.
pub fn one_call_activation(a: &Activation) -> Result<(), Decline> {
    if a.mode != miopen_activation::RELU {
        return decline(format!(
            "activation mode {} (miopenConvolutionBiasActivationForward takes RELU only: MIOpen decides)",
            a.mode
        ));
    }
    Ok(())
}

/// Translate `miopenConvolutionBiasActivationForward`: y = act(conv(x, w) + bias).
pub fn translate_fused(p: &Problem, f: &Fusion) -> Result<GraphSpec, Decline> {
    if f.has_z {
        return decline("z is given (hipDNN's fused conv graph has no residual input)");
    }
    let (lower, upper) = activation_clips(&f.activation)?;
    if p.conv.pads.len() == 1 {
        return decline("1-D fused convolution (the bias would need the 2-D lift too; not translated)");
    }
    let mut spec = translate(p)?;
    let conv_out =
        TensorSpec { uid: uid::CONV_OUT, name: "conv_out", dtype: ElemType::F32, is_virtual: true, ..spec.y.clone() };
    let bias = match &f.bias {
        None => None,
        Some(b) => Some(bias_tensors(b, &spec, &conv_out)?),
    };
    spec.fused =
        Some(FusedSpec { conv_out, bias, lower_clip: lower.map(f32::to_bits), upper_clip: upper.map(f32::to_bits) });
    Ok(spec)
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
        m => decline(format!("convolution mode {m} (unknown)")),
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
    ElemType::from_miopen(first).ok_or_else(|| Decline(format!("type {} (not forwarded)", miopen_type::name(first))))
}

/// Shapes must be a valid convolution; returns the spatial rank. Anything
/// off is declined so MIOpen Private reports it with its own status.
fn check_shapes(p: &Problem) -> Result<usize, Decline> {
    let c = &p.conv;
    let spatial = c.pads.len();
    if spatial == 0 || spatial > MAX_SPATIAL {
        return decline(format!("{spatial} spatial dimensions (forwarded: 1 to {MAX_SPATIAL})"));
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
    if g < 1 || c % g != 0 || k % g != 0 || p.w.dims[1] * g != c {
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
    let c = &p.conv;
    for i in 0..spatial {
        let span = c.dilations[i] * (p.w.dims[i + 2] - 1) + 1;
        let padded = p.x.dims[i + 2] + 2 * c.pads[i];
        let out = if padded >= span { (padded - span) / c.strides[i] + 1 } else { 0 };
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

fn tensor(uid: i64, name: &'static str, dtype: ElemType, ds: Shape, is_virtual: bool) -> TensorSpec {
    TensorSpec { uid, name, dtype, dims: ds.0, strides: ds.1, is_virtual }
}

/// MIOpen's activation as hipDNN's RELU_FWD clips (lower, upper).
fn activation_clips(a: &Activation) -> Result<(Option<f32>, Option<f32>), Decline> {
    let exact = |v: f64, what: &str| -> Result<f32, Decline> {
        let f = v as f32;
        if f64::from(f) == v {
            Ok(f)
        } else {
            decline(format!("activation {what}={v} is not exact in fp32"))
        }
    };
    match a.mode {
        miopen_activation::RELU => Ok((None, None)),
        miopen_activation::CLIPPEDRELU => Ok((Some(0.0), Some(exact(a.alpha, "alpha")?))),
        miopen_activation::CLAMP => Ok((Some(exact(a.alpha, "alpha")?), Some(exact(a.beta, "beta")?))),
        miopen_activation::PASTHRU => decline("activation PASTHRU (hipDNN's fused conv graph ends in a ReLU)"),
        m => decline(format!("activation mode {m} (no hipDNN pointwise equivalent in the pinned set)")),
    }
}

/// The bias must be MIOpen's (1, K, 1, ...) bias in y's type; its strides
/// are the caller's, since the bias buffer is laid out by its descriptor.
fn bias_tensors(b: &Tensor, spec: &GraphSpec, conv_out: &TensorSpec) -> Result<(TensorSpec, TensorSpec), Decline> {
    let k = spec.y.dims[1];
    let rank = spec.y.dims.len();
    let shape_ok = b.dims.len() == rank && b.dims[0] == 1 && b.dims[1] == k && b.dims[2..].iter().all(|&d| d == 1);
    if !shape_ok || b.strides.len() != rank || b.strides.iter().any(|&s| s <= 0) {
        return decline(format!("bias is not a (1, {k}, 1, ...) tensor of y's rank (MIOpen decides)"));
    }
    let dtype = ElemType::from_miopen(b.dtype).filter(|t| *t == spec.y.dtype);
    let Some(dtype) = dtype else {
        return decline(format!("bias type {} differs from y's", miopen_type::name(b.dtype)));
    };
    let bias = TensorSpec {
        uid: uid::BIAS,
        name: "bias",
        dtype,
        dims: b.dims.clone(),
        strides: b.strides.clone(),
        is_virtual: false,
    };
    let add_out = TensorSpec { uid: uid::ADD_OUT, name: "add_out", ..conv_out.clone() };
    Ok((bias, add_out))
}

#[cfg(test)]
mod tests;
