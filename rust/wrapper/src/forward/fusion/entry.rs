//! One function per forwarded fusion-plan entry point, taking the entry
//! point's index, the configuration and its generated argument struct;
//! `None` runs MIOpen Private.
#![allow(non_snake_case)]

use miopen_forwarding_core::Config;

use super::handlers::{self, Call, Io};
use super::logging::run_logging_cmd;
use crate::forward::common::{run, Workspace};
use crate::forward::miopen_sys::{self as sys, args};

type Cfg = &'static Config;

fn call(config: Cfg, handle: sys::miopenHandle_t, plan: sys::miopenFusionPlanDescriptor_t) -> Call {
    Call { config, handle, plan: plan as usize }
}

/// An execute's data (both forms of `miopenExecuteFusionPlan` name them alike).
macro_rules! io {
    ($a:expr) => {
        Io {
            input_desc: $a.inputDesc,
            input: $a.input,
            output_desc: $a.outputDesc,
            output: $a.output,
            args: $a.args as usize,
        }
    };
}

pub fn miopenCompileFusionPlan(index: usize, config: Cfg, a: &args::miopenCompileFusionPlan) -> Option<u32> {
    run(index, config, || handlers::compile(&call(config, a.handle, a.fusePlanDesc)))
}

pub fn miopenFusionPlanGetWorkSpaceSize(
    index: usize,
    config: Cfg,
    a: &args::miopenFusionPlanGetWorkSpaceSize,
) -> Option<u32> {
    run(index, config, || handlers::workspace_size(&call(config, a.handle, a.fusePlanDesc), a.workSpaceSize, a.algo))
}

pub fn miopenExecuteFusionPlan(index: usize, config: Cfg, a: &args::miopenExecuteFusionPlan) -> Option<u32> {
    let c = call(config, a.handle, a.fusePlanDesc);
    run_logging_cmd(index, config, &c, || handlers::execute(&c, &io!(a), None))
}

pub fn miopenExecuteFusionPlan_v2(index: usize, config: Cfg, a: &args::miopenExecuteFusionPlan_v2) -> Option<u32> {
    let c = call(config, a.handle, a.fusePlanDesc);
    let ws = Workspace { ptr: a.workspace, size: a.workspaceSize };
    run_logging_cmd(index, config, &c, || handlers::execute(&c, &io!(a), Some(&ws)))
}
