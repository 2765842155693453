//! One function per forwarded convolution entry point, with the entry
//! point's name and C arguments (as the bindings type them), after the
//! entry point's index and the configuration. The generated routed body
//! calls it and runs MIOpen Private on `None`. Each maps its arguments onto
//! forward naming and one handler in [`super::handlers`].
#![allow(non_snake_case, clippy::too_many_arguments)]

use std::ffi::{c_int, c_void};

use miopen_forwarding_core::conv::driver_cmd::CmdKind;
use miopen_forwarding_core::conv::Direction;
use miopen_forwarding_core::Config;

use super::find_mode;
use super::handlers::{self as calls, Buffers, Conv, Fused};
use super::logging::run_logging_cmd;
use super::read::Tensors;
use crate::forward::common::{run, Workspace};
use crate::forward::miopen_sys as sys;

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

/// A query call's descriptors, which come in the direction's query order
/// (`Direction::query_order`).
fn query(config: Cfg, dir: Direction, handle: H, a: Td, b: Td, cd: Cd, c: Td) -> Conv {
    let [x, w, y] = dir.from_query_order([a, b, c]);
    conv(config, dir, handle, x, w, y, cd)
}

/// The five query entry points of one direction. Their C arguments are
/// (handle, a, b, convDesc, c, ...) in the direction's query order.
macro_rules! query_entries {
    ($dir:expr, $ws:ident, $count:ident, $solutions:ident, $solution_ws:ident, $compile:ident $(,)?) => {
        pub fn $ws(index: usize, config: Cfg, handle: H, a: Td, b: Td, cd: Cd, c: Td, out: *mut usize) -> Option<u32> {
            run(index, config, || calls::workspace_size(&query(config, $dir, handle, a, b, cd, c), out))
        }

        pub fn $count(
            index: usize,
            config: Cfg,
            handle: H,
            a: Td,
            b: Td,
            cd: Cd,
            c: Td,
            out: *mut usize,
        ) -> Option<u32> {
            run(index, config, || calls::solution_count(&query(config, $dir, handle, a, b, cd, c), out))
        }

        pub fn $solutions(
            index: usize,
            config: Cfg,
            handle: H,
            a: Td,
            b: Td,
            cd: Cd,
            c: Td,
            max: usize,
            count: *mut usize,
            solutions: *mut sys::miopenConvSolution_t,
        ) -> Option<u32> {
            run(index, config, || calls::solutions(&query(config, $dir, handle, a, b, cd, c), max, count, solutions))
        }

        pub fn $solution_ws(
            index: usize,
            config: Cfg,
            handle: H,
            a: Td,
            b: Td,
            cd: Cd,
            c: Td,
            id: u64,
            out: *mut usize,
        ) -> Option<u32> {
            run(index, config, || calls::solution_workspace(&query(config, $dir, handle, a, b, cd, c), id, out))
        }

        pub fn $compile(index: usize, config: Cfg, handle: H, a: Td, b: Td, cd: Cd, c: Td, id: u64) -> Option<u32> {
            run(index, config, || calls::compile(&query(config, $dir, handle, a, b, cd, c), id))
        }
    };
}

query_entries!(
    Direction::Forward,
    miopenConvolutionForwardGetWorkSpaceSize,
    miopenConvolutionForwardGetSolutionCount,
    miopenConvolutionForwardGetSolution,
    miopenConvolutionForwardGetSolutionWorkspaceSize,
    miopenConvolutionForwardCompileSolution,
);
query_entries!(
    Direction::BackwardData,
    miopenConvolutionBackwardDataGetWorkSpaceSize,
    miopenConvolutionBackwardDataGetSolutionCount,
    miopenConvolutionBackwardDataGetSolution,
    miopenConvolutionBackwardDataGetSolutionWorkspaceSize,
    miopenConvolutionBackwardDataCompileSolution,
);
query_entries!(
    Direction::BackwardWeights,
    miopenConvolutionBackwardWeightsGetWorkSpaceSize,
    miopenConvolutionBackwardWeightsGetSolutionCount,
    miopenConvolutionBackwardWeightsGetSolution,
    miopenConvolutionBackwardWeightsGetSolutionWorkspaceSize,
    miopenConvolutionBackwardWeightsCompileSolution,
);

