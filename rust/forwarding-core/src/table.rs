//! The forwarding table: which entry points can go to hipDNN and which op
//! family each belongs to, from the groups' rows (`<group>/group.rs`), and
//! what the wrapper observes, calls and exports around them.
//!
//! `miopen-wrap generate` reads this table: an entry point listed here gets a
//! routed body that calls `crate::forward::<group module>::entry::<name>` in
//! the wrapper; every other entry point's routed body calls MIOpen Private.
//! Adding an entry point to the forwarding set is one line in its group's
//! row plus its entry function.

pub use crate::family::{Family, Group};
use crate::groups::GROUPS;
use crate::row::{same, GroupRow, Hook};

/// One row of the forwarding table: an entry point and its family. The
/// family's group names the wrapper's module that forwards it
/// (`crate::forward::<group module>::entry::<entry point>`, which
/// `miopen-wrap generate` calls from the routed body).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Forwarded {
    pub entry_point: &'static str,
    pub family: Family,
    /// A MIOpen header may lack it (`crate::row::Entry::optional`).
    pub optional: bool,
    /// Forwarded as this entry point (`crate::row::Entry::forwarded_as`).
    pub forwarded_as: Option<&'static str>,
}

impl Forwarded {
    /// The entry point whose entry function runs the call: its own, or the
    /// one it is forwarded as.
    pub fn entry_function(&self) -> &'static str {
        self.forwarded_as.unwrap_or(self.entry_point)
    }
}

const ENTRY_COUNT: usize = {
    let (mut n, mut g) = (0, 0);
    while g < GROUPS.len() {
        n += GROUPS[g].entry_points.len();
        g += 1;
    }
    n
};

/// The forwarding set (RFC §4.4): every group's entry points, in registry order.
pub const FORWARDING_TABLE: [Forwarded; ENTRY_COUNT] = {
    let blank = Forwarded {
        entry_point: "",
        family: Family::named(GROUPS[0].families[0]),
        optional: false,
        forwarded_as: None,
    };
    let mut rows = [blank; ENTRY_COUNT];
    let (mut g, mut i) = (0, 0);
    while g < GROUPS.len() {
        let row = GROUPS[g];
        let mut e = 0;
        while e < row.entry_points.len() {
            let entry = row.entry_points[e];
            let mut own = false;
            let mut f = 0;
            while f < row.families.len() {
                own |= same(row.families[f], entry.family);
                f += 1;
            }
            assert!(own, "an entry point's family is not one of its group's");
            if let Some(other) = entry.forwarded_as {
                assert!(forwards_itself(row, other), "an entry point is forwarded as no entry point of its group");
            }
            let family = Family::named(entry.family);
            let (optional, forwarded_as) = (entry.optional, entry.forwarded_as);
            rows[i] = Forwarded { entry_point: entry.entry_point, family, optional, forwarded_as };
            (e, i) = (e + 1, i + 1);
        }
        g += 1;
    }
    rows
};

/// Whether `entry_point` is an entry point of `row` that has an entry
/// function of its own (is not forwarded as another).
const fn forwards_itself(row: &GroupRow, entry_point: &str) -> bool {
    let mut e = 0;
    while e < row.entry_points.len() {
        if same(row.entry_points[e].entry_point, entry_point) {
            return row.entry_points[e].forwarded_as.is_none();
        }
        e += 1;
    }
    false
}

/// `miopenDestroy`: release the handle's hipDNN handle and cached plans
/// (every group's) before MIOpen Private destroys it.
pub const RELEASE_HANDLE: Hook = Hook { kind: "release-handle", after: false };
/// `miopenGetErrorString`: MIOpen's text, prefixed `[hipDNN-forwarded] `
/// when the status came from a forwarded call on this thread (RFC §6.1).
pub const ERROR_STRING: Hook = Hook { kind: "error-string", after: true };

/// `miopenSetAllocator`: the handle's allocator, after MIOpen accepted it,
/// for the workspace the wrapper obtains for hipDNN plans MIOpen's API
/// passes none to (as MIOpen's for its own buffers).
pub const RECORD_ALLOCATOR: Hook = Hook { kind: "record-allocator", after: true };

/// The wrapper's own hooks (`crate::forward::hooks` in the wrapper), which
/// serve every group.
pub const SHARED_HOOKS: &[(&str, Hook)] = &[
    ("miopenDestroy", RELEASE_HANDLE),
    ("miopenGetErrorString", ERROR_STRING),
    ("miopenSetAllocator", RECORD_ALLOCATOR),
];

/// An entry point observed (never forwarded) while forwarding is enabled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hooked {
    pub entry_point: &'static str,
    pub hook: Hook,
    /// The group whose module has the hook (`crate::forward::<module>::hooks`),
    /// or `None` for the wrapper's own (`crate::forward::hooks`).
    pub group: Option<Group>,
}

/// Every hooked entry point: the wrapper's own, then each group's.
pub fn hooks() -> impl Iterator<Item = Hooked> {
    let shared = SHARED_HOOKS.iter().map(|&(entry_point, hook)| Hooked { entry_point, hook, group: None });
    let groups = Group::all().flat_map(|g| {
        g.row().hooks.iter().map(move |&(entry_point, hook)| Hooked { entry_point, hook, group: Some(g) })
    });
    shared.chain(groups)
}

