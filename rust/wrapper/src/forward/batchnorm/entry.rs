//! One function per forwarded batchnorm entry point, with the entry point's
//! name and C arguments (as the bindings type them), after the entry
//! point's index and the configuration. The generated routed body calls it
//! and runs MIOpen Private on `None`.
#![allow(non_snake_case, clippy::too_many_arguments)]

use std::ffi::c_void;

use miopen_forwarding_core::batchnorm::driver_cmd::Direction;
use miopen_forwarding_core::Config;

use super::handlers::{self, Inference};
use super::logging::{run_logging_cmd, Logged};
use super::read::Descriptors;
use crate::forward::miopen_sys as sys;

type Cfg = &'static Config;
type H = sys::miopenHandle_t;
type Td = sys::miopenTensorDescriptor_t;
type Mode = sys::miopenBatchNormMode_t;
type In = *const c_void;
type Out = *mut c_void;

pub fn miopenBatchNormalizationForwardInference(
    index: usize,
    config: Cfg,
    handle: H,
    bn_mode: Mode,
    alpha: Out,
    beta: Out,
    xDesc: Td,
    x: In,
    yDesc: Td,
    y: Out,
    bnScaleBiasMeanVarDesc: Td,
    bnScale: Out,
    bnBias: Out,
    estimatedMean: Out,
    estimatedVariance: Out,
    epsilon: f64,
) -> Option<u32> {
    let p = bnScaleBiasMeanVarDesc;
    miopenBatchNormalizationForwardInference_V2(
        index,
        config,
        handle,
        bn_mode,
        alpha,
        beta,
        xDesc,
        x,
        yDesc,
        y,
        p,
        p,
        p,
        p,
        bnScale,
        bnBias,
        estimatedMean,
        estimatedVariance,
        epsilon,
    )
}

pub fn miopenBatchNormalizationForwardInference_V2(
    index: usize,
    config: Cfg,
    handle: H,
    bn_mode: Mode,
    alpha: Out,
    beta: Out,
    xDesc: Td,
    x: In,
    yDesc: Td,
    y: Out,
    scaleDesc: Td,
    biasDesc: Td,
    estMeanDesc: Td,
    estVarianceDesc: Td,
    bnScale: Out,
    bnBias: Out,
    estimatedMean: Out,
    estimatedVariance: Out,
    epsilon: f64,
) -> Option<u32> {
    let c = Inference {
        config,
        handle,
        mode: bn_mode,
        alpha,
        beta,
        d: Descriptors {
            x: xDesc,
            y: yDesc,
            scale: scaleDesc,
            bias: biasDesc,
            mean: estMeanDesc,
            variance: estVarianceDesc,
        },
        x,
        y,
        scale: bnScale,
        bias: bnBias,
        mean: estimatedMean,
        variance: estimatedVariance,
        epsilon,
    };
    let logged = Logged {
        x: xDesc,
        stats: estMeanDesc,
        mode: bn_mode,
        direction: Direction::ForwardInference,
        running: [estimatedMean, estimatedVariance].map(|p| p as In),
        saved: [std::ptr::null(); 2],
    };
    run_logging_cmd(index, config, &logged, || handlers::inference(&c))
}
