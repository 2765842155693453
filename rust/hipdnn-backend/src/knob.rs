//! hipDNN's global engine-config knobs the wrapper sets, by id. A knob is
//! set on an engine configuration as a `KNOB_CHOICE` descriptor (its id as
//! `KNOB_CHOICE_KNOB_TYPE`, CHAR; its value as `KNOB_CHOICE_KNOB_VALUE`,
//! INT64) listed in `ENGINECFG_KNOB_CHOICES` (ROCm/rocm-libraries
//! `projects/hipdnn/backend/src/descriptors/KnobSettingDescriptor.cpp`
//! @61350fef, `EngineConfigDescriptor.cpp` @272ae967). The ids are the
//! plugin SDK's global knobs, read by the MIOpen provider
//! (`dnn-providers/miopen-provider/docs/Knobs.md` @3029ab76,
//! `engines/plans/MiopenConvPlanBuilder.cpp` @026d8d31).

/// 0/1: the engine benchmarks its candidates (the MIOpen provider: MIOpen
/// searches its solvers by running them).
pub const BENCHMARKING: &str = "global.benchmarking";

/// Bytes: the most workspace the plan may use (the MIOpen provider takes a
/// value within the range of MIOpen's solutions: `docs/forwarding.md`, "Knobs").
pub const WORKSPACE_SIZE_LIMIT: &str = "global.workspace_size_limit";
