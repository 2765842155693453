//! Every field of a decoded solution, checked before the wrapper uses it:
//! a problem that passes describes three non-overlapping tensors whose
//! extents are computed without overflow and fit in an address space, and a
//! convolution whose output shape is the one y has. A run of such a
//! problem touches only the bytes its tensors describe (the engine's
//! indices are products of these dims and strides).

use crate::ops::conv::{self, Problem, MAX_SPATIAL};
use crate::tensor::{ElemType, Tensor};

/// The most values a rank byte may announce (a tensor's rank is at most
/// `MAX_SPATIAL + 2`); bounds what is read before anything is checked.
pub const MAX_RANK: u8 = 8;

type Checked = Result<(), String>;

pub fn problem(p: &Problem) -> Checked {
    let c = &p.conv;
    let n = c.pads.len();
    if n == 0 || n > MAX_SPATIAL {
        return Err(format!("{n} spatial dimensions"));
    }
    if c.pads.iter().any(|&v| v < 0) || c.strides.iter().chain(&c.dilations).any(|&v| v < 1) || c.groups < 1 {
        return Err("a negative padding, or a stride, dilation or group count below 1".into());
    }
    for (name, t) in [("x", &p.x), ("w", &p.w), ("y", &p.y)] {
        if t.dims.len() != n + 2 {
            return Err(format!("{name} has rank {} for a {n}-D convolution", t.dims.len()));
        }
        tensor(t).map_err(|why| format!("{name}: {why}"))?;
    }
    channels(p)?;
    output(p)
}

/// Bytes from the first to one past the last element, or why not.
pub fn extent_bytes(t: &Tensor) -> Result<u64, String> {
    let size = match ElemType::from_miopen(t.dtype) {
        Some(ElemType::F32) => 4u64,
        Some(ElemType::F16 | ElemType::BF16) => 2,
        None => return Err(format!("data type {}", t.dtype)),
    };
    let mut last = 0i64;
    for (&d, &s) in t.dims.iter().zip(&t.strides) {
        let step = (d - 1).checked_mul(s).ok_or("an offset overflows")?;
        last = last.checked_add(step).ok_or("an offset overflows")?;
    }
    let elements = (last as u64).checked_add(1).ok_or("an offset overflows")?;
    let bytes = elements.checked_mul(size).ok_or("its size overflows")?;
    if bytes > isize::MAX as u64 {
        return Err(format!("{bytes} bytes (more than an address space)"));
    }
    Ok(bytes)
}

fn tensor(t: &Tensor) -> Checked {
    if t.strides.len() != t.dims.len() {
        return Err("dims and strides differ in count".into());
    }
    if t.dims.iter().any(|&d| d < 1) || t.strides.iter().any(|&s| s < 1) {
        return Err("a length or stride below 1".into());
    }
    extent_bytes(t)?;
    // No two elements at one offset: taken by increasing stride, each
    // dimension steps past everything the smaller ones reach.
    let mut axes: Vec<(i64, i64)> = t.strides.iter().copied().zip(t.dims.iter().copied()).filter(|a| a.1 > 1).collect();
    axes.sort_unstable();
    let mut reach = 1i64;
    for (s, d) in axes {
        if s < reach {
            return Err("overlapping strides".into());
        }
        // Cannot overflow: extent_bytes bounded the sum of these terms.
        reach += (d - 1) * s;
    }
    Ok(())
}

fn channels(p: &Problem) -> Checked {
    let g = p.conv.groups;
    let (n, c, k) = (p.x.dims[0], p.x.dims[1], p.w.dims[0]);
    if p.w.dims[1].checked_mul(g) != Some(c) || k % g != 0 {
        return Err(format!("channels do not match groups (x.C={c}, w=[{k}, {}], groups={g})", p.w.dims[1]));
    }
    if p.y.dims[0] != n || p.y.dims[1] != k {
        return Err("y's N or C does not match x and w".into());
    }
    Ok(())
}

fn output(p: &Problem) -> Checked {
    let c = &p.conv;
    for i in 0..c.pads.len() {
        let out = conv::output_len(p.x.dims[i + 2], p.w.dims[i + 2], c.pads[i], c.strides[i], c.dilations[i]);
        let Some(out) = out else {
            return Err(format!("spatial dimension {i} overflows"));
        };
        if out != p.y.dims[i + 2] {
            return Err(format!("y's spatial dimension {i} is {} but the convolution gives {out}", p.y.dims[i + 2]));
        }
    }
    Ok(())
}
