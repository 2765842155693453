//! One function per forwarded fusion-plan entry point, with the entry
//! point's name and C arguments (as the bindings type them), after the
//! entry point's index and the configuration; `None` runs MIOpen Private.
#![allow(non_snake_case, clippy::too_many_arguments)]

use std::ffi::c_void;

use miopen_forwarding_core::Config;

use super::handlers::{self, Call, Io};
use super::logging::run_logging_cmd;
use crate::forward::common::{run, Workspace};
use crate::forward::miopen_sys as sys;

type Cfg = &'static Config;
type H = sys::miopenHandle_t;
type Plan = sys::miopenFusionPlanDescriptor_t;
type Td = sys::miopenTensorDescriptor_t;

fn call(config: Cfg, handle: H, plan: Plan) -> Call {
    Call { config, handle, plan: plan as usize }
}

fn io(
    input_desc: Td,
    input: *const c_void,
    output_desc: Td,
    output: *mut c_void,
    args: sys::miopenOperatorArgs_t,
) -> Io {
    Io { input_desc, input, output_desc, output, args: args as usize }
}

pub fn miopenCompileFusionPlan(index: usize, config: Cfg, handle: H, fusePlanDesc: Plan) -> Option<u32> {
    run(index, config, || handlers::compile(&call(config, handle, fusePlanDesc)))
}

pub fn miopenFusionPlanGetWorkSpaceSize(
    index: usize,
    config: Cfg,
    handle: H,
    fusePlanDesc: Plan,
    workSpaceSize: *mut usize,
    algo: sys::miopenConvFwdAlgorithm_t,
) -> Option<u32> {
    run(index, config, || handlers::workspace_size(&call(config, handle, fusePlanDesc), workSpaceSize, algo))
}

pub fn miopenExecuteFusionPlan(
    index: usize,
    config: Cfg,
    handle: H,
    fusePlanDesc: Plan,
    inputDesc: Td,
    input: *const c_void,
    outputDesc: Td,
    output: *mut c_void,
    args: sys::miopenOperatorArgs_t,
) -> Option<u32> {
    let io = io(inputDesc, input, outputDesc, output, args);
    let c = call(config, handle, fusePlanDesc);
    run_logging_cmd(index, config, &c, || handlers::execute(&c, &io, None))
}

pub fn miopenExecuteFusionPlan_v2(
    index: usize,
    config: Cfg,
    handle: H,
    fusePlanDesc: Plan,
    inputDesc: Td,
    input: *const c_void,
    outputDesc: Td,
    output: *mut c_void,
    args: sys::miopenOperatorArgs_t,
    workspace: *mut c_void,
    workspaceSize: usize,
) -> Option<u32> {
    let io = io(inputDesc, input, outputDesc, output, args);
    let ws = Workspace { ptr: workspace, size: workspaceSize };
    let c = call(config, handle, fusePlanDesc);
    run_logging_cmd(index, config, &c, || handlers::execute(&c, &io, Some(&ws)))
}