/// Exports of `libMIOpen.so` that MIOpen does not have: the wrapper's own
/// API (declared in `include/miopen/hipdnn_forwarding.h`). The release gates
/// accept exactly these as additions.
pub const WRAPPER_ADDITIONS: &[&str] = &["miopenGetLastForwardedError"];

/// MIOpen Private entry points every group's handlers may call (as
/// `_impl`): the error text, the stream, and the tensor getters.
pub const SHARED_PRIVATE_CALLS: &[&str] =
    &["miopenGetErrorString", "miopenGetStream", "miopenGetTensorDescriptorSize", "miopenGetTensorDescriptor"];

/// MIOpen Private entry points the forwarding handlers call (as `_impl`):
/// the shared ones and each group's (descriptor getters, the
/// side-effect-free queries a forwarded problem reports alongside its plan).
/// The handlers' bindings are these, the forwarded entry points, and the
/// survivors they call, which no public header declares
/// (`src_patches/survivor-calls.json`).
pub fn private_calls() -> Vec<&'static str> {
    let groups = Group::all().flat_map(|g| g.row().private_calls.iter().copied());
    SHARED_PRIVATE_CALLS.iter().copied().chain(groups).collect()
}

/// The descriptor type every group reads.
pub const SHARED_WATCHED_DESCRIPTORS: &[&str] = &["miopenTensorDescriptor_t"];

/// The descriptor types whose contents the forwarding handlers read and
/// remember between calls (`docs/forwarding.md`, "Descriptor generations"):
/// the shared ones and each group's. Every entry point outside the
/// forwarding table that takes one (by value, `const` or not: a setter, a
/// destroy, anything that could write through the handle) or creates one
/// (`T*`) reports the descriptor to the wrapper after MIOpen Private's call,
/// so a forwarded call knows whether a descriptor it read before may have
/// changed. `miopen-wrap generate` finds those entry points from the
/// header's types.
pub fn watched_descriptors() -> Vec<&'static str> {
    let groups = Group::all().flat_map(|g| g.row().watched_descriptors.iter().copied());
    SHARED_WATCHED_DESCRIPTORS.iter().copied().chain(groups).collect()
}

/// The table row of an entry point, if it is in the forwarding set.
pub fn lookup(entry_point: &str) -> Option<&'static Forwarded> {
    FORWARDING_TABLE.iter().find(|f| f.entry_point == entry_point)
}

/// The hook of an entry point, if any.
pub fn hook(entry_point: &str) -> Option<Hooked> {
    hooks().find(|h| h.entry_point == entry_point)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_point_once_and_every_family_has_one() {
        let mut names: Vec<_> = FORWARDING_TABLE.iter().map(|f| f.entry_point).collect();
        names.extend(hooks().map(|h| h.entry_point));
        names.extend(WRAPPER_ADDITIONS);
        let all = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), all, "an entry point is listed twice (table, hooks, additions)");
        for f in Family::all() {
            assert!(FORWARDING_TABLE.iter().any(|r| r.family == f), "{f} has no entry point");
        }
    }

    #[test]
    fn the_table_is_the_rows_in_registry_order() {
        let listed: Vec<(&str, &str, bool)> = Group::all()
            .flat_map(|g| g.row().entry_points.iter().map(|e| (e.entry_point, e.family, e.optional)))
            .collect();
        let flat: Vec<(&str, &str, bool)> =
            FORWARDING_TABLE.iter().map(|r| (r.entry_point, r.family.name(), r.optional)).collect();
        assert_eq!(flat, listed);
        for r in &FORWARDING_TABLE {
            let row = r.family.group().row();
            assert!(row.entry_points.iter().any(|e| e.entry_point == r.entry_point), "{}", r.entry_point);
        }
    }

    #[test]
    fn lookups() {
        let first = &FORWARDING_TABLE[0];
        assert_eq!(lookup(first.entry_point), Some(first));
        assert!(lookup("miopenCreate").is_none());
        assert_eq!(hook("miopenDestroy").map(|h| (h.hook, h.group)), Some((RELEASE_HANDLE, None)));
        assert!(hook("miopenGetErrorString").is_some_and(|h| h.hook.after));
        assert!(WRAPPER_ADDITIONS.iter().all(|a| lookup(a).is_none() && hook(a).is_none()));
        for g in Group::all() {
            for (name, h) in g.row().hooks {
                assert_eq!(hook(name), Some(Hooked { entry_point: name, hook: *h, group: Some(g) }));
            }
        }
    }

    #[test]
    fn shared_lists_come_first_and_each_name_once() {
        for (list, shared) in
            [(private_calls(), SHARED_PRIVATE_CALLS), (watched_descriptors(), SHARED_WATCHED_DESCRIPTORS)]
        {
            assert!(list.starts_with(shared));
            let mut unique = list.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), list.len(), "{list:?}");
        }
    }
}
