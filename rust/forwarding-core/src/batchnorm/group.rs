//! The batchnorm group's data row (`batchnorm`: inference, training and
//! backward, each with its `_V2`), and its three graph specs as plan keys.

use super::{backward, fused, miopen_bn_mode as bn, training, GraphSpec};
use crate::graph_key::OwnedGraph;
use crate::row::{not_switched_on, refused_spelling, Entry, GroupRow, Mirrored, Treatment, Variable};

const INFERENCE: &str = "bn_fwd_inference";
const TRAINING: &str = "bn_fwd_training";
const BACKWARD: &str = "bn_bwd";

/// Why a value MIOpen refuses of a fused solver's switch declines every
/// fusion plan.
const REFUSED: &str = "a value MIOpen refuses: its compile of any fusion plan asks each fused solver, whose \
                       switch it reads first, and fails";

/// A fused solver's switch with a value MIOpen refuses (not a boolean of
/// its spelling: it throws where the switch is read). Each batchnorm fused
/// solver reads its switch before the plan's operators
/// (`src/solver/batchnorm/*_fused.cpp` @ 2d1fd997), and a compile asks every
/// fused solver (`GetAllFusionSolvers`, `src/fusion.cpp`), so every fusion
/// plan's compile fails, a convolution plan's too: the fusion group's
/// families stay on MIOpen.
const fn refused_fused_switch(name: &'static str) -> Variable {
    Variable { name, applies: refused_spelling, treatment: Treatment::DeclineGroup("fusion"), why: REFUSED }
}

// Built only where a build's forwarding set names it (not in the default set).
pub const ROW: GroupRow = GroupRow {
    families: &[INFERENCE, TRAINING, BACKWARD],
    entry_points: &[
        // The legacy calls are their `_V2` with one descriptor for the four.
        Entry::new("miopenBatchNormalizationForwardInference", INFERENCE)
            .forwarded_as("miopenBatchNormalizationForwardInference_V2"),
        Entry::new("miopenBatchNormalizationForwardInference_V2", INFERENCE),
        Entry::new("miopenBatchNormalizationForwardTraining", TRAINING)
            .forwarded_as("miopenBatchNormalizationForwardTraining_V2"),
        Entry::new("miopenBatchNormalizationForwardTraining_V2", TRAINING),
        Entry::new("miopenBatchNormalizationBackward", BACKWARD).forwarded_as("miopenBatchNormalizationBackward_V2"),
        Entry::new("miopenBatchNormalizationBackward_V2", BACKWARD),
    ],
    mirrored: &[
        Mirrored::required("miopenBNPerActivation", bn::PER_ACTIVATION),
        Mirrored::required("miopenBNSpatial", bn::SPATIAL),
    ],
    // MIOpen's batchnorm switches (the audit: `docs/forwarding.md`, "The
    // batchnorm family", "MIOpen's variables"). Each turns one of MIOpen's
    // Composable Kernel batchnorm solvers off (`src/solver/batchnorm/*_ck.cpp`
    // @ 2d1fd997): a forwarded call would not see it. The fused
    // batchnorm-activation switches concern fusion plans, not these calls:
    // each turns one fused solver off (`src/solver/batchnorm/*_fused.cpp`
    // @ 2d1fd997, its IsApplicable), so MIOpen fails to compile that kind
    // of plan; the wrapper declines the plans of that kind.
    variables: &[
        refused_fused_switch("MIOPEN_DEBUG_BN_FWDINFER_ACTIV_FUSED"),
        refused_fused_switch("MIOPEN_DEBUG_BN_FWDTRG_ACTIV_FUSED"),
        refused_fused_switch("MIOPEN_DEBUG_BN_BWDTRG_ACTIV_FUSED"),
        Variable {
            name: "MIOPEN_DEBUG_BN_FWDINFER_ACTIV_FUSED",
            applies: not_switched_on,
            treatment: Treatment::DeclinePlan(fused::INFERENCE_ACTIVATION_PLAN),
            why:
                "switches off MIOpen's fused batchnorm inference -> activation solver, so MIOpen compiles no such plan",
        },
        Variable {
            name: "MIOPEN_DEBUG_BN_BWDTRG_ACTIV_FUSED",
            applies: not_switched_on,
            treatment: Treatment::DeclinePlan(fused::BACKWARD_ACTIVATION_PLAN),
            why: "switches off MIOpen's fused batchnorm backward -> activation backward solver, so MIOpen compiles no \
                  such plan",
        },
        Variable {
            name: "MIOPEN_DEBUG_CK_BN_INFER",
            applies: not_switched_on,
            treatment: Treatment::Decline,
            why: "switches off MIOpen's Composable Kernel batchnorm inference solver; hipDNN engines cannot honour it",
        },
        Variable {
            name: "MIOPEN_DEBUG_CK_BN_FWD_TRAINING",
            applies: not_switched_on,
            treatment: Treatment::Decline,
            why: "switches off MIOpen's Composable Kernel batchnorm training solver; hipDNN engines cannot honour it",
        },
        Variable {
            name: "MIOPEN_DEBUG_CK_BN_BACK",
            applies: not_switched_on,
            treatment: Treatment::Decline,
            why: "switches off MIOpen's Composable Kernel batchnorm backward solver; hipDNN engines cannot honour it",
        },
    ],
    ..GroupRow::new("batchnorm", "batchnorm")
};

