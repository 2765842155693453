//! One function per forwarded convolution entry point, taking the entry
//! point's index, the configuration and its generated argument struct. The
//! generated routed body calls it and runs MIOpen Private on `None`. Each
//! names the call's tensors in forward naming (x, w, y: the direction's
//! data, as `Direction::data_names` lists them) and picks the handler in
//! [`super::handlers`]; the directions differ only in those names.
#![allow(non_snake_case)]

use std::ffi::c_void;

use miopen_forwarding_core::conv::driver_cmd::CmdKind;
use miopen_forwarding_core::conv::Direction;
use miopen_forwarding_core::Config;

use super::find_mode;
use super::handlers::{self as calls, Buffers, Conv, Fused};
use super::logging::run_logging_cmd;
use super::read::Tensors;
use crate::forward::common::{run, Workspace};
use crate::forward::miopen_sys::{self as sys, args};

type Cfg = &'static Config;
type H = sys::miopenHandle_t;
type Td = sys::miopenTensorDescriptor_t;
type Cd = sys::miopenConvolutionDescriptor_t;
type In = *const c_void;
type Out = *mut c_void;

fn conv(config: Cfg, dir: Direction, handle: H, x: Td, w: Td, y: Td, cd: Cd) -> Conv {
    Conv { config, dir, handle, t: Tensors { x, w, y }, cd }
}

fn bufs(x: In, w: In, y: In) -> Buffers {
    Buffers { x: x as Out, w: w as Out, y: y as Out }
}

fn ws(ptr: Out, size: usize) -> Workspace {
    Workspace { ptr, size }
}

/// The eight entry points of one direction, given the direction's names of
/// its x, w and y data and their descriptors.
macro_rules! direction {
    (
        $dir:expr, x: $x:ident $xd:ident, w: $w:ident $wd:ident, y: $y:ident $yd:ident,
        $compute:ident, $find:ident, $immediate:ident,
        $workspace:ident, $count:ident, $solutions:ident, $solution_workspace:ident, $compile:ident $(,)?
    ) => {
        pub fn $compute(index: usize, config: Cfg, a: &args::$compute) -> Option<u32> {
            let c = conv(config, $dir, a.handle, a.$xd, a.$wd, a.$yd, a.convDesc);
            run_logging_cmd(index, &c, CmdKind::Run, || {
                calls::compute(&c, a.algo, a.alpha, a.beta, &bufs(a.$x, a.$w, a.$y), &ws(a.workSpace, a.workSpaceSize))
            })
        }

        pub fn $find(index: usize, config: Cfg, a: &args::$find) -> Option<u32> {
            let c = conv(config, $dir, a.handle, a.$xd, a.$wd, a.$yd, a.convDesc);
            let (b, w) = (bufs(a.$x, a.$w, a.$y), ws(a.workSpace, a.workSpaceSize));
            let knobs = find_mode::knobs(a.convDesc, a.exhaustiveSearch);
            run_logging_cmd(index, &c, CmdKind::Find, || {
                calls::find(&c, &b, knobs, a.requestAlgoCount, a.returnedAlgoCount, a.perfResults, &w)
            })
        }

        pub fn $immediate(index: usize, config: Cfg, a: &args::$immediate) -> Option<u32> {
            let c = conv(config, $dir, a.handle, a.$xd, a.$wd, a.$yd, a.convDesc);
            let (b, w) = (bufs(a.$x, a.$w, a.$y), ws(a.workSpace, a.workSpaceSize));
            run_logging_cmd(index, &c, CmdKind::Immediate, || calls::immediate(&c, &b, &w, a.solution_id))
        }

        pub fn $workspace(index: usize, config: Cfg, a: &args::$workspace) -> Option<u32> {
            let c = conv(config, $dir, a.handle, a.$xd, a.$wd, a.$yd, a.convDesc);
            run(index, config, || calls::workspace_size(&c, a.workSpaceSize))
        }

        pub fn $count(index: usize, config: Cfg, a: &args::$count) -> Option<u32> {
            let c = conv(config, $dir, a.handle, a.$xd, a.$wd, a.$yd, a.convDesc);
            run(index, config, || calls::solution_count(&c, a.solutionCount))
        }

        pub fn $solutions(index: usize, config: Cfg, a: &args::$solutions) -> Option<u32> {
            let c = conv(config, $dir, a.handle, a.$xd, a.$wd, a.$yd, a.convDesc);
            run(index, config, || calls::solutions(&c, a.maxSolutionCount, a.solutionCount, a.solutions))
        }

        pub fn $solution_workspace(index: usize, config: Cfg, a: &args::$solution_workspace) -> Option<u32> {
            let c = conv(config, $dir, a.handle, a.$xd, a.$wd, a.$yd, a.convDesc);
            run(index, config, || calls::solution_workspace(&c, a.solution_id, a.workSpaceSize))
        }

        pub fn $compile(index: usize, config: Cfg, a: &args::$compile) -> Option<u32> {
            let c = conv(config, $dir, a.handle, a.$xd, a.$wd, a.$yd, a.convDesc);
            run(index, config, || calls::compile(&c, a.solution_id))
        }
    };
}

direction!(
    Direction::Forward, x: x xDesc, w: w wDesc, y: y yDesc,
    miopenConvolutionForward,
    miopenFindConvolutionForwardAlgorithm,
    miopenConvolutionForwardImmediate,
    miopenConvolutionForwardGetWorkSpaceSize,
    miopenConvolutionForwardGetSolutionCount,
    miopenConvolutionForwardGetSolution,
    miopenConvolutionForwardGetSolutionWorkspaceSize,
    miopenConvolutionForwardCompileSolution,
);
direction!(
    Direction::BackwardData, x: dx dxDesc, w: w wDesc, y: dy dyDesc,
    miopenConvolutionBackwardData,
    miopenFindConvolutionBackwardDataAlgorithm,
    miopenConvolutionBackwardDataImmediate,
    miopenConvolutionBackwardDataGetWorkSpaceSize,
    miopenConvolutionBackwardDataGetSolutionCount,
    miopenConvolutionBackwardDataGetSolution,
    miopenConvolutionBackwardDataGetSolutionWorkspaceSize,
    miopenConvolutionBackwardDataCompileSolution,
);
direction!(
    Direction::BackwardWeights, x: x xDesc, w: dw dwDesc, y: dy dyDesc,
    miopenConvolutionBackwardWeights,
    miopenFindConvolutionBackwardWeightsAlgorithm,
    miopenConvolutionBackwardWeightsImmediate,
    miopenConvolutionBackwardWeightsGetWorkSpaceSize,
    miopenConvolutionBackwardWeightsGetSolutionCount,
    miopenConvolutionBackwardWeightsGetSolution,
    miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize,
    miopenConvolutionBackwardWeightsCompileSolution,
);

pub fn miopenConvolutionBiasActivationForward(
    index: usize,
    config: Cfg,
    a: &args::miopenConvolutionBiasActivationForward,
) -> Option<u32> {
    run(index, config, || {
        let c = conv(config, Direction::Forward, a.handle, a.xDesc, a.wDesc, a.yDesc, a.convDesc);
        let f = Fused {
            alpha1: a.alpha1,
            alpha2: a.alpha2,
            z_desc: a.zDesc,
            z: a.z,
            bias_desc: a.biasDesc,
            bias: a.bias,
            activation: a.activationDesc,
        };
        calls::bias_activation(&c, a.algo, &f, &bufs(a.x, a.w, a.y), &ws(a.workspace, a.workspaceSizeInBytes))
    })
}
