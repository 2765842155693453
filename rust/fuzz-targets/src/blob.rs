//! `miopenLoadSolution`'s decoder of the wrapper's own blob: any bytes are
//! refused or make a solution whose every field passed its check, that
//! encodes back to exactly these bytes and that translates (or declines)
//! without a panic.

use miopen_forwarding_core::conv;
use miopen_forwarding_core::find2::blob::{self, Decoded};
use miopen_forwarding_core::status::miopen;

pub fn run(data: &[u8]) {
    match blob::decode(data) {
        Decoded::NotOurs => assert!(!data.starts_with(blob::MAGIC)),
        Decoded::Rejected { status, why } => {
            let known = [miopen::INVALID_VALUE, miopen::VERSION_MISMATCH, miopen::UNKNOWN_ERROR];
            assert!(known.contains(&status), "{status}: {why}");
        }
        Decoded::Solution(s) => {
            assert_eq!(blob::encode(&s), data, "a loaded blob is the canonical encoding of what it holds");
            for t in [&s.problem.x, &s.problem.w, &s.problem.y] {
                blob::extent_bytes(t).expect("a loaded tensor's extent is counted without overflow");
            }
            let _ = conv::translate(&s.problem);
        }
    }
    // The same bytes behind the magic reach every check past it.
    if !data.starts_with(blob::MAGIC) {
        let mut ours = blob::MAGIC.to_vec();
        ours.extend_from_slice(&blob::VERSION.to_le_bytes());
        ours.extend_from_slice(data);
        if let Decoded::Solution(s) = blob::decode(&ours) {
            assert_eq!(blob::encode(&s), ours);
        }
    }
}
