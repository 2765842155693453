//! The batchnorm family's translations (inference, training, backward)
//! from MIOpen descriptor values: a graph or a decline, never a panic.

use miopen_forwarding_core::batchnorm::{self, backward, training};

use crate::bytes::Input;

pub fn run(data: &[u8]) {
    let mut input = Input::new(data);
    let rank = input.rank_from(4);
    let mode = input.pick(&[1, 0, 2]);
    let t = |input: &mut Input| input.tensor_near(rank);
    match input.byte() % 3 {
        0 => {
            let p = batchnorm::Problem {
                mode,
                x: t(&mut input),
                y: t(&mut input),
                scale: t(&mut input),
                bias: t(&mut input),
                mean: t(&mut input),
                variance: t(&mut input),
                epsilon: input.f64(),
            };
            let _ = batchnorm::translate(&p);
        }
        1 => {
            let p = training::Problem {
                mode,
                x: t(&mut input),
                y: t(&mut input),
                scale: t(&mut input),
                bias: t(&mut input),
                saved_mean: t(&mut input),
                saved_inv_variance: t(&mut input),
                epsilon: input.f64(),
                save: input.bool(),
            };
            let _ = training::translate(&p);
        }
        _ => {
            let p = backward::Problem {
                mode,
                x: t(&mut input),
                dy: t(&mut input),
                dx: t(&mut input),
                scale: t(&mut input),
                bias: t(&mut input),
                saved_mean: t(&mut input),
                saved_inv_variance: t(&mut input),
                epsilon: input.f64(),
                use_saved: input.bool(),
            };
            let _ = backward::translate(&p);
        }
    }
}