pub fn miopenConvolutionForward(
    index: usize,
    config: Cfg,
    handle: H,
    alpha: In,
    xDesc: Td,
    x: In,
    wDesc: Td,
    w: In,
    convDesc: Cd,
    algo: sys::miopenConvFwdAlgorithm_t,
    beta: In,
    yDesc: Td,
    y: Out,
    workSpace: Out,
    workSpaceSize: usize,
) -> Option<u32> {
    let c = conv(config, Direction::Forward, handle, xDesc, wDesc, yDesc, convDesc);
    run_logging_cmd(index, &c, CmdKind::Run, || {
        calls::compute(&c, algo, alpha, beta, &bufs(x, w, y as In), &ws(workSpace, workSpaceSize))
    })
}

pub fn miopenFindConvolutionForwardAlgorithm(
    index: usize,
    config: Cfg,
    handle: H,
    xDesc: Td,
    x: In,
    wDesc: Td,
    w: In,
    convDesc: Cd,
    yDesc: Td,
    y: Out,
    requestAlgoCount: c_int,
    returnedAlgoCount: *mut c_int,
    perfResults: *mut sys::miopenConvAlgoPerf_t,
    workSpace: Out,
    workSpaceSize: usize,
    _exhaustiveSearch: bool,
) -> Option<u32> {
    let c = conv(config, Direction::Forward, handle, xDesc, wDesc, yDesc, convDesc);
    let b = bufs(x, w, y as In);
    run_logging_cmd(index, &c, CmdKind::Find, || {
        find_mode::declined_by_descriptor(convDesc).unwrap_or_else(|| {
            calls::find(&c, &b, requestAlgoCount, returnedAlgoCount, perfResults, &ws(workSpace, workSpaceSize))
        })
    })
}

pub fn miopenConvolutionForwardImmediate(
    index: usize,
    config: Cfg,
    handle: H,
    wDesc: Td,
    w: In,
    xDesc: Td,
    x: In,
    convDesc: Cd,
    yDesc: Td,
    y: Out,
    workSpace: Out,
    workSpaceSize: usize,
    solution_id: u64,
) -> Option<u32> {
    let c = conv(config, Direction::Forward, handle, xDesc, wDesc, yDesc, convDesc);
    let b = bufs(x, w, y as In);
    run_logging_cmd(index, &c, CmdKind::Immediate, || {
        calls::immediate(&c, &b, &ws(workSpace, workSpaceSize), solution_id)
    })
}

pub fn miopenConvolutionBackwardData(
    index: usize,
    config: Cfg,
    handle: H,
    alpha: In,
    dyDesc: Td,
    dy: In,
    wDesc: Td,
    w: In,
    convDesc: Cd,
    algo: sys::miopenConvBwdDataAlgorithm_t,
    beta: In,
    dxDesc: Td,
    dx: Out,
    workSpace: Out,
    workSpaceSize: usize,
) -> Option<u32> {
    let c = conv(config, Direction::BackwardData, handle, dxDesc, wDesc, dyDesc, convDesc);
    run_logging_cmd(index, &c, CmdKind::Run, || {
        calls::compute(&c, algo, alpha, beta, &bufs(dx, w, dy as In), &ws(workSpace, workSpaceSize))
    })
}

pub fn miopenFindConvolutionBackwardDataAlgorithm(
    index: usize,
    config: Cfg,
    handle: H,
    dyDesc: Td,
    dy: In,
    wDesc: Td,
    w: In,
    convDesc: Cd,
    dxDesc: Td,
    dx: Out,
    requestAlgoCount: c_int,
    returnedAlgoCount: *mut c_int,
    perfResults: *mut sys::miopenConvAlgoPerf_t,
    workSpace: Out,
    workSpaceSize: usize,
    _exhaustiveSearch: bool,
) -> Option<u32> {
    let c = conv(config, Direction::BackwardData, handle, dxDesc, wDesc, dyDesc, convDesc);
    let b = bufs(dx, w, dy as In);
    run_logging_cmd(index, &c, CmdKind::Find, || {
        find_mode::declined_by_descriptor(convDesc).unwrap_or_else(|| {
            calls::find(&c, &b, requestAlgoCount, returnedAlgoCount, perfResults, &ws(workSpace, workSpaceSize))
        })
    })
}

