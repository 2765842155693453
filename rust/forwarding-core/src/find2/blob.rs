//! The bytes `miopenSaveSolution` writes for a hipDNN solution, and their
//! reading back by `miopenLoadSolution`: untrusted input (a framework reads
//! them back from disk), so nothing decoded is used before it is checked.
//!
//! MIOpen's own blobs start with its validation number (a MessagePack map
//! header in MIOpen, the same number little-endian in the test bed); a
//! hipDNN solution's start with [`MAGIC`], which neither can be, so the
//! wrapper tells the two apart from the first bytes and MIOpen Private
//! rejects a hipDNN blob with its own status (`docs/forwarding.md`, "Find
//! 2.0", "Saved solutions").
//!
//! Layout (little-endian): [`MAGIC`], format version (u32), payload length
//! (u32), the payload, and an FNV-1a 64 checksum of everything before it.
//! The payload: direction (u8), time (f32 bits), the plan's knobs
//! (benchmarking u8 0/1, workspace limit u64, `u64::MAX` for none; format 3),
//! the convolution (mode u32,
//! groups i64, deterministic i32, fp16-alt i32, rank u8, pads, strides,
//! dilations as i64), then x, w, y (type u32, rank u8, dims, strides as
//! i64). No workspace: a loaded solution's is its plan's, built in the
//! loading process.
//!
//! What MIOpen's loader checks (`src/solution.cpp` @ 2d1fd99, `from_json`
//! of a `Solution`): its validation number (else `miopenStatusInvalidValue`,
//! "invalid buffer"), then its version (else `miopenStatusVersionMismatch`);
//! bytes its MessagePack parser cannot read (`miopenLoadSolution` in
//! `src/api/find2_0_commons.cpp`: a truncated or extended blob) fail with the
//! parser's exception, `miopenStatusUnknownError`. Here: the format version
//! first (another version's layout is unknown, so nothing after it is read);
//! a length that is not the blob's, or a payload that does not parse, is
//! MIOpen's unparsable blob; a checksum that does not match (the analogue of
//! the validation number) or any field out of range ([`check`]) is MIOpen's
//! invalid buffer.

mod check;

pub use check::extent_bytes;

use crate::conv::{ConvParams, Direction, Problem};
use crate::graph_key::Knobs;
use crate::status::miopen;
use crate::tensor::Tensor;

use super::SolvedProblem;

pub const MAGIC: &[u8; 16] = b"hipDNN-solution\0";
/// 1 had no checksum and carried the workspace.
pub const VERSION: u32 = 3;
/// Magic, version, payload length.
const HEADER: usize = MAGIC.len() + 4 + 4;
const CHECKSUM: usize = 8;

/// What a blob is to the wrapper.
#[derive(Debug, PartialEq)]
pub enum Decoded {
    /// Not a hipDNN solution: MIOpen Private's to load.
    NotOurs,
    Solution(Box<SolvedProblem>),
    /// A hipDNN solution that cannot be used: MIOpen's status for a blob
    /// of another format version, or for an invalid one.
    Rejected {
        status: u32,
        why: String,
    },
}

/// FNV-1a, 64 bits: one byte changed anywhere changes it (each step is a
/// bijection of the state), so every single-byte damage is caught; it is
/// not a signature, which is why every field is checked as well.
pub fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

pub fn encode(s: &SolvedProblem) -> Vec<u8> {
    let mut payload = Vec::with_capacity(256);
    let p = &s.problem;
    payload.push(p.direction as u8);
    payload.extend_from_slice(&s.time_ms.to_bits().to_le_bytes());
    payload.push(u8::from(s.knobs.benchmarking));
    payload.extend_from_slice(&s.knobs.workspace_limit.unwrap_or(u64::MAX).to_le_bytes());
    let c = &p.conv;
    payload.extend_from_slice(&c.mode.to_le_bytes());
    payload.extend_from_slice(&c.groups.to_le_bytes());
    payload.extend_from_slice(&c.deterministic.to_le_bytes());
    payload.extend_from_slice(&c.fp16_alt_impl.to_le_bytes());
    payload.push(c.pads.len() as u8);
    for v in c.pads.iter().chain(&c.strides).chain(&c.dilations) {
        payload.extend_from_slice(&v.to_le_bytes());
    }
    for t in [&p.x, &p.w, &p.y] {
        payload.extend_from_slice(&t.dtype.to_le_bytes());
        payload.push(t.dims.len() as u8);
        for v in t.dims.iter().chain(&t.strides) {
            payload.extend_from_slice(&v.to_le_bytes());
        }
    }
    let mut out = Vec::with_capacity(HEADER + payload.len() + CHECKSUM);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&payload);
    out.extend_from_slice(&checksum(&out).to_le_bytes());
    out
}

