//! The fusion-plan group's problem model: the operators a MIOpen fusion plan
//! was built from (as the wrapper recorded them when they were created) in,
//! the hipDNN graph of the convolution group's fused form, or a decline, out.
//!
//! A fusion plan is opaque: MIOpen has no getter for its operators, so the
//! wrapper records each `miopenCreateOp*` call's descriptors (read through
//! Private's getters right after the call, as MIOpen copies them then) and
//! each `miopenSetOpArgs*` call's values. Three kinds of plan map to a hipDNN graph:
//! the plan MIOpen's `miopenConvolutionBiasActivationForward` also is
//! (conv -> [bias] -> RELU / CLIPPEDRELU / CLAMP), a convolution with an
//! epilogue in the shared op layer ([`crate::ops::conv`]), the same graph,
//! so both APIs share plans; batchnorm inference -> activation and
//! batchnorm backward -> activation backward, the batchnorm group's two- and
//! three-node graphs ([`crate::batchnorm::fused`]). This front
//! end holds what a plan adds: its operators, the output MIOpen derives for
//! it, its driver line's kind.

use crate::batchnorm::fused;
use crate::ops::conv::driver_line::{self, CmdKind};
use crate::ops::conv::{translate_fused, Activation, ConvParams, Direction, Epilogue, GraphSpec, Problem};
use crate::print::Int;
pub use crate::tensor::{decline, Decline, Tensor};

pub mod group;

/// MIOpen's `miopenFusionDirection_t`.
pub mod miopen_direction {
    pub const VERTICAL: u32 = 0;
}

/// One operator of a plan, as it was created.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// `miopenCreateOpConvForward`: the convolution and weight descriptors.
    Conv { conv: ConvParams, w: Tensor },
    /// `miopenCreateOpBiasForward`.
    Bias { bias: Tensor },
    /// `miopenCreateOpActivationForward`: the mode (its alpha, beta, gamma
    /// are execute-time arguments).
    Activation { mode: u32 },
    /// `miopenCreateOpBatchNormInference`: the mode and the one descriptor
    /// of scale, bias, mean and variance (its epsilon is an execute-time
    /// argument).
    BatchNormInference { mode: u32, params: Tensor },
    /// `miopenCreateOpBatchNormBackward`: the mode (MIOpen derives the
    /// per-channel descriptor from the plan's input).
    BatchNormBackward { mode: u32 },
    /// `miopenCreateOpActivationBackward`: the mode.
    ActivationBackward { mode: u32 },
    /// An operator whose descriptors the wrapper could not read after
    /// MIOpen accepted them (the cause).
    Unreadable(String),
}

impl Op {
    fn name(&self) -> &'static str {
        match self {
            Op::Conv { .. } => "conv",
            Op::Bias { .. } => "bias",
            Op::Activation { .. } => "activation",
            Op::BatchNormInference { .. } => "batchnorm inference",
            Op::BatchNormBackward { .. } => "batchnorm backward",
            Op::ActivationBackward { .. } => "activation backward",
            Op::Unreadable(_) => "unreadable",
        }
    }
}

/// A plan as `miopenCreateFusionPlan` and the operator calls built it.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub direction: u32,
    /// The plan's input descriptor, as given at creation.
    pub input: Tensor,
    pub ops: Vec<Op>,
}

/// The activation's execute-time arguments (`miopenSetOpArgsActivForward`'s
/// activAlpha, activBeta; gamma changes none of the forwarded modes).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ActivationArgs {
    pub alpha: f64,
    pub beta: f64,
}

impl ActivationArgs {
    /// What a plan is compiled with before its arguments exist: the graph
    /// of the same shape (a clip's value does not change which engine runs it).
    pub const AT_COMPILE: ActivationArgs = ActivationArgs { alpha: 0.0, beta: 0.0 };
}

