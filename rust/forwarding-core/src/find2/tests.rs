use super::blob::{self, Decoded};
use super::*;
use crate::ops::conv::{ConvParams, Direction};
use crate::status::miopen;
use crate::tensor::Tensor;

fn t(dims: &[i64]) -> Tensor {
    let mut strides = vec![1; dims.len()];
    for i in (0..dims.len() - 1).rev() {
        strides[i] = strides[i + 1] * dims[i + 1];
    }
    Tensor { dtype: 1, dims: dims.to_vec(), strides }
}

fn solved() -> SolvedProblem {
    let conv = ConvParams {
        mode: 0,
        pads: vec![1, 2],
        strides: vec![2, 1],
        dilations: vec![1, 3],
        groups: 2,
        deterministic: 0,
        fp16_alt_impl: 1,
    };
    let problem = Problem {
        direction: Direction::BackwardWeights,
        x: t(&[2, 4, 9, 9]),
        w: t(&[6, 2, 3, 3]),
        y: t(&[2, 6, 5, 3]),
        conv,
    };
    SolvedProblem { problem, time_ms: 0.125, workspace: 4096 }
}

#[test]
fn a_saved_solution_loads_as_it_was() {
    let s = solved();
    let bytes = blob::encode(&s);
    assert!(bytes.starts_with(blob::MAGIC));
    assert_eq!(blob::decode(&bytes), Decoded::Solution(Box::new(s)));
}

#[test]
fn another_blob_is_miopens_and_a_damaged_one_gets_miopens_statuses() {
    // The test bed's (and MIOpen's) validation number first: not ours.
    assert_eq!(blob::decode(&0x1234_5678_9ABC_DEF0u64.to_le_bytes()), Decoded::NotOurs);
    assert_eq!(blob::decode(b""), Decoded::NotOurs);
    let bytes = blob::encode(&solved());
    let status = |d: Decoded| match d {
        Decoded::Rejected { status, .. } => status,
        other => panic!("not rejected: {other:?}"),
    };
    assert_eq!(status(blob::decode(&bytes[..bytes.len() - 1])), miopen::UNKNOWN_ERROR);
    let mut longer = bytes.clone();
    longer.push(0);
    assert_eq!(status(blob::decode(&longer)), miopen::UNKNOWN_ERROR);
    let mut newer = bytes.clone();
    newer[blob::MAGIC.len()] = 2;
    assert_eq!(status(blob::decode(&newer)), miopen::VERSION_MISMATCH);
    let mut bad_direction = bytes;
    bad_direction[blob::MAGIC.len() + 4] = 7;
    assert_eq!(status(blob::decode(&bad_direction)), miopen::UNKNOWN_ERROR);
}

fn prealloc() -> FindOptions {
    let mut o = FindOptions::default();
    for id in argument::ALL {
        o.preallocate_tensor(id, 0x1000 * id as usize);
    }
    o
}

#[test]
fn a_search_is_miopens_when_asked_exhaustive_or_without_buffers() {
    assert_eq!(search_decline(&prealloc(), 0), None);
    assert_eq!(search_decline(&prealloc(), 5), None);
    let normal = search_decline(&prealloc(), 1).unwrap();
    assert!(normal.contains("find mode Normal"), "{normal}");
    let mut tuned = prealloc();
    tuned.tuning = true;
    assert!(search_decline(&tuned, 0).unwrap().contains("miopenSetFindOptionTuning"));
    let mut two = FindOptions::default();
    two.preallocate_tensor(argument::X, 1);
    two.preallocate_tensor(argument::Y, 3);
    assert!(search_decline(&two, 0).unwrap().starts_with("no preallocated x, w and y buffers"));
}

#[test]
fn the_first_preallocated_buffer_of_an_id_stays() {
    let mut o = FindOptions::default();
    o.preallocate_tensor(argument::W, 8);
    o.preallocate_tensor(argument::W, 16);
    assert_eq!(o.tensor(argument::W), Some(8));
    assert_eq!(o.tensor(argument::X), None);
}

#[test]
fn the_plans_workspace_keeps_to_the_options() {
    let mut o = FindOptions::default();
    assert_eq!(workspace_decline(&o, 0), None);
    assert!(workspace_decline(&o, 1).unwrap().starts_with("no preallocated workspace for the 1 bytes"));
    o.workspace = Some((0x100, 64));
    assert_eq!(workspace_decline(&o, 64), None);
    assert_eq!(
        workspace_decline(&o, 65).as_deref(),
        Some("preallocated workspace of 64 bytes < the 65 the hipDNN plan needs")
    );
    o.workspace = Some((0, 64));
    assert!(workspace_decline(&o, 1).unwrap().starts_with("preallocated workspace of 0 bytes"));
    let limited = FindOptions { workspace_limit: 10, ..FindOptions::default() };
    assert!(workspace_decline(&limited, 11).unwrap().starts_with("workspace limit of 10 bytes"));
}
