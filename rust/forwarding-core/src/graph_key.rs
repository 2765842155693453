//! What a hipDNN plan is built from, per family group: the plan cache's key
//! (with the MIOpen handle) and the input of the wrapper's graph builder.
//! A group adds one variant holding its own graph spec; the fusion-plan
//! group builds the convolution group's fused graph, so it has none.

use crate::family::Group;
use crate::{batchnorm, conv};

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum GraphKey {
    Conv(conv::GraphSpec),
    Batchnorm(batchnorm::GraphSpec),
    BnTraining(batchnorm::training::GraphSpec),
    BnBackward(batchnorm::backward::GraphSpec),
}

impl GraphKey {
    /// The family group whose graph this is (the per-group backend probe).
    pub fn group(&self) -> Group {
        match self {
            GraphKey::Conv(_) => Group::Convolution,
            GraphKey::Batchnorm(_) | GraphKey::BnTraining(_) | GraphKey::BnBackward(_) => Group::Batchnorm,
        }
    }
}

/// A plan belongs to the MIOpen handle (hence hipDNN handle) that built it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PlanKey {
    /// The MIOpen handle's address.
    pub handle: usize,
    pub graph: GraphKey,
}
