//! Structured values out of fuzz bytes: mostly the small numbers real
//! descriptors hold, sometimes the extremes that break arithmetic. An
//! exhausted input reads as zeros, so every input is some problem.

use miopen_forwarding_core::tensor::Tensor;

pub struct Input<'a> {
    data: &'a [u8],
}

/// Values arithmetic on sizes and offsets trips over.
const EXTREMES: [i64; 8] = [0, -1, i64::MAX, i64::MIN, 1 << 31, 1 << 32, i64::MAX / 2 + 1, 3_037_000_500];

impl<'a> Input<'a> {
    pub fn new(data: &'a [u8]) -> Self {
        Input { data }
    }

    pub fn byte(&mut self) -> u8 {
        let (&b, rest) = self.data.split_first().unwrap_or((&0, &[]));
        self.data = rest;
        b
    }

    pub fn bool(&mut self) -> bool {
        self.byte() & 1 == 1
    }

    pub fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }

    pub fn raw_i64(&mut self) -> i64 {
        i64::from_le_bytes(std::array::from_fn(|_| self.byte()))
    }

    /// A small value most of the time, an extreme or raw one otherwise.
    pub fn int(&mut self) -> i64 {
        match self.byte() {
            0..=191 => i64::from(self.byte() % 17),
            192..=239 => EXTREMES[usize::from(self.byte()) % EXTREMES.len()],
            _ => self.raw_i64(),
        }
    }

    /// One of `choices` most of the time, any u32 otherwise.
    pub fn pick(&mut self, choices: &[u32]) -> u32 {
        match self.byte() {
            0..=223 => choices[usize::from(self.byte()) % choices.len()],
            _ => self.u32(),
        }
    }

    pub fn f64(&mut self) -> f64 {
        match self.byte() % 4 {
            0 => f64::from(self.byte()) / 64.0,
            1 => {
                [0.0, -0.0, 1e-5, f64::NAN, f64::INFINITY, -1.0, f64::MIN_POSITIVE, 1e300][usize::from(self.byte() % 8)]
            }
            _ => f64::from_bits(self.raw_i64() as u64),
        }
    }

    pub fn ints(&mut self, n: usize) -> Vec<i64> {
        (0..n).map(|_| self.int()).collect()
    }

    /// A rank near `usual` (sometimes 0 or past any real one).
    pub fn rank(&mut self, usual: usize) -> usize {
        match self.byte() {
            0..=207 => usual,
            208..=231 => usual.saturating_sub(1),
            232..=247 => usual + 1,
            _ => usize::from(self.byte() % 9),
        }
    }

    /// A rank near `base` or `base + 1`.
    pub fn rank_from(&mut self, base: usize) -> usize {
        let usual = base + usize::from(self.byte() % 2);
        self.rank(usual)
    }

    /// Values as many as a rank near `usual`.
    pub fn ints_near(&mut self, usual: usize) -> Vec<i64> {
        let n = self.rank(usual);
        self.ints(n)
    }

    /// A tensor of a rank near `usual`.
    pub fn tensor_near(&mut self, usual: usize) -> Tensor {
        let rank = self.rank(usual);
        self.tensor(rank)
    }

    /// A tensor of `rank`: packed strides (saturating) most of the time,
    /// channels-last or arbitrary ones otherwise; a known data type mostly.
    pub fn tensor(&mut self, rank: usize) -> Tensor {
        let dtype = self.pick(&[1, 0, 5, 1, 2, 3, 6, 9]);
        let dims = self.ints(rank);
        let strides = match self.byte() % 4 {
            0 | 1 => packed(&dims),
            2 => channels_last(&dims),
            _ => self.ints_near(rank),
        };
        Tensor { dtype, dims, strides }
    }
}

fn packed(dims: &[i64]) -> Vec<i64> {
    let mut strides = vec![1i64; dims.len()];
    for i in (0..dims.len().saturating_sub(1)).rev() {
        strides[i] = strides[i + 1].saturating_mul(dims[i + 1]);
    }
    strides
}

fn channels_last(dims: &[i64]) -> Vec<i64> {
    if dims.len() < 3 {
        return packed(dims);
    }
    // N, C, spatial... laid out N, spatial..., C.
    let mut order: Vec<usize> = vec![0];
    order.extend(2..dims.len());
    order.push(1);
    let mut strides = vec![1i64; dims.len()];
    let mut step = 1i64;
    for &axis in order.iter().rev() {
        strides[axis] = step;
        step = step.saturating_mul(dims[axis]);
    }
    strides
}