impl OwnedGraph for GraphSpec {
    const GROUP: &'static GroupRow = &ROW;
}

impl OwnedGraph for training::GraphSpec {
    const GROUP: &'static GroupRow = &ROW;
}

impl OwnedGraph for backward::GraphSpec {
    const GROUP: &'static GroupRow = &ROW;
}

/// A fusion plan's batchnorm inference -> activation graph: the batchnorm
/// group's plan (its operation types are this group's probes).
impl OwnedGraph for fused::GraphSpecActivation {
    const GROUP: &'static GroupRow = &ROW;
}

/// A fusion plan's batchnorm backward -> activation backward graph: the
/// batchnorm group's plan (its types 17 and 20 are this group's probes; 18,
/// the pointwise, is probed by the convolution group).
impl OwnedGraph for fused::GraphSpecBackward {
    const GROUP: &'static GroupRow = &ROW;
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::environment::EnvPolicy;
    use crate::family::Group;

    #[test]
    fn a_ck_switch_declines_batchnorm_only_when_not_on() {
        let bn = Group::of(&ROW);
        for name in ["MIOPEN_DEBUG_CK_BN_INFER", "MIOPEN_DEBUG_CK_BN_FWD_TRAINING", "MIOPEN_DEBUG_CK_BN_BACK"] {
            for v in ["0", "off", "No", "FALSE", "disabled", "2", ""] {
                let p = EnvPolicy::from_vars([(name, v)]);
                let reason = p.decline_reason(bn).unwrap_or_else(|| panic!("{name}={v}"));
                assert!(reason.starts_with(&format!("{name}={v} (switches off MIOpen's")), "{reason}");
                // Only batchnorm's calls stay on MIOpen.
                assert!(Group::all().filter(|&g| g != bn).all(|g| p.decline_reason(g).is_none()), "{name}");
            }
            for v in ["1", "on", "Yes", "TRUE", "enabled"] {
                assert_eq!(EnvPolicy::from_vars([(name, v)]), EnvPolicy::default(), "{name}={v}");
            }
        }
    }

    #[test]
    fn a_fused_switch_declines_its_plan_only_when_not_on() {
        let switches = [
            ("MIOPEN_DEBUG_BN_FWDINFER_ACTIV_FUSED", fused::INFERENCE_ACTIVATION_PLAN),
            ("MIOPEN_DEBUG_BN_BWDTRG_ACTIV_FUSED", fused::BACKWARD_ACTIVATION_PLAN),
        ];
        for (i, (name, kind)) in switches.into_iter().enumerate() {
            let (_, other) = switches[1 - i];
            for v in ["0", "off", "disabled", "bogus"] {
                let p = EnvPolicy::from_vars([(name, v)]);
                // A value MIOpen refuses declines every fusion plan too
                // (`refused_fused_switch`): no family of batchnorm's own.
                assert_eq!(p.decline_reason(Group::of(&ROW)), None, "{name}={v}: batchnorm's calls");
                let reason = p.plan_decline_reason(kind).unwrap_or_else(|| panic!("{name}={v}"));
                assert!(reason.starts_with(&format!("{name}={v} (switches off MIOpen's fused")), "{reason}");
                assert_eq!(p.plan_decline_reason(other), None, "{name}={v}: the other plan");
            }
            for v in ["1", "on", "enable"] {
                assert_eq!(EnvPolicy::from_vars([(name, v)]), EnvPolicy::default(), "{name}={v}");
            }
        }
    }

    #[test]
    fn a_refused_value_of_a_batchnorm_fused_switch_declines_every_fusion_plan() {
        let fusion = Group::named("fusion");
        for name in [
            "MIOPEN_DEBUG_BN_FWDINFER_ACTIV_FUSED",
            "MIOPEN_DEBUG_BN_FWDTRG_ACTIV_FUSED",
            "MIOPEN_DEBUG_BN_BWDTRG_ACTIV_FUSED",
        ] {
            // MIOpen throws for these (no trimming, no other numbers).
            for v in ["maybe", "2", " 1", "", "offf"] {
                let p = EnvPolicy::from_vars([(name, v)]);
                let reason = p.decline_reason(fusion).unwrap_or_else(|| panic!("{name}={v:?}"));
                assert!(reason.starts_with(&format!("{name}={v} (a value MIOpen refuses")), "{reason}");
                assert!(Group::all().filter(|&g| g != fusion).all(|g| p.decline_reason(g).is_none()), "{name}={v:?}");
            }
            // MIOpen's own spellings of off and on: no fusion plan is declined for it.
            for v in ["0", "1", "off", "On", "DISABLED", "yes", "False"] {
                assert_eq!(EnvPolicy::from_vars([(name, v)]).decline_reason(fusion), None, "{name}={v}");
            }
        }
    }
}
