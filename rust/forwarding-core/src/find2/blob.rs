//! The bytes `miopenSaveSolution` writes for a hipDNN solution, and their
//! reading back by `miopenLoadSolution`.
//!
//! MIOpen's own blobs start with its validation number (a MessagePack map
//! header in MIOpen, the same number little-endian in the test bed); a
//! hipDNN solution's start with [`MAGIC`], which neither can be, so the
//! wrapper tells the two apart from the first bytes and MIOpen Private
//! rejects a hipDNN blob with its own status (`docs/forwarding.md`, "Find
//! 2.0"). After the magic, little-endian: format version (u32), direction
//! (u8), time (f32 bits), workspace (u64), the convolution (mode u32,
//! groups i64, deterministic i32, fp16-alt i32, rank u8, pads, strides,
//! dilations as i64), then x, w, y (type u32, rank u8, dims, strides as i64).

use crate::conv::{ConvParams, Direction, Problem};
use crate::status::miopen;
use crate::tensor::Tensor;

use super::SolvedProblem;

pub const MAGIC: &[u8; 16] = b"hipDNN-solution\0";
pub const VERSION: u32 = 1;
/// Ranks above this are not a solution the wrapper wrote.
const MAX_RANK: u8 = 8;

/// What a blob is to the wrapper.
#[derive(Debug, PartialEq)]
pub enum Decoded {
    /// Not a hipDNN solution: MIOpen Private's to load.
    NotOurs,
    Solution(Box<SolvedProblem>),
    /// A hipDNN solution that cannot be read: the status MIOpen gives a
    /// blob of another format version, or one it cannot parse.
    Rejected {
        status: u32,
        why: String,
    },
}

pub fn encode(s: &SolvedProblem) -> Vec<u8> {
    let mut out = Vec::with_capacity(160);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    let p = &s.problem;
    out.push(p.direction as u8);
    out.extend_from_slice(&s.time_ms.to_bits().to_le_bytes());
    out.extend_from_slice(&(s.workspace as u64).to_le_bytes());
    let c = &p.conv;
    out.extend_from_slice(&c.mode.to_le_bytes());
    out.extend_from_slice(&c.groups.to_le_bytes());
    out.extend_from_slice(&c.deterministic.to_le_bytes());
    out.extend_from_slice(&c.fp16_alt_impl.to_le_bytes());
    out.push(c.pads.len() as u8);
    for v in c.pads.iter().chain(&c.strides).chain(&c.dilations) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for t in [&p.x, &p.w, &p.y] {
        out.extend_from_slice(&t.dtype.to_le_bytes());
        out.push(t.dims.len() as u8);
        for v in t.dims.iter().chain(&t.strides) {
            out.extend_from_slice(&v.to_le_bytes());
        }
    }
    out
}

/// `data` as [`encode`] wrote it (a blob of any other start is not ours).
pub fn decode(data: &[u8]) -> Decoded {
    if !data.starts_with(MAGIC) {
        return Decoded::NotOurs;
    }
    let mut r = Reader { data, at: MAGIC.len() };
    match r.solution() {
        Ok(s) if r.at == data.len() => Decoded::Solution(Box::new(s)),
        Ok(_) => malformed("trailing bytes"),
        Err(e) => e,
    }
}

fn malformed(what: &str) -> Decoded {
    // MIOpen's parser fails a malformed blob with a std::exception: unknown error.
    Decoded::Rejected { status: miopen::UNKNOWN_ERROR, why: format!("malformed hipDNN solution blob: {what}") }
}

struct Reader<'a> {
    data: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], Decoded> {
        let bytes = self.data.get(self.at..self.at + N).ok_or_else(|| malformed("truncated"))?;
        self.at += N;
        Ok(bytes.try_into().expect("N bytes"))
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
    fn rank(&mut self) -> Result<usize, Decoded> {
        match self.u8()? {
            n @ 1..=MAX_RANK => Ok(usize::from(n)),
            n => Err(malformed(&format!("rank {n}"))),
        }
    }
    fn i64s(&mut self, n: usize) -> Result<Vec<i64>, Decoded> {
        (0..n).map(|_| self.i64()).collect()
    }

    fn solution(&mut self) -> Result<SolvedProblem, Decoded> {
        let version = self.u32()?;
        if version != VERSION {
            return Err(Decoded::Rejected {
                status: miopen::VERSION_MISMATCH,
                why: format!("hipDNN solution blob of format version {version} (this wrapper reads {VERSION})"),
            });
        }
        let direction = match self.u8()? {
            0 => Direction::Forward,
            1 => Direction::BackwardData,
            2 => Direction::BackwardWeights,
            d => return Err(malformed(&format!("direction {d}"))),
        };
        let time_ms = f32::from_bits(self.u32()?);
        let workspace = usize::try_from(self.i64()? as u64).map_err(|_| malformed("workspace"))?;
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
        Ok(SolvedProblem { problem: Problem { direction, x, w, y, conv }, time_ms, workspace })
    }
}