pub fn miopenConvolutionBackwardDataImmediate(
    index: usize,
    config: Cfg,
    handle: H,
    dyDesc: Td,
    dy: In,
    wDesc: Td,
    w: In,
    convDesc: Cd,
    dxDesc: Td,
    dx: Out,
    workSpace: Out,
    workSpaceSize: usize,
    solution_id: u64,
) -> Option<u32> {
    let c = conv(config, Direction::BackwardData, handle, dxDesc, wDesc, dyDesc, convDesc);
    let b = bufs(dx, w, dy as In);
    run_logging_cmd(index, &c, CmdKind::Immediate, || {
        calls::immediate(&c, &b, &ws(workSpace, workSpaceSize), solution_id)
    })
}

pub fn miopenConvolutionBackwardWeights(
    index: usize,
    config: Cfg,
    handle: H,
    alpha: In,
    dyDesc: Td,
    dy: In,
    xDesc: Td,
    x: In,
    convDesc: Cd,
    algo: sys::miopenConvBwdWeightsAlgorithm_t,
    beta: In,
    dwDesc: Td,
    dw: Out,
    workSpace: Out,
    workSpaceSize: usize,
) -> Option<u32> {
    let c = conv(config, Direction::BackwardWeights, handle, xDesc, dwDesc, dyDesc, convDesc);
    run_logging_cmd(index, &c, CmdKind::Run, || {
        calls::compute(&c, algo, alpha, beta, &bufs(x, dw, dy as In), &ws(workSpace, workSpaceSize))
    })
}

pub fn miopenFindConvolutionBackwardWeightsAlgorithm(
    index: usize,
    config: Cfg,
    handle: H,
    dyDesc: Td,
    dy: In,
    xDesc: Td,
    x: In,
    convDesc: Cd,
    dwDesc: Td,
    dw: Out,
    requestAlgoCount: c_int,
    returnedAlgoCount: *mut c_int,
    perfResults: *mut sys::miopenConvAlgoPerf_t,
    workSpace: Out,
    workSpaceSize: usize,
    _exhaustiveSearch: bool,
) -> Option<u32> {
    let c = conv(config, Direction::BackwardWeights, handle, xDesc, dwDesc, dyDesc, convDesc);
    let b = bufs(x, dw, dy as In);
    run_logging_cmd(index, &c, CmdKind::Find, || {
        find_mode::declined_by_descriptor(convDesc).unwrap_or_else(|| {
            calls::find(&c, &b, requestAlgoCount, returnedAlgoCount, perfResults, &ws(workSpace, workSpaceSize))
        })
    })
}

pub fn miopenConvolutionBackwardWeightsImmediate(
    index: usize,
    config: Cfg,
    handle: H,
    dyDesc: Td,
    dy: In,
    xDesc: Td,
    x: In,
    convDesc: Cd,
    dwDesc: Td,
    dw: Out,
    workSpace: Out,
    workSpaceSize: usize,
    solution_id: u64,
) -> Option<u32> {
    let c = conv(config, Direction::BackwardWeights, handle, xDesc, dwDesc, dyDesc, convDesc);
    let b = bufs(x, dw, dy as In);
    run_logging_cmd(index, &c, CmdKind::Immediate, || {
        calls::immediate(&c, &b, &ws(workSpace, workSpaceSize), solution_id)
    })
}

pub fn miopenConvolutionBiasActivationForward(
    index: usize,
    config: Cfg,
    handle: H,
    alpha1: In,
    xDesc: Td,
    x: In,
    wDesc: Td,
    w: In,
    convDesc: Cd,
    algo: sys::miopenConvFwdAlgorithm_t,
    workspace: Out,
    workspaceSizeInBytes: usize,
    alpha2: In,
    zDesc: Td,
    z: In,
    biasDesc: Td,
    bias: In,
    activationDesc: sys::miopenActivationDescriptor_t,
    yDesc: Td,
    y: Out,
) -> Option<u32> {
    run(index, config, || {
        let c = conv(config, Direction::Forward, handle, xDesc, wDesc, yDesc, convDesc);
        let f = Fused { alpha1, alpha2, z_desc: zDesc, z, bias_desc: biasDesc, bias, activation: activationDesc };
        calls::bias_activation(&c, algo, &f, &bufs(x, w, y as In), &ws(workspace, workspaceSizeInBytes))
    })
}
