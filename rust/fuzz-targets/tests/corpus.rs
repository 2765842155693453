//! Every committed corpus input through its target, on stable: what the
//! fuzzer found interesting stays checked by `cargo test`. The seeds each
//! corpus starts from are made here (`seeds`), so they follow the formats;
//! `UPDATE_FUZZ_SEEDS=1 cargo test -p miopen-wrap-fuzz-targets` writes them.

use std::path::{Path, PathBuf};

use miopen_forwarding_core::conv::{ConvParams, Direction, Problem};
use miopen_forwarding_core::find2::blob;
use miopen_forwarding_core::find2::SolvedProblem;
use miopen_forwarding_core::graph_key::Knobs;
use miopen_forwarding_core::tensor::Tensor;
use miopen_wrap_fuzz_targets::TARGETS;

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz/corpus").join(name)
}

fn packed(dims: &[i64]) -> Tensor {
    let mut strides = vec![1; dims.len()];
    for i in (0..dims.len() - 1).rev() {
        strides[i] = strides[i + 1] * dims[i + 1];
    }
    Tensor { dtype: 1, dims: dims.to_vec(), strides }
}

/// x 2x3x9x9, w 4x3x3x3, y 2x4x9x9, pads, strides and dilations 1, as
/// `conv::problem` reads it (a selector byte, then the value).
const CONV_SEED: &[u8] = &[
    0, 0, 0, 0, 0, // forward, 2-D, rank 2, mode 0
    0, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, // rank, pads, strides, dilations, groups
    0, 0, 0, 0, // deterministic 0, fp16-alt -1
    0, 0, 0, 0, 2, 0, 3, 0, 9, 0, 9, 0, // x: rank, float, dims, packed
    0, 0, 0, 0, 4, 0, 3, 0, 3, 0, 3, 0, // w
    0, 0, 0, 0, 2, 0, 4, 0, 9, 0, 9, 0, // y
];

/// The seeds: one valid input of each kind a target reads.
fn seeds() -> Vec<(&'static str, &'static str, Vec<u8>)> {
    let conv = ConvParams {
        mode: 0,
        pads: vec![1, 1],
        strides: vec![1, 1],
        dilations: vec![1, 1],
        groups: 1,
        deterministic: 0,
        fp16_alt_impl: -1,
    };
    let problem = Problem {
        direction: Direction::Forward,
        x: packed(&[2, 3, 9, 9]),
        w: packed(&[4, 3, 3, 3]),
        y: packed(&[2, 4, 9, 9]),
        conv,
    };
    let blob = blob::encode(&SolvedProblem { problem, time_ms: 0.25, knobs: Knobs::NONE });
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let read = |p: &str| std::fs::read(root.join(p)).expect(p);
    let mut adopt_toml = vec![0u8];
    adopt_toml.extend(read("src_patches/cmake-edits.toml"));
    let mut adopt_json = vec![1u8];
    adopt_json.extend(read("src_patches/source-edits/logger.json"));
    let mut adopt_cmake = vec![2u8];
    adopt_cmake.extend(read("test/mini-miopen/CMakeLists.txt"));
    let env = b"enabled\x005\x00conv_fwd,fusion\x001\x000\x00256\x001073741824\x00MIOPEN_FIND_MODE\x001".to_vec();
    vec![
        ("blob", "seed-valid", blob),
        ("adopt", "seed-cmake-edits", adopt_toml),
        ("adopt", "seed-source-edits", adopt_json),
        ("adopt", "seed-cmake", adopt_cmake),
        ("env", "seed-enabled", env),
        // A forward 3x3 convolution, packed NCHW, every byte a small value.
        ("conv", "seed-forward", CONV_SEED.to_vec()),
        ("fusion", "seed-empty", vec![0]),
        ("batchnorm", "seed-inference", vec![0]),
    ]
}

#[test]
fn the_corpora_hold_the_current_seeds() {
    let update = std::env::var_os("UPDATE_FUZZ_SEEDS").is_some();
    for (target, name, bytes) in seeds() {
        let path = corpus(target).join(name);
        if update {
            std::fs::create_dir_all(corpus(target)).unwrap();
            std::fs::write(&path, &bytes).unwrap();
        }
        let committed = std::fs::read(&path).unwrap_or_default();
        assert!(committed == bytes, "{} is not the current seed (UPDATE_FUZZ_SEEDS=1 rewrites it)", path.display());
    }
}

#[test]
fn every_corpus_input_passes_its_target() {
    for (name, target) in TARGETS {
        let dir = corpus(name);
        let mut n = 0;
        for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let data = std::fs::read(entry.unwrap().path()).unwrap();
            target(&data);
            n += 1;
        }
        assert!(n > 0, "{name}: an empty corpus");
    }
}

#[test]
fn the_conv_seed_is_a_problem_hipdnn_runs() {
    let p = miopen_wrap_fuzz_targets::conv::problem(&mut miopen_wrap_fuzz_targets::bytes::Input::new(CONV_SEED));
    assert_eq!(
        (p.x.dims.clone(), p.w.dims.clone(), p.y.dims.clone()),
        (vec![2, 3, 9, 9], vec![4, 3, 3, 3], vec![2, 4, 9, 9])
    );
    miopen_forwarding_core::conv::translate(&p).expect("the seed translates");
}
