//! Descriptor generations: how a forwarded call knows, without reading a
//! descriptor again, that it has not changed since the call that read it.
//!
//! Every change a caller can make to a watched descriptor (the tensor
//! descriptor, or a type a group's row adds: `table::watched_descriptors()`) goes
//! through an entry point of `libMIOpen.so` that takes it or creates it;
//! `miopen-wrap generate` finds those entry points from the header's types
//! (every one outside the forwarding table: `const` on a handle typedef says
//! nothing, MIOpen's activation setter is declared with it) and their routed
//! bodies call [`changed`] after MIOpen Private's call, which advances the
//! descriptor's generation. A call that
//! reads a descriptor takes its generation *before* reading; when a later
//! call sees the same generation, nothing was written to the descriptor in
//! between (a write always ends with an advance that the reader would see).
//!
//! Generations live in a fixed table of atomic counters indexed by a hash of
//! the descriptor's address: two descriptors that share a counter only make
//! each other look changed (a read that was not needed), never unchanged.
//! Counters are 64-bit and only grow. No lock is taken.
//! `docs/forwarding.md` ("Descriptor generations") says what this cannot see.

use std::sync::atomic::{AtomicU64, Ordering};

use miopen_forwarding_core::status::miopen;

const SLOTS: usize = 1 << 12;

static GENERATIONS: [AtomicU64; SLOTS] = [const { AtomicU64::new(0) }; SLOTS];

fn slot(descriptor: usize) -> &'static AtomicU64 {
    // Heap addresses: the low 4 bits are alignment; fold the rest in.
    let h = (descriptor >> 4) ^ (descriptor >> 16) ^ (descriptor >> 28);
    &GENERATIONS[h & (SLOTS - 1)]
}

/// A descriptor's generation as it was taken, with the counter it was taken
/// from: whether the descriptor is unchanged since is then one load, without
/// hashing its address again.
#[derive(Clone, Copy)]
pub struct Watch {
    counter: &'static AtomicU64,
    taken: u64,
}

impl Watch {
    /// The descriptor's current generation, taken before reading it.
    pub fn take(descriptor: usize) -> Watch {
        let counter = slot(descriptor);
        Watch { counter, taken: counter.load(Ordering::Acquire) }
    }

    /// Whether nothing was written to the descriptor since the generation was taken.
    pub fn unchanged(&self) -> bool {
        self.counter.load(Ordering::Acquire) == self.taken
    }
}

/// The generations of several descriptors, taken before reading them.
pub fn take_all<const N: usize>(descriptors: &[usize; N]) -> [Watch; N] {
    descriptors.map(Watch::take)
}

// Called only by the generated stubs (and the tests).
#[cfg_attr(not(miopen_wrap_stubs), allow(dead_code))]
fn advance(descriptor: usize) {
    slot(descriptor).fetch_add(1, Ordering::AcqRel);
}

/// Called by the generated routed body after MIOpen Private's call of an
/// entry point that may change watched descriptors: `values` were passed
/// by value (set, destroy: advanced whatever the status), `created` point
/// at out-parameters that a successful call filled with a new descriptor
/// (whose address may be a destroyed one's).
///
/// # Safety
/// Each non-null `created` pointer is the caller's out-parameter, readable
/// after a successful call.
#[cfg_attr(not(miopen_wrap_stubs), allow(dead_code))]
pub unsafe fn changed(status: u32, values: &[usize], created: &[*const usize]) {
    for &d in values {
        advance(d);
    }
    if status == miopen::SUCCESS {
        for &p in created.iter().filter(|p| !p.is_null()) {
            // SAFETY: a successful create wrote the descriptor there.
            advance(unsafe { p.read() });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_advances_only_what_changed() {
        let (a, b) = (0x5555_0000_1230usize, 0x7777_0040_9870usize);
        assert_ne!(slot(a) as *const _, slot(b) as *const _, "test addresses share a counter");
        let (ga, gb) = (Watch::take(a), Watch::take(b));
        unsafe { changed(miopen::SUCCESS, &[a], &[]) };
        assert!(!ga.unchanged());
        assert!(gb.unchanged());
        // A failed setter may still have written part of the descriptor.
        let ga = Watch::take(a);
        unsafe { changed(miopen::BAD_PARM, &[a], &[]) };
        assert!(!ga.unchanged());
    }

    #[test]
    fn a_create_advances_the_new_descriptor_only_when_it_succeeded() {
        let d = 0x6000_1234_5670usize;
        let out: usize = d;
        let g = Watch::take(d);
        unsafe { changed(miopen::BAD_PARM, &[], &[&out]) };
        assert!(g.unchanged(), "a failed create wrote nothing");
        unsafe { changed(miopen::SUCCESS, &[], &[&out, std::ptr::null()]) };
        assert!(!g.unchanged());
    }

    #[test]
    fn generations_of_many_are_taken_together() {
        let ds = [0x1000usize, 0x2000, 0x3000];
        let before = take_all(&ds);
        unsafe { changed(miopen::SUCCESS, &[0x2000], &[]) };
        assert_eq!(before.map(|w| w.unchanged()), [true, false, true]);
    }
}
