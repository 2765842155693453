//! One function per forwarded batchnorm entry point, with the entry point's
//! name and C arguments (as the bindings type them), after the entry
//! point's index and the configuration. The generated routed body calls it
//! and runs MIOpen Private on `None`.
#![allow(non_snake_case, clippy::too_many_arguments)]

use std::ffi::c_void;

use miopen_forwarding_core::batchnorm::driver_cmd::Direction;
use miopen_forwarding_core::Config;

use super::backward::{self, Backward};
use super::handlers::{self, Inference};
use super::logging::{run_logging_cmd, Logged};
use super::read::{Descriptors, PassDescriptors};
use super::training::{self, Training};
use crate::forward::common::run;
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

pub fn miopenBatchNormalizationForwardTraining(
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
    expAvgFactor: f64,
    resultRunningMean: Out,
    resultRunningVariance: Out,
    epsilon: f64,
    resultSaveMean: Out,
    resultSaveInvVariance: Out,
) -> Option<u32> {
    let p = bnScaleBiasMeanVarDesc;
    miopenBatchNormalizationForwardTraining_V2(
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
        expAvgFactor,
        resultRunningMean,
        resultRunningVariance,
        epsilon,
        resultSaveMean,
        resultSaveInvVariance,
    )
}

/// `expAvgFactor` only weighs running statistics, which are declined.
pub fn miopenBatchNormalizationForwardTraining_V2(
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
    biasVarDesc: Td,
    savedMeanDesc: Td,
    savedVarDesc: Td,
    bnScale: Out,
    bnBias: Out,
    _expAvgFactor: f64,
    resultRunningMean: Out,
    resultRunningVariance: Out,
    epsilon: f64,
    resultSaveMean: Out,
    resultSaveInvVariance: Out,
) -> Option<u32> {
    let c = Training {
        config,
        handle,
        mode: bn_mode,
        alpha,
        beta,
        d: PassDescriptors {
            x: xDesc,
            io: yDesc,
            dx: yDesc,
            scale: scaleDesc,
            bias: biasVarDesc,
            saved_mean: savedMeanDesc,
            saved_variance: savedVarDesc,
        },
        x,
        y,
        scale: bnScale,
        bias: bnBias,
        running_mean: resultRunningMean,
        running_variance: resultRunningVariance,
        epsilon,
        saved_mean: resultSaveMean,
        saved_inv_variance: resultSaveInvVariance,
    };
    run(index, config, || training::training(&c))
}

pub fn miopenBatchNormalizationBackward(
    index: usize,
    config: Cfg,
    handle: H,
    bn_mode: Mode,
    alphaDataDiff: In,
    betaDataDiff: In,
    alphaParamDiff: In,
    betaParamDiff: In,
    xDesc: Td,
    x: In,
    dyDesc: Td,
    dy: In,
    dxDesc: Td,
    dx: Out,
    bnScaleBiasDiffDesc: Td,
    bnScale: In,
    resultBnScaleDiff: Out,
    resultBnBiasDiff: Out,
    epsilon: f64,
    savedMean: In,
    savedInvVariance: In,
) -> Option<u32> {
    let p = bnScaleBiasDiffDesc;
    miopenBatchNormalizationBackward_V2(
        index,
        config,
        handle,
        bn_mode,
        alphaDataDiff,
        betaDataDiff,
        alphaParamDiff,
        betaParamDiff,
        xDesc,
        x,
        dyDesc,
        dy,
        dxDesc,
        dx,
        p,
        p,
        p,
        p,
        bnScale,
        resultBnScaleDiff,
        resultBnBiasDiff,
        epsilon,
        savedMean,
        savedInvVariance,
    )
}

pub fn miopenBatchNormalizationBackward_V2(
    index: usize,
    config: Cfg,
    handle: H,
    bn_mode: Mode,
    alphaDataDiff: In,
    betaDataDiff: In,
    alphaParamDiff: In,
    betaParamDiff: In,
    xDesc: Td,
    x: In,
    dyDesc: Td,
    dy: In,
    dxDesc: Td,
    dx: Out,
    scaleDesc: Td,
    biasDesc: Td,
    savedMeanDesc: Td,
    savedVarDesc: Td,
    bnScale: In,
    resultBnScaleDiff: Out,
    resultBnBiasDiff: Out,
    epsilon: f64,
    savedMean: In,
    savedInvVariance: In,
) -> Option<u32> {
    let c = Backward {
        config,
        handle,
        mode: bn_mode,
        scales: [alphaDataDiff, betaDataDiff, alphaParamDiff, betaParamDiff],
        d: PassDescriptors {
            x: xDesc,
            io: dyDesc,
            dx: dxDesc,
            scale: scaleDesc,
            bias: biasDesc,
            saved_mean: savedMeanDesc,
            saved_variance: savedVarDesc,
        },
        x,
        dy,
        dx,
        scale: bnScale,
        dscale: resultBnScaleDiff,
        dbias: resultBnBiasDiff,
        epsilon,
        saved_mean: savedMean,
        saved_inv_variance: savedInvVariance,
    };
    run(index, config, || backward::backward(&c))
}
