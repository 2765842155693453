//! What a family group's data row holds: the types of [`GroupRow`] and of
//! its items. Each group defines its row in its own folder
//! (`crate::<group>::group::ROW`); `crate::GROUPS` is the one list of them,
//! and the generic modules (`family`, `table`, `mirrors`, `environment`)
//! iterate it. This module knows no group and uses no other module, so a
//! group's row depends on nothing but it.

/// One family group: everything generic code needs to know about it.
#[derive(Debug, Clone, Copy)]
pub struct GroupRow {
    /// Its name in `MIOPEN_DISABLE_HIPDNN_FOR` (all of its families) and in
    /// a build's forwarding set (`MIOPEN_HIPDNN_FORWARD_GROUPS`).
    pub name: &'static str,
    /// The wrapper's module that forwards it: `crate::forward::<module>`,
    /// whose `entry::<entry point>` the generated routed body calls, and
    /// whose `hooks::<entry point>` its hooks are.
    pub module: &'static str,
    /// The group whose name in `MIOPEN_DISABLE_HIPDNN_FOR` also switches this
    /// one off, and whose MIOpen variables concern it too: another API of
    /// the same op names the op's group; a group of its own op names itself.
    pub umbrella: &'static str,
    /// In the forwarding set of a build that names none.
    pub default_build: bool,
    /// Its op families' names (`MIOPEN_DISABLE_HIPDNN_FOR`, the routing trace).
    pub families: &'static [&'static str],
    /// Its forwarded entry points, each with its family (one of `families`).
    pub entry_points: &'static [Entry],
    /// Entry points it observes while forwarding is enabled (the call itself
    /// always runs on MIOpen Private).
    pub hooks: &'static [(&'static str, Hook)],
    /// MIOpen Private entry points its handlers call (as `_impl`) beyond
    /// those every group shares (`crate::table::SHARED_PRIVATE_CALLS`).
    pub private_calls: &'static [&'static str],
    /// Descriptor types its handlers read and remember between calls
    /// beyond the shared ones (`crate::table::SHARED_WATCHED_DESCRIPTORS`).
    pub watched_descriptors: &'static [&'static str],
    /// The MIOpen enumerators its model uses by number.
    pub mirrored: &'static [Mirrored],
    /// MIOpen's variables whose meaning concerns its families.
    pub variables: &'static [Variable],
}

impl GroupRow {
    /// A group of its own op (its own umbrella), outside the default build
    /// set, with nothing listed: rows start from it (`..GroupRow::new(..)`).
    pub const fn new(name: &'static str, module: &'static str) -> GroupRow {
        GroupRow {
            name,
            module,
            umbrella: name,
            default_build: false,
            families: &[],
            entry_points: &[],
            hooks: &[],
            private_calls: &[],
            watched_descriptors: &[],
            mirrored: &[],
            variables: &[],
        }
    }
}

/// One forwarded entry point of a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    pub entry_point: &'static str,
    /// The name of its family (one of the group's).
    pub family: &'static str,
    /// A MIOpen header may lack it (added after a release the wrapper
    /// supports; no handler calls it through its `_impl`): a header without
    /// it still gets the forwarding handlers, and the entry point no stub.
    pub optional: bool,
    /// Forwarded as this other entry point of the group, whose arguments are
    /// its own (MIOpen's older form of a call): each of the other's
    /// parameters is its parameter of the same name, and those it lacks are
    /// its one parameter the other lacks (a legacy call that passes one
    /// descriptor where its `_V2` passes four). `miopen-wrap generate`
    /// writes the conversion; the group has no entry function for it.
    pub forwarded_as: Option<&'static str>,
}

impl Entry {
    pub const fn new(entry_point: &'static str, family: &'static str) -> Entry {
        Entry { entry_point, family, optional: false, forwarded_as: None }
    }

    pub const fn optional(entry_point: &'static str, family: &'static str) -> Entry {
        Entry { optional: true, ..Entry::new(entry_point, family) }
    }

    /// [`Entry::forwarded_as`] `other`.
    pub const fn forwarded_as(self, other: &'static str) -> Entry {
        Entry { forwarded_as: Some(other), ..self }
    }
}

