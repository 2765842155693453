//! A thread's memory of what its calls' descriptors translated to: keyed
//! by the MIOpen handle, a group's tag (direction, which optional arguments
//! are present) and the descriptors' addresses, valid while every
//! descriptor's generation ([`super::generations`]) is the one taken before
//! it was read. A repeat call with unchanged descriptors gets its answer
//! (the plan key, or the decline) without reading any descriptor.
//!
//! Direct-mapped: an entry displaced by another key only costs the next
//! call a read, as before there was a memo. An answer outlives
//! `miopenDestroy` of its handle harmlessly: a translation does not depend
//! on the handle's state, and the plan it keys is looked up (and rebuilt
//! after a destroy) as always.

use super::generations::{self, Watch};

const WAYS: usize = 64;

struct Entry<const N: usize, A> {
    handle: usize,
    tag: u32,
    descriptors: [usize; N],
    generations: [Watch; N],
    answer: A,
}

/// What `N` descriptors translated to, per thread (in a `thread_local`).
pub struct DescriptorMemo<const N: usize, A> {
    entries: Vec<Option<Entry<N, A>>>,
}

impl<const N: usize, A> Default for DescriptorMemo<N, A> {
    fn default() -> Self {
        DescriptorMemo { entries: (0..WAYS).map(|_| None).collect() }
    }
}

/// A call's handle, tag and descriptors: what its answer is looked up by.
/// A hit compares the generations the entry took (each one load); a miss
/// takes them ([`Seen::take`]) before reading any descriptor.
pub struct Seen<const N: usize> {
    handle: usize,
    tag: u32,
    descriptors: [usize; N],
    way: usize,
}

/// A [`Seen`] with its descriptors' generations taken: what an answer read
/// after it is remembered with.
pub struct Taken<const N: usize> {
    seen: Seen<N>,
    generations: [Watch; N],
}

impl<const N: usize> Seen<N> {
    pub fn now(handle: usize, tag: u32, descriptors: [usize; N]) -> Seen<N> {
        let mut h = handle ^ (tag as usize).rotate_left(17);
        for d in descriptors {
            h = (h ^ (d >> 4)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        }
        let way = (h >> 32) % WAYS;
        Seen { handle, tag, descriptors, way }
    }

    /// The descriptors' generations, taken now: before they are read.
    pub fn take(self) -> Taken<N> {
        let generations = generations::take_all(&self.descriptors);
        Taken { seen: self, generations }
    }
}

impl<const N: usize, A> DescriptorMemo<N, A> {
    /// The answer remembered for these descriptors, if none changed since.
    pub fn get(&self, s: &Seen<N>) -> Option<&A> {
        let e = self.entries[s.way].as_ref()?;
        (e.handle == s.handle
            && e.tag == s.tag
            && e.descriptors == s.descriptors
            && e.generations.iter().all(Watch::unchanged))
        .then_some(&e.answer)
    }

    /// Remember the answer of descriptors read after their generations were taken.
    pub fn put(&mut self, t: Taken<N>, answer: A) {
        let Taken { seen: Seen { handle, tag, descriptors, way }, generations } = t;
        self.entries[way] = Some(Entry { handle, tag, descriptors, generations, answer });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use miopen_forwarding_core::status::miopen;

    fn change(d: usize) {
        unsafe { generations::changed(miopen::SUCCESS, &[d], &[]) };
    }

    #[test]
    fn an_unchanged_repeat_is_answered_and_a_change_is_not() {
        let mut m: DescriptorMemo<2, &str> = DescriptorMemo::default();
        let (h, x, w) = (0x10usize, 0x9990_0010usize, 0x9990_0050usize);
        assert!(m.get(&Seen::now(h, 0, [x, w])).is_none());
        m.put(Seen::now(h, 0, [x, w]).take(), "key");
        assert_eq!(m.get(&Seen::now(h, 0, [x, w])), Some(&"key"));
        // Another handle, tag or descriptor order is another key.
        assert!(m.get(&Seen::now(h + 1, 0, [x, w])).is_none());
        assert!(m.get(&Seen::now(h, 1, [x, w])).is_none());
        assert!(m.get(&Seen::now(h, 0, [w, x])).is_none());
        change(w);
        assert!(m.get(&Seen::now(h, 0, [x, w])).is_none(), "w changed");
    }

    #[test]
    fn a_change_between_taking_generations_and_putting_is_not_remembered_as_current() {
        let mut m: DescriptorMemo<1, u32> = DescriptorMemo::default();
        let d = 0x4440_0100usize;
        let taken = Seen::now(1, 0, [d]).take();
        // Another thread's setter runs while this call reads `d`.
        change(d);
        m.put(taken, 7);
        assert!(m.get(&Seen::now(1, 0, [d])).is_none());
    }
}
