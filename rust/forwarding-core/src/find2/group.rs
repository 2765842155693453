//! The Find 2.0 group's data row (`find2`: MIOpen's problem API for
//! convolution problems, so `convolution` is its umbrella). Its plans are
//! the convolution group's graphs: it has no graph spec of its own.

use crate::row::{Entry, GroupRow};

const FIND2: &str = "conv_find2";

pub const ROW: GroupRow = GroupRow {
    umbrella: "convolution",
    // MIGraphX's only convolution API.
    default_build: true,
    families: &[FIND2],
    // The problem and find-option calls run on MIOpen Private and are
    // recorded (the objects are opaque and have no getters); the search, the
    // run and every call on a solution object answer for the wrapper's own
    // hipDNN solutions.
    entry_points: &[
        Entry::new("miopenCreateConvProblem", FIND2),
        Entry::new("miopenDestroyProblem", FIND2),
        Entry::new("miopenSetProblemTensorDescriptor", FIND2),
        Entry::new("miopenCreateFindOptions", FIND2),
        Entry::new("miopenDestroyFindOptions", FIND2),
        Entry::new("miopenSetFindOptionTuning", FIND2),
        Entry::new("miopenSetFindOptionResultsOrder", FIND2),
        Entry::new("miopenSetFindOptionWorkspaceLimit", FIND2),
        Entry::new("miopenSetFindOptionPreallocatedWorkspace", FIND2),
        Entry::new("miopenSetFindOptionPreallocatedTensor", FIND2),
        Entry::new("miopenFindSolutions", FIND2),
        Entry::new("miopenRunSolution", FIND2),
        Entry::new("miopenDestroySolution", FIND2),
        Entry::new("miopenLoadSolution", FIND2),
        Entry::new("miopenSaveSolution", FIND2),
        Entry::new("miopenGetSolutionSize", FIND2),
        Entry::new("miopenGetSolutionWorkspaceSize", FIND2),
        Entry::new("miopenGetSolutionTime", FIND2),
        Entry::new("miopenGetSolutionSolverId", FIND2),
    ],
    ..GroupRow::new("find2", "find2")
};
