//! Fusion plans from MIOpen's operator descriptors: any plan translates or
//! is declined, never a panic.

use miopen_forwarding_core::fusion::{self, ActivationArgs, Op, Plan};

use crate::bytes::Input;

fn op(input: &mut Input, rank: usize) -> Op {
    match input.byte() % 7 {
        0 => {
            let spatial = input.rank(rank.saturating_sub(2));
            let conv = crate::conv::params(input, spatial);
            Op::Conv { conv, w: input.tensor_near(rank) }
        }
        1 => Op::Bias { bias: input.tensor_near(rank) },
        2 => Op::Activation { mode: input.pick(&[3, 0, 1, 7, 9]) },
        3 => Op::BatchNormInference { mode: input.pick(&[0, 1, 2]), params: input.tensor_near(rank) },
        4 => Op::BatchNormBackward { mode: input.pick(&[0, 1, 2]) },
        5 => Op::ActivationBackward { mode: input.pick(&[3, 0, 7, 10]) },
        _ => Op::Unreadable("unreadable".into()),
    }
}

pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let rank = input.rank_from(4);
    let direction = input.pick(&[0, 1]);
    let x = input.tensor(rank);
    let count = input.byte() % 5;
    let plan = Plan { direction, input: x, ops: (0..count).map(|_| op(&mut input, rank)).collect() };
    let args = ActivationArgs { alpha: input.f64(), beta: input.f64() };
    if let Ok(t) = fusion::translate(&plan, args) {
        assert!(t.output.dims.iter().all(|&d| d > 0), "{:?}", t.output);
    }
    let _ = fusion::translate(&plan, ActivationArgs::AT_COMPILE);
    if let Some(Op::Conv { conv, w }) = plan.ops.first() {
        let _ = fusion::output_of(&plan.input, conv, w);
    }
}
