//! The convolution family's translation from MIOpen descriptor values
//! (the legacy calls, Find 2.0 problems, the one-call fused form): valid and
//! invalid descriptor sets give a graph or a decline, never a panic; a
//! graph has positive dims and strides of one rank; a translated problem
//! survives the solution blob.

use miopen_forwarding_core::conv::one_call_activation;
use miopen_forwarding_core::find2::blob::{self, Decoded};
use miopen_forwarding_core::find2::SolvedProblem;
use miopen_forwarding_core::graph_key::Knobs;
use miopen_forwarding_core::ops::conv::{self, Activation, ConvParams, Direction, Epilogue, Problem};
use miopen_forwarding_core::tensor::TensorSpec;

use crate::bytes::Input;

pub fn problem(input: &mut Input) -> Problem {
    let direction =
        [Direction::Forward, Direction::BackwardData, Direction::BackwardWeights][usize::from(input.byte() % 3)];
    let spatial = input.rank_from(2);
    let conv = params(input, spatial);
    let x = input.tensor_near(spatial + 2);
    let w = input.tensor_near(spatial + 2);
    let y = input.tensor_near(spatial + 2);
    Problem { direction, x, w, y, conv }
}

/// A convolution descriptor's values for `spatial` dimensions (the pads'
/// count sometimes another).
pub fn params(input: &mut Input, spatial: usize) -> ConvParams {
    ConvParams {
        mode: input.pick(&[0, 2, 3, 1]),
        pads: input.ints_near(spatial),
        strides: input.ints(spatial),
        dilations: input.ints(spatial),
        groups: input.int(),
        deterministic: input.pick(&[0, 1]) as i32,
        fp16_alt_impl: input.pick(&[u32::MAX, 0, 1]) as i32,
    }
}

fn well_formed(t: &TensorSpec, rank: usize) {
    assert_eq!(t.dims.len(), rank, "{t:?}");
    assert_eq!(t.strides.len(), rank, "{t:?}");
    assert!(t.dims.iter().chain(&t.strides).all(|&v| v > 0), "{t:?}");
}

pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let p = problem(&mut input);
    if let Ok(spec) = conv::translate(&p) {
        let rank = spec.x.dims.len();
        for t in [&spec.x, &spec.w, &spec.y] {
            well_formed(t, rank);
        }
        // A problem hipDNN runs is one a saved solution holds (or refuses
        // as out of an address space), and loads back unchanged.
        let solved = SolvedProblem { problem: p.clone(), time_ms: 1.0, knobs: Knobs::NONE };
        match blob::decode(&blob::encode(&solved)) {
            Decoded::Solution(s) => assert_eq!(*s, solved),
            Decoded::Rejected { why, .. } => assert!(
                why.contains("overflow") || why.contains("address space") || why.contains("overlapping"),
                "{why}"
            ),
            Decoded::NotOurs => unreachable!("encode writes the magic"),
        }
    }
    let bias = input.bool();
    let fusion = Epilogue {
        bias: bias.then(|| input.tensor_near(p.y.dims.len())),
        has_z: input.byte() > 240,
        activation: Activation { mode: input.pick(&[3, 0, 1, 7, 9]), alpha: input.f64(), beta: input.f64() },
    };
    let _ = one_call_activation(&fusion.activation);
    if let Ok(spec) = conv::translate_fused(&p, &fusion) {
        well_formed(&spec.x, spec.x.dims.len());
    }
}