/// What an observed entry point's hook is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hook {
    /// What it does, as `miopen-wrap facts` names it.
    pub kind: &'static str,
    /// It sees the call's result (and may replace it), rather than running
    /// before the call.
    pub after: bool,
}

/// One MIOpen enumerator: its name in `miopen.h` and the value the model
/// assumes. `miopen-wrap generate` asserts each against the header being
/// built.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mirrored {
    pub name: &'static str,
    pub value: u32,
    /// Present in every MIOpen this wrapper supports. An optional one may be
    /// absent from an older header; the value then means nothing to that
    /// MIOpen, which rejects it before a getter could report it.
    pub required: bool,
}

impl Mirrored {
    pub const fn required(name: &'static str, value: u32) -> Mirrored {
        Mirrored { name, value, required: true }
    }

    pub const fn optional(name: &'static str, value: u32) -> Mirrored {
        Mirrored { name, value, required: false }
    }
}

/// What forwarding does about one set MIOpen variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Treatment {
    /// The families it concerns stay on MIOpen Private while it is set.
    Decline,
    /// Forwarding goes on and loses part of what the variable asks for: one
    /// warning at initialisation says what, and how to silence it.
    Warn(Silence),
    /// Forwarding goes on and loses nothing of it: nothing is printed.
    Kept,
    /// It switches off one of MIOpen's fused solvers: the fusion plans of
    /// that kind (the name its group's fused graph gives them) stay on
    /// MIOpen Private while it is set, so the plan fails to compile as it
    /// does on MIOpen; the group's plain calls are not concerned.
    DeclinePlan(&'static str),
    /// The families of the group named (not the row's own) stay on MIOpen
    /// Private while it is set: a variable of the row's op that MIOpen also
    /// reads on that group's calls (a fused solver's switch, read on every
    /// fusion plan's compile). Its audited scope is that group.
    DeclineGroup(&'static str),
}

/// How a warning about a variable is silenced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Silence {
    /// A variable that, switched on, gives back what is lost (no warning then).
    pub by: Option<&'static str>,
    /// What the warning tells the user to do (after "to silence this, ").
    pub how: &'static str,
}

/// One audited MIOpen variable (or a family of them, by prefix).
#[derive(Debug, Clone, Copy)]
pub struct Variable {
    /// The name, or a prefix when it ends in `_`.
    pub name: &'static str,
    /// Whether a value takes this treatment (others: nothing to do).
    pub applies: fn(&str) -> bool,
    pub treatment: Treatment,
    /// Why, as the trace or the warning says it.
    pub why: &'static str,
}

/// MIOpen's spellings of a boolean switch on and off, compared lowercased
/// (`src/include/miopen/env.hpp` @ 2d1fd997: `1` / `0` first, then its words).
const SWITCH_ON: [&str; 6] = ["1", "enable", "enabled", "yes", "on", "true"];
const SWITCH_OFF: [&str; 6] = ["0", "disable", "disabled", "no", "off", "false"];

/// A boolean in MIOpen's spelling that is on: a row's `applies` for a
/// switch whose on value matters.
pub fn switched_on(v: &str) -> bool {
    SWITCH_ON.contains(&v.trim().to_ascii_lowercase().as_str())
}

/// Any value of one of MIOpen's boolean switches but on: off, or a spelling
/// MIOpen refuses at the call (it throws InvalidValue for an unknown one:
/// `src/include/miopen/env.hpp` @ 2d1fd997). On is such a switch's default.
/// Here, in the leaf module that defines [`Variable`], so that a group's row
/// can use it without depending on `environment` (which depends on every
/// group through `family`).
pub fn not_switched_on(v: &str) -> bool {
    !switched_on(v)
}

/// A value of one of MIOpen's boolean switches that MIOpen refuses: not
/// `0` or `1`, nor (case-insensitive, untrimmed) one of its words for off
/// or on. MIOpen's `EnvVar<bool>` throws `miopenStatusInvalidValue` for it
/// wherever the switch is read (`src/include/miopen/env.hpp` @ 2d1fd997).
pub fn refused_spelling(v: &str) -> bool {
    let v = v.to_ascii_lowercase();
    !SWITCH_ON.contains(&v.as_str()) && !SWITCH_OFF.contains(&v.as_str())
}

/// `a == b`, usable in `const` items (the registry's checks run when the
/// crate compiles).
pub const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
