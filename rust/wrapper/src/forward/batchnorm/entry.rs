//! One function per forwarded batchnorm entry point with an entry function
//! of its own (the `_V2` forms: the legacy calls are forwarded as them, the
//! row says so and the generated routed body converts their arguments),
//! taking the entry point's index, the configuration and its generated
//! argument struct. The generated routed body calls it and runs MIOpen
//! Private on `None`.
#![allow(non_snake_case)]

use miopen_forwarding_core::Config;

use super::logging::{run_logging_cmd, Logged};
use super::{backward, handlers, training};
use crate::forward::miopen_sys::args;

type Cfg = &'static Config;

pub fn miopenBatchNormalizationForwardInference_V2(
    index: usize,
    config: Cfg,
    a: &args::miopenBatchNormalizationForwardInference_V2,
) -> Option<u32> {
    run_logging_cmd(index, config, || Logged::inference(a), || handlers::inference(config, a))
}

pub fn miopenBatchNormalizationForwardTraining_V2(
    index: usize,
    config: Cfg,
    a: &args::miopenBatchNormalizationForwardTraining_V2,
) -> Option<u32> {
    run_logging_cmd(index, config, || Logged::training(a), || training::training(config, a))
}

pub fn miopenBatchNormalizationBackward_V2(
    index: usize,
    config: Cfg,
    a: &args::miopenBatchNormalizationBackward_V2,
) -> Option<u32> {
    run_logging_cmd(index, config, || Logged::backward(a), || backward::backward(config, a))
}