/// The hipDNN graph of a forwardable plan.
#[derive(Debug, Clone, PartialEq)]
pub enum Graph {
    /// conv -> [bias] -> activation: the convolution group's fused graph.
    Conv(GraphSpec),
    /// batchnorm inference -> activation: the batchnorm group's two-node graph.
    BatchNormActivation(fused::GraphSpecActivation),
    /// batchnorm backward -> activation backward: the batchnorm group's
    /// three-node graph.
    BatchNormBackwardActivation(Box<fused::GraphSpecBackward>),
}

impl Graph {
    /// The convolution's fused graph, if it is one.
    pub fn conv(&self) -> Option<&GraphSpec> {
        match self {
            Graph::Conv(g) => Some(g),
            Graph::BatchNormActivation(_) | Graph::BatchNormBackwardActivation(_) => None,
        }
    }
}

/// What a forwardable plan translates to: its graph, and the output
/// descriptor MIOpen derives for the plan (which `miopenExecuteFusionPlan`
/// requires the caller's to equal).
#[derive(Debug, Clone, PartialEq)]
pub struct Translated {
    pub spec: Graph,
    pub output: Tensor,
}

/// Translate a recorded plan with its activation arguments (a batchnorm
/// operator's epsilon a placeholder: [`translate_with`]), or say why not.
pub fn translate(plan: &Plan, args: ActivationArgs) -> Result<Translated, Decline> {
    translate_with(plan, args, fused::EPSILON_AT_COMPILE)
}

/// [`translate`] with the batchnorm operator's epsilon
/// (`miopenSetOpArgsBatchNormInference`'s).
pub fn translate_with(plan: &Plan, args: ActivationArgs, epsilon: f64) -> Result<Translated, Decline> {
    if plan.direction != miopen_direction::VERTICAL {
        return decline(format!("fusion direction {} (forwardable: vertical fusion only)", Int(plan.direction)));
    }
    if let Some(Op::Unreadable(why)) = plan.ops.iter().find(|o| matches!(o, Op::Unreadable(_))) {
        return decline(why.clone());
    }
    if let [Op::BatchNormInference { mode, params }, Op::Activation { mode: act }] = plan.ops.as_slice() {
        let activation = Activation { mode: *act, alpha: args.alpha, beta: args.beta };
        let p = fused::Problem { x: &plan.input, mode: *mode, params, epsilon, activation };
        // Both operators keep the plan input's descriptor (MIOpen's GetOutputDesc).
        return Ok(Translated { spec: Graph::BatchNormActivation(fused::translate(&p)?), output: plan.input.clone() });
    }
    if let [Op::BatchNormBackward { mode }, Op::ActivationBackward { mode: activation }] = plan.ops.as_slice() {
        let p = fused::BackwardProblem { x: &plan.input, mode: *mode, activation: *activation };
        // dy, dx and x all have the plan input's descriptor.
        let spec = Graph::BatchNormBackwardActivation(Box::new(fused::translate_backward(&p)?));
        return Ok(Translated { spec, output: plan.input.clone() });
    }
    let (p, bias, mode) = convolution_of(plan)?;
    let activation = Activation { mode, alpha: args.alpha, beta: args.beta };
    let spec = translate_fused(&p, &Epilogue { bias: bias.cloned(), has_z: false, activation })?;
    Ok(Translated { spec: Graph::Conv(spec), output: p.y })
}

/// The line MIOpen logs under `MIOPEN_ENABLE_LOGGING_CMD` for an execute of
/// a plan the wrapper forwards (its `LogCmdFusion`: conv -> bias ->
/// activation is MIOpen's fusion mode 4, conv -> activation mode 5,
/// batchnorm inference -> activation mode 2, the batchnorm group's line);
/// None for any other plan (MIOpen Private runs those and writes their line).
pub fn driver_line(plan: &Plan) -> Option<String> {
    if let [Op::BatchNormInference { mode, .. }, Op::Activation { .. }] = plan.ops.as_slice() {
        return fused::driver_line(&plan.input, *mode);
    }
    let (p, bias, _) = convolution_of(plan).ok()?;
    let kind = if bias.is_some() { CmdKind::FusionConvBiasActivation } else { CmdKind::FusionConvActivation };
    Some(driver_line::line(&p, kind))
}