/// `data` as [`encode`] wrote it (a blob of any other start is not ours).
pub fn decode(data: &[u8]) -> Decoded {
    if !data.starts_with(MAGIC) {
        return Decoded::NotOurs;
    }
    match read(data) {
        Ok(s) => Decoded::Solution(Box::new(s)),
        Err(rejected) => rejected,
    }
}

fn read(data: &[u8]) -> Result<SolvedProblem, Decoded> {
    let mut r = Reader { data, at: MAGIC.len() };
    let version = r.u32()?;
    if version != VERSION {
        return Err(Decoded::Rejected {
            status: miopen::VERSION_MISMATCH,
            why: format!("hipDNN solution blob of format version {version} (this wrapper reads {VERSION})"),
        });
    }
    let length = r.u32()? as usize;
    if data.len().checked_sub(HEADER + CHECKSUM) != Some(length) {
        return Err(unparsable(format!("{} bytes for a payload of {length}", data.len())));
    }
    let (body, sum) = data.split_at(HEADER + length);
    if checksum(body) != u64::from_le_bytes(sum.try_into().map_err(|_| unparsable("checksum".into()))?) {
        return Err(invalid("checksum mismatch (the blob was damaged)".into()));
    }
    let mut r = Reader { data: body, at: HEADER };
    let solved = r.solution()?;
    if r.at != body.len() {
        return Err(unparsable(format!("{} payload bytes after the solution", body.len() - r.at)));
    }
    check::problem(&solved.problem).map_err(invalid)?;
    if !(solved.time_ms.is_finite() && solved.time_ms >= 0.0) {
        return Err(invalid(format!("time {}", solved.time_ms)));
    }
    Ok(solved)
}

/// MIOpen's status for a buffer that is not a valid solution.
fn invalid(what: String) -> Decoded {
    Decoded::Rejected { status: miopen::INVALID_VALUE, why: format!("invalid hipDNN solution blob: {what}") }
}

/// MIOpen's status for bytes its parser cannot read.
fn unparsable(what: String) -> Decoded {
    Decoded::Rejected { status: miopen::UNKNOWN_ERROR, why: format!("malformed hipDNN solution blob: {what}") }
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], Decoded> {
        let bytes =
            self.data.get(self.at..).and_then(|rest| rest.get(..N)).ok_or_else(|| unparsable("truncated".into()))?;
        self.at += N;
        let mut out = [0; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }
    fn u8(&mut self) -> Result<u8, Decoded> {
        Ok(self.take::<1>()?[0])
    }
    fn u32(&mut self) -> Result<u32, Decoded> {
        Ok(u32::from_le_bytes(self.take()?))
    }
    fn i32(&mut self) -> Result<i32, Decoded> {
        Ok(i32::from_le_bytes(self.take()?))
    }
    fn i64(&mut self) -> Result<i64, Decoded> {
        Ok(i64::from_le_bytes(self.take()?))
    }
    fn u64(&mut self) -> Result<u64, Decoded> {
        Ok(u64::from_le_bytes(self.take()?))
    }
    /// A count of values that follow, bounded before anything is allocated.
    fn rank(&mut self) -> Result<usize, Decoded> {
        match self.u8()? {
            n @ 1..=check::MAX_RANK => Ok(usize::from(n)),
            n => Err(unparsable(format!("rank {n}"))),
        }
    }
    fn i64s(&mut self, n: usize) -> Result<Vec<i64>, Decoded> {
        (0..n).map(|_| self.i64()).collect()
    }

    fn solution(&mut self) -> Result<SolvedProblem, Decoded> {
        let direction = match self.u8()? {
            0 => Direction::Forward,
            1 => Direction::BackwardData,
            2 => Direction::BackwardWeights,
            d => return Err(invalid(format!("direction {d}"))),
        };
        let time_ms = f32::from_bits(self.u32()?);
        let benchmarking = match self.u8()? {
            0 => false,
            1 => true,
            b => return Err(invalid(format!("benchmarking {b}"))),
        };
        let limit = self.u64()?;
        let knobs = Knobs { benchmarking, workspace_limit: (limit != u64::MAX).then_some(limit) };
        let (mode, groups, deterministic, fp16_alt_impl) = (self.u32()?, self.i64()?, self.i32()?, self.i32()?);
        let n = self.rank()?;
        let (pads, strides, dilations) = (self.i64s(n)?, self.i64s(n)?, self.i64s(n)?);
        let conv = ConvParams { mode, pads, strides, dilations, groups, deterministic, fp16_alt_impl };
        let mut tensor = || -> Result<Tensor, Decoded> {
            let dtype = self.u32()?;
            let n = self.rank()?;
            Ok(Tensor { dtype, dims: self.i64s(n)?, strides: self.i64s(n)? })
        };
        let (x, w, y) = (tensor()?, tensor()?, tensor()?);
        Ok(SolvedProblem { problem: Problem { direction, x, w, y, conv }, time_ms, knobs })
    }
}

#[cfg(test)]
mod tests;
