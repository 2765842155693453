use super::*;
use crate::tensor::Tensor;

fn packed(dims: &[i64]) -> Tensor {
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
        x: packed(&[2, 4, 9, 9]),
        w: packed(&[6, 2, 3, 3]),
        y: packed(&[2, 6, 5, 7]),
        conv,
    };
    SolvedProblem { problem, time_ms: 0.125, knobs: Knobs { benchmarking: true, workspace_limit: Some(64) } }
}

fn status(d: Decoded) -> u32 {
    match d {
        Decoded::Rejected { status, .. } => status,
        other => panic!("not rejected: {other:?}"),
    }
}

fn why(d: Decoded) -> String {
    match d {
        Decoded::Rejected { why, .. } => why,
        other => panic!("not rejected: {other:?}"),
    }
}

/// `s` encoded, then `damage` done to its payload, then the checksum made
/// right again: what a deliberate edit looks like to the field checks.
fn resigned(s: &SolvedProblem, damage: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut bytes = encode(s);
    bytes.truncate(bytes.len() - CHECKSUM);
    damage(&mut bytes);
    let length = (bytes.len() - HEADER) as u32;
    bytes[MAGIC.len() + 4..HEADER].copy_from_slice(&length.to_le_bytes());
    let sum = checksum(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    bytes
}

#[test]
fn a_saved_solution_loads_as_it_was() {
    let s = solved();
    let bytes = encode(&s);
    assert!(bytes.starts_with(MAGIC));
    assert_eq!(decode(&bytes), Decoded::Solution(Box::new(s)));
}

#[test]
fn another_blob_is_miopens() {
    // The test bed's (and MIOpen's) validation number first: not ours.
    assert_eq!(decode(&0x1234_5678_9ABC_DEF0u64.to_le_bytes()), Decoded::NotOurs);
    assert_eq!(decode(b""), Decoded::NotOurs);
    assert_eq!(decode(&MAGIC[..15]), Decoded::NotOurs);
}

#[test]
fn another_format_version_is_miopens_version_mismatch() {
    for v in [1u32, 2, 4, u32::MAX] {
        let mut bytes = encode(&solved());
        bytes[MAGIC.len()..MAGIC.len() + 4].copy_from_slice(&v.to_le_bytes());
        assert_eq!(status(decode(&bytes)), miopen::VERSION_MISMATCH, "version {v}");
    }
}

#[test]
fn every_single_byte_damage_is_refused_with_miopens_status() {
    let bytes = encode(&solved());
    let version = MAGIC.len()..MAGIC.len() + 4;
    let length = MAGIC.len() + 4..HEADER;
    for i in MAGIC.len()..bytes.len() {
        for delta in [1u8, 0x80, 0xff] {
            let mut d = bytes.clone();
            d[i] = d[i].wrapping_add(delta);
            let expected = if version.contains(&i) {
                miopen::VERSION_MISMATCH
            } else if length.contains(&i) {
                miopen::UNKNOWN_ERROR // the length no longer the blob's: MIOpen's parser fails
            } else {
                miopen::INVALID_VALUE // the checksum: MIOpen's wrong validation number
            };
            assert_eq!(status(decode(&d)), expected, "byte {i} + {delta}");
        }
    }
    for n in HEADER..bytes.len() {
        assert_eq!(status(decode(&bytes[..n])), miopen::UNKNOWN_ERROR, "truncated to {n}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(why(decode(&longer)).contains("bytes for a payload of"));
    let mut flipped = bytes;
    let last = flipped.len() - 1;
    flipped[last] ^= 1;
    assert!(why(decode(&flipped)).contains("checksum mismatch"));
}

#[test]
fn a_resigned_blob_still_has_every_field_checked() {
    let s = solved();
    assert_eq!(
        decode(&resigned(&s, |_| {})),
        Decoded::Solution(Box::new(s.clone())),
        "re-signing alone changes nothing"
    );
    // The offsets of the payload's fields (after the header).
    let time = HEADER + 1;
    let benchmarking = time + 4;
    let x_type = HEADER + 1 + 4 + 1 + 8 + 4 + 8 + 4 + 4 + 1 + 3 * 2 * 8;
    let x_dims = x_type + 4 + 1;
    let x_strides = x_dims + 4 * 8;
    let i64_at = |at: usize, v: i64| move |b: &mut Vec<u8>| b[at..at + 8].copy_from_slice(&v.to_le_bytes());
    type Damage = Box<dyn FnOnce(&mut Vec<u8>)>;
    let cases: Vec<(&str, Damage)> = vec![
        ("direction 7", Box::new(|b: &mut Vec<u8>| b[HEADER] = 7)),
        (
            "time NaN",
            Box::new(move |b: &mut Vec<u8>| b[time..time + 4].copy_from_slice(&f32::NAN.to_bits().to_le_bytes())),
        ),
        (
            "time -1",
            Box::new(move |b: &mut Vec<u8>| b[time..time + 4].copy_from_slice(&(-1f32).to_bits().to_le_bytes())),
        ),
        ("benchmarking 2", Box::new(move |b: &mut Vec<u8>| b[benchmarking] = 2)),
        ("data type 9", Box::new(move |b: &mut Vec<u8>| b[x_type] = 9)),
        ("rank 0", Box::new(move |b: &mut Vec<u8>| b[x_type + 4] = 0)),
        ("rank 200", Box::new(move |b: &mut Vec<u8>| b[x_type + 4] = 200)),
        ("x's N 0", Box::new(i64_at(x_dims, 0))),
        ("x's N 3 (y's is 2)", Box::new(i64_at(x_dims, 3))),
        ("x's W 10 (y's W no longer follows)", Box::new(i64_at(x_dims + 24, 10))),
        ("x's N stride i64::MAX", Box::new(i64_at(x_strides, i64::MAX))),
        ("x's N stride -1", Box::new(i64_at(x_strides, -1))),
        ("x's N stride 1 (overlapping)", Box::new(i64_at(x_strides, 1))),
        ("x's N stride 2^61 (past an address space)", Box::new(i64_at(x_strides, 1 << 61))),
        ("trailing payload byte", Box::new(|b: &mut Vec<u8>| b.push(0))),
        ("payload cut", Box::new(|b: &mut Vec<u8>| b.truncate(b.len() - 3))),
    ];
    for (what, damage) in cases {
        let d = decode(&resigned(&s, damage));
        let unparsable = ["rank 0", "rank 200", "trailing payload byte", "payload cut"].contains(&what);
        let expected = if unparsable { miopen::UNKNOWN_ERROR } else { miopen::INVALID_VALUE };
        assert_eq!(status(d), expected, "{what}");
    }
}

#[test]
fn a_padded_or_channels_last_layout_is_a_valid_one() {
    let mut s = solved();
    // NHWC x: strides N=H*W*C, C=1, H=W*C, W=C.
    s.problem.x.strides = vec![9 * 9 * 4, 1, 9 * 4, 4];
    // A padded y row (W stride 1, H stride 8 > W=7).
    s.problem.y.strides = vec![6 * 5 * 8, 5 * 8, 8, 1];
    assert_eq!(decode(&encode(&s)), Decoded::Solution(Box::new(s)));
}

#[test]
fn extents_are_counted_without_overflow() {
    let t = |dims: Vec<i64>, strides: Vec<i64>| Tensor { dtype: 1, dims, strides };
    assert_eq!(check::extent_bytes(&t(vec![2, 3], vec![3, 1])), Ok(24));
    assert_eq!(
        check::extent_bytes(&t(vec![1, 1], vec![i64::MAX, i64::MAX])),
        Ok(4),
        "a unit dim's stride adds nothing"
    );
    assert!(check::extent_bytes(&t(vec![3, 1], vec![i64::MAX / 2 + 1, 1])).is_err());
    assert!(check::extent_bytes(&t(vec![2, 2], vec![i64::MAX / 2, i64::MAX / 2])).is_err());
    assert!(check::extent_bytes(&t(vec![2], vec![isize::MAX as i64 / 4])).is_err(), "bytes past isize::MAX");
    assert!(check::extent_bytes(&Tensor { dtype: 3, dims: vec![1], strides: vec![1] }).is_err(), "int8");
}
