//! The version gate: which versions `hipdnnVersionString_ext` may report for
//! the wrapper to use the backend.
//!
//! hipDNN's backend reports `MAJOR.MINOR.PATCH` from its `version.json`
//! followed by `.<git short hash>` (or `.unknown` when built without git);
//! older builds report the three numbers alone. hipDNN is pre-1.0, so a
//! major alone does not pin the ABI: the gate accepts exactly the releases
//! the pinned subset ([`crate::abi`], [`crate::api`]) was checked against,
//! [`VERIFIED`], each with its evidence. What the version string cannot tell
//! apart (revisions of one release that numbered descriptors differently)
//! is probed at load ([`crate::probe`]). `docs/hipdnn-compatibility.md`
//! carries the same table with the sources of each row.

use std::fmt;
use std::ops::RangeInclusive;

/// A reported version: three decimal fields and an optional fourth of any
/// text (the git hash, or `unknown`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Version {
    pub major: u32,
    pub minor: u32,
    pub patch: u32,
    /// The text after the third dot, if any.
    pub tweak: Option<String>,
}

impl Version {
    /// `MAJOR.MINOR.PATCH` or `MAJOR.MINOR.PATCH.<text>`; the three numbers
    /// are plain decimal (no sign, no space), the text is non-empty. Anything
    /// else is `None`, so an unexpected format is never taken for a
    /// compatible backend.
    pub fn parse(reported: &str) -> Option<Version> {
        let mut fields = reported.splitn(4, '.');
        let mut number = || -> Option<u32> {
            let f = fields.next()?;
            if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            f.parse().ok()
        };
        let (major, minor, patch) = (number()?, number()?, number()?);
        let tweak = match fields.next() {
            None => None,
            Some(t) if !t.is_empty() && !t.chars().any(char::is_control) => Some(t.to_string()),
            Some(_) => return None,
        };
        Some(Version { major, minor, patch, tweak })
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)?;
        match &self.tweak {
            Some(t) => write!(f, ".{t}"),
            None => Ok(()),
        }
    }
}

/// Releases the pinned ABI subset is verified against: one major and a range
/// of its minors (any patch, any tweak).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verified {
    pub major: u32,
    pub minors: RangeInclusive<u32>,
    /// Where the evidence for the row is written down.
    pub evidence: &'static str,
}

impl Verified {
    pub fn admits(&self, v: &Version) -> bool {
        v.major == self.major && self.minors.contains(&v.minor)
    }
}

impl fmt::Display for Verified {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.minors.start(), self.minors.end()) {
            (0, &u32::MAX) => write!(f, "{}.x", self.major),
            (a, b) if a == b => write!(f, "{}.{a}.x", self.major),
            (a, &u32::MAX) => write!(f, "{}.{a}.x or a later {}.x", self.major, self.major),
            (a, b) => write!(f, "{}.{a}.x to {}.{b}.x", self.major, self.major),
        }
    }
}

/// The accepted releases (docs/hipdnn-compatibility.md, "Versions").
pub const VERIFIED: &[Verified] = &[
    // Every 0.x release hipDNN's backend has reported (0.0.1, 0.2.0, 0.3.0,
    // 0.4.0). The subset `abi` pins is what these revisions use, but one
    // release spans revisions with another descriptor numbering and
    // CONV_MODE type (0.0.1 has both): the probe decides those.
    Verified { major: 0, minors: 0..=4, evidence: "docs/hipdnn-compatibility.md, Versions" },
    // RFC §4.9 pins the 1.x base API.
    Verified { major: 1, minors: 0..=u32::MAX, evidence: "RFC §4.9: the 1.x base API" },
];

/// Whether `v` is a release of [`VERIFIED`].
pub fn is_verified(v: &Version) -> bool {
    VERIFIED.iter().any(|r| r.admits(v))
}

/// The accepted releases as one phrase, for diagnostics.
pub fn accepted() -> String {
    VERIFIED.iter().map(Verified::to_string).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests;