/// The forward convolution of a conv -> [bias] -> activation plan (its
/// output as MIOpen derives it), the bias and the activation mode.
fn convolution_of(plan: &Plan) -> Result<(Problem, Option<&Tensor>, u32), Decline> {
    let (conv, w, bias, mode) = shape_of(&plan.ops)?;
    let y = output_of(&plan.input, conv, w)?;
    let p = Problem { direction: Direction::Forward, x: plan.input.clone(), w: w.clone(), y, conv: conv.clone() };
    Ok((p, bias, mode))
}

type Shape<'a> = (&'a ConvParams, &'a Tensor, Option<&'a Tensor>, u32);

/// The operators must be conv -> [bias] -> activation, the fused graph hipDNN has.
fn shape_of(ops: &[Op]) -> Result<Shape<'_>, Decline> {
    if let Some(Op::Unreadable(why)) = ops.iter().find(|o| matches!(o, Op::Unreadable(_))) {
        return decline(why.clone());
    }
    match ops {
        [] => decline("the plan has no operators (MIOpen decides)"),
        [Op::Conv { conv, w }, Op::Activation { mode }] => Ok((conv, w, None, *mode)),
        [Op::Conv { conv, w }, Op::Bias { bias }, Op::Activation { mode }] => Ok((conv, w, Some(bias), *mode)),
        _ => {
            let names: Vec<&str> = ops.iter().map(Op::name).collect();
            decline(format!(
                "operators {} (forwardable: conv -> [bias] -> activation, batchnorm inference -> activation, \
                 batchnorm backward -> activation backward)",
                names.join(" -> ")
            ))
        }
    }
}

/// The convolution's output as MIOpen derives it for a plan: the lengths of
/// the convolution, packed, in the input's memory order (channels-last
/// stays channels-last, everything else is packed N, C, spatial).
pub fn output_of(x: &Tensor, c: &ConvParams, w: &Tensor) -> Result<Tensor, Decline> {
    let spatial = c.pads.len();
    let shaped = x.dims.len() == spatial + 2 && w.dims.len() == spatial + 2;
    if spatial == 0 || !shaped || c.strides.len() != spatial || c.dilations.len() != spatial {
        return decline("the convolution does not fit the plan's input (invalid problem: MIOpen decides)");
    }
    let mut dims = vec![x.dims[0], w.dims[0]];
    for i in 0..spatial {
        match c.output_length(i, x.dims[i + 2], w.dims[i + 2]) {
            Some(n) if n > 0 => dims.push(n),
            _ => return decline("the filter is larger than the padded input (invalid problem: MIOpen decides)"),
        }
    }
    let strides = packed_strides(&dims, channels_last(x));
    Ok(Tensor { dtype: x.dtype, dims, strides })
}

/// Whether a tensor is packed N, spatial..., C and not also packed N, C,
/// spatial (MIOpen names a 4-D or 5-D descriptor's layout only when it is
/// exactly one of the two packed forms, the N, C, spatial one first).
fn channels_last(t: &Tensor) -> bool {
    matches!(t.dims.len(), 4 | 5)
        && t.strides != packed_strides(&t.dims, false)
        && t.strides == packed_strides(&t.dims, true)
}

fn packed_strides(dims: &[i64], channels_last: bool) -> Vec<i64> {
    let n = dims.len();
    let order: Vec<usize> =
        if channels_last { [0].into_iter().chain(2..n).chain([1]).collect() } else { (0..n).collect() };
    let mut strides = vec![0; n];
    let mut step = 1i64;
    for &d in order.iter().rev() {
        strides[d] = step;
        // Saturating: untrusted dims whose product overflows are no tensor
        // hipDNN runs; the graph built from them is refused, not wrapped.
        step = step.saturating_mul(dims[d]);
    }
    strides
}

#[cfg(test)]
mod tests;
