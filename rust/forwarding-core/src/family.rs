//! Op families and their groups, as handles into the groups' rows
//! (`crate::groups::GROUPS`).
//!
//! A family is the unit `MIOPEN_DISABLE_HIPDNN_FOR` switches off, the
//! routing trace names, and the environment policy applies to. It belongs
//! to a [`Group`]: the name that switches off all of its families at once,
//! the folder of the wrapper that forwards it
//! (`rust/wrapper/src/forward/<module>`), and the scope of MIOpen's
//! variables that are about it (`crate::environment`). The families are the
//! rows' family lists, in registry order ([`FAMILIES`]); nothing here names one.

use std::fmt;

use crate::groups::GROUPS;
use crate::row::{same, GroupRow};

/// A family group: an index into `GROUPS`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Group(u8);

impl Group {
    /// How many groups there are.
    pub const COUNT: usize = GROUPS.len();

    /// Every group, in registry order.
    pub fn all() -> impl Iterator<Item = Group> + Clone {
        (0..Group::COUNT).map(|i| Group(i as u8))
    }

    /// Its position in the registry (and in [`Group::all`]).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub const fn row(self) -> &'static GroupRow {
        GROUPS[self.0 as usize]
    }

    /// The `MIOPEN_DISABLE_HIPDNN_FOR` name of every family of the group.
    pub const fn name(self) -> &'static str {
        self.row().name
    }

    /// The wrapper's module that forwards the group (`crate::forward::<module>`).
    pub const fn module(self) -> &'static str {
        self.row().module
    }

    /// The group of this name (a compile error in a `const` when there is none).
    pub const fn named(name: &str) -> Group {
        match find_group(GROUPS, name) {
            Some(i) => Group(i as u8),
            None => panic!("no family group has this name"),
        }
    }

    /// The handle of a registered group's row.
    pub const fn of(row: &GroupRow) -> Group {
        Group::named(row.name)
    }

    pub fn from_name(name: &str) -> Option<Group> {
        find_group(GROUPS, name).map(|i| Group(i as u8))
    }

    /// The group whose name in `MIOPEN_DISABLE_HIPDNN_FOR` also switches this
    /// group off: an operator who turns an op's group off expects every path
    /// of that op to stay on MIOpen, whichever MIOpen API it came through (a
    /// group of another API of the same op answers its op's group).
    pub const fn umbrella(self) -> Group {
        UMBRELLAS[self.0 as usize]
    }

    /// The groups a build forwards unless told otherwise (the rows'
    /// `default_build`).
    pub fn default_build_set() -> Vec<Group> {
        Group::all().filter(|g| g.row().default_build).collect()
    }

    /// A build's forwarding set as the build spells it (`MIOPEN_HIPDNN_FORWARD_GROUPS`,
    /// `miopen-wrap generate --forward-groups`): group names separated by `,` or
    /// `;` (a CMake list); `none` is the empty set. An unknown name is an
    /// error that lists the accepted ones.
    pub fn parse_build_set(text: &str) -> Result<Vec<Group>, String> {
        let mut set = Vec::new();
        for word in text.split([',', ';']).map(str::trim).filter(|w| !w.is_empty()) {
            if word == "none" {
                continue;
            }
            let g = Group::from_name(word).ok_or_else(|| {
                let accepted: Vec<&str> = Group::all().map(Group::name).collect();
                format!(
                    "unknown family group `{word}` in the forwarding set (accepted: {}, or none)",
                    accepted.join(", ")
                )
            })?;
            if !set.contains(&g) {
                set.push(g);
            }
        }
        Ok(set)
    }
}

impl fmt::Debug for Group {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Group({})", self.name())
    }
}

/// Each group's umbrella, looked up once when the crate compiles.
const UMBRELLAS: [Group; Group::COUNT] = {
    let mut u = [Group(0); Group::COUNT];
    let mut g = 0;
    while g < Group::COUNT {
        u[g] = Group::named(GROUPS[g].umbrella);
        g += 1;
    }
    u
};

const fn find_group(groups: &[&GroupRow], name: &str) -> Option<usize> {
    let mut i = 0;
    while i < groups.len() {
        if same(groups[i].name, name) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// An op family: an index into [`FAMILIES`].
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Family(u8);

/// One family: its documented name and its group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FamilyRow {
    pub family: Family,
    /// The name in `MIOPEN_DISABLE_HIPDNN_FOR` and the routing trace.
    pub name: &'static str,
    pub group: Group,
}

const FAMILY_COUNT: usize = {
    let mut n = 0;
    let mut g = 0;
    while g < GROUPS.len() {
        n += GROUPS[g].families.len();
        g += 1;
    }
    n
};

/// Every family: each group's, in registry order (row i is the family of index i).
pub const FAMILIES: [FamilyRow; FAMILY_COUNT] = {
    let mut rows = [FamilyRow { family: Family(0), name: "", group: Group(0) }; FAMILY_COUNT];
    let (mut g, mut i) = (0, 0);
    while g < GROUPS.len() {
        let mut f = 0;
        while f < GROUPS[g].families.len() {
            rows[i] = FamilyRow { family: Family(i as u8), name: GROUPS[g].families[f], group: Group(g as u8) };
            (f, i) = (f + 1, i + 1);
        }
        g += 1;
    }
    rows
};

/// What is wrong with a registry of groups, if anything: names must be
/// unique among groups and families together (`MIOPEN_DISABLE_HIPDNN_FOR`
/// takes both), every group must have a family, the families must fit a
/// [`FamilySet`], and every umbrella must be a group that is its own
/// umbrella (no chains to follow).
pub const fn registry_problem(groups: &[&GroupRow]) -> Option<&'static str> {
    // Every group has a family, so groups and families fit twice the capacity.
    let mut names: [&str; 2 * FamilySet::CAPACITY] = [""; 2 * FamilySet::CAPACITY];
    let (mut n, mut families) = (0, 0);
    let mut g = 0;
    while g < groups.len() {
        let row = groups[g];
        if row.families.is_empty() {
            return Some("a group has no family");
        }
        match find_group(groups, row.umbrella) {
            None => return Some("a group's umbrella is not a group"),
            Some(u) if !same(groups[u].umbrella, groups[u].name) => {
                return Some("a group's umbrella has an umbrella of its own")
            }
            Some(_) => {}
        }
        families += row.families.len();
        if families > FamilySet::CAPACITY {
            return Some("more families than a FamilySet has bits");
        }
        names[n] = row.name;
        n += 1;
        let mut f = 0;
        while f < row.families.len() {
            names[n] = row.families[f];
            (f, n) = (f + 1, n + 1);
        }
        g += 1;
    }
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n {
            if same(names[i], names[j]) {
                return Some("two groups or families share a name");
            }
            j += 1;
        }
        i += 1;
    }
    None
}

// The registry is checked when the crate compiles.
const _: () = {
    if let Some(problem) = registry_problem(GROUPS) {
        panic!("{}", problem);
    }
    assert!(FAMILY_COUNT <= FamilySet::CAPACITY, "more families than FamilySet has bits");
};

impl Family {
    /// Every family.
    pub fn all() -> impl Iterator<Item = Family> + Clone {
        FAMILIES.iter().map(|r| r.family)
    }

    const fn row(self) -> &'static FamilyRow {
        &FAMILIES[self.0 as usize]
    }

    /// The documented name (`MIOPEN_DISABLE_HIPDNN_FOR`, routing trace).
    pub const fn name(self) -> &'static str {
        self.row().name
    }

    pub const fn group(self) -> Group {
        self.row().group
    }

    /// The family of this name (a compile error in a `const` when there is none).
    pub const fn named(name: &str) -> Family {
        let mut i = 0;
        while i < FAMILIES.len() {
            if same(FAMILIES[i].name, name) {
                return FAMILIES[i].family;
            }
            i += 1;
        }
        panic!("no op family has this name")
    }

    pub fn from_name(name: &str) -> Option<Family> {
        Family::all().find(|f| f.name() == name)
    }

    /// The bit of this family in a [`FamilySet`].
    pub const fn bit(self) -> u64 {
        1 << self.0
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Family({})", self.name())
    }
}

/// A set of op families, one bit each ([`Family::bit`]): `Copy`, so the
/// per-call check is one AND.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FamilySet(u64);

impl FamilySet {
    pub const EMPTY: FamilySet = FamilySet(0);
    /// How many families a set can hold.
    pub const CAPACITY: usize = u64::BITS as usize;

    /// Every family.
    pub fn all() -> FamilySet {
        Family::all().collect()
    }

    /// The families of one group.
    pub const fn group(g: Group) -> FamilySet {
        let mut bits = 0;
        let mut i = 0;
        while i < FAMILIES.len() {
            if FAMILIES[i].group.0 == g.0 {
                bits |= FAMILIES[i].family.bit();
            }
            i += 1;
        }
        FamilySet(bits)
    }

    /// The families the group's name switches off in
    /// `MIOPEN_DISABLE_HIPDNN_FOR`: its own and those of every group it is
    /// the [`Group::umbrella`] of.
    pub const fn named_by(g: Group) -> FamilySet {
        let mut bits = 0;
        let mut i = 0;
        while i < FAMILIES.len() {
            let own = FAMILIES[i].group;
            if own.0 == g.0 || own.umbrella().0 == g.0 {
                bits |= FAMILIES[i].family.bit();
            }
            i += 1;
        }
        FamilySet(bits)
    }

    pub const fn contains(self, family: Family) -> bool {
        self.0 & family.bit() != 0
    }

    pub fn insert(&mut self, family: Family) {
        self.0 |= family.bit();
    }

    pub const fn union(self, other: FamilySet) -> FamilySet {
        FamilySet(self.0 | other.0)
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl From<Family> for FamilySet {
    fn from(family: Family) -> Self {
        FamilySet(family.bit())
    }
}

impl FromIterator<Family> for FamilySet {
    fn from_iter<I: IntoIterator<Item = Family>>(iter: I) -> Self {
        let mut set = FamilySet::EMPTY;
        for f in iter {
            set.insert(f);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_are_unique() {
        let mut names: Vec<&str> = FAMILIES.iter().map(|r| r.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), FAMILIES.len());
        for f in Family::all() {
            assert_eq!(Family::from_name(f.name()), Some(f));
            assert_eq!(Family::named(f.name()), f);
            assert_eq!(f.to_string(), f.name());
        }
        for g in Group::all() {
            assert_eq!(Group::from_name(g.name()), Some(g));
            assert_eq!(Group::of(g.row()), g);
            assert!(Family::from_name(g.name()).is_none(), "a group and a family share the name {}", g.name());
        }
        assert_eq!(Family::from_name("no_such_family"), None);
        assert_eq!(Group::from_name("no_such_group"), None);
    }

    #[test]
    fn families_are_the_rows_lists_in_registry_order() {
        let listed: Vec<(&str, &str)> =
            GROUPS.iter().flat_map(|row| row.families.iter().map(move |f| (*f, row.name))).collect();
        let flat: Vec<(&str, &str)> = FAMILIES.iter().map(|r| (r.name, r.group.name())).collect();
        assert_eq!(flat, listed);
        assert!(FAMILIES.iter().enumerate().all(|(i, r)| r.family == Family(i as u8)));
    }

    #[test]
    fn every_family_has_its_own_bit() {
        let mut seen = FamilySet::EMPTY;
        for f in Family::all() {
            assert!(!seen.contains(f), "{f} shares a bit");
            seen.insert(f);
            assert!(seen.contains(f) && FamilySet::from(f).contains(f));
        }
        assert_eq!(seen, FamilySet::all());
        // The highest bit a set has is usable (the old u8 set aliased past 8).
        let top = FamilySet(1 << (FamilySet::CAPACITY - 1));
        assert!(!top.is_empty());
        assert!(Family::all().all(|f| !top.contains(f)));
    }

    #[test]
    fn build_sets_parse_as_cmake_lists() {
        let g: Vec<Group> = Group::all().collect();
        let (first, last) = (g[0], g[g.len() - 1]);
        let cmake = format!(" {a};{a}, ", a = first.name());
        assert_eq!(Group::parse_build_set(&cmake), Ok(vec![first]));
        assert_eq!(Group::parse_build_set("none"), Ok(vec![]));
        assert_eq!(Group::parse_build_set(""), Ok(vec![]));
        assert_eq!(Group::parse_build_set(&format!("{};{}", last.name(), first.name())), Ok(vec![last, first]));
        let e = Group::parse_build_set(&format!("{};no_such_group", first.name())).unwrap_err();
        let accepted = g.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ");
        assert!(e.contains("`no_such_group`") && e.contains(&format!("accepted: {accepted}, or none")), "{e}");
        let defaults = Group::default_build_set();
        assert!(!defaults.is_empty());
        assert!(Group::all().all(|g| defaults.contains(&g) == g.row().default_build));
    }

    #[test]
    fn a_group_is_its_families() {
        for g in Group::all() {
            let want: FamilySet = Family::all().filter(|f| f.group() == g).collect();
            assert_eq!(FamilySet::group(g), want);
            assert!(!want.is_empty(), "{} has no family", g.name());
            assert_eq!(want, g.row().families.iter().map(|n| Family::named(n)).collect());
        }
    }

    #[test]
    fn a_group_name_switches_off_the_groups_it_is_the_umbrella_of() {
        for g in Group::all() {
            let want: FamilySet = Family::all().filter(|f| f.group() == g || f.group().umbrella() == g).collect();
            assert_eq!(FamilySet::named_by(g), want, "{}", g.name());
            // An umbrella is its own umbrella: no chains to follow.
            assert_eq!(g.umbrella().umbrella(), g.umbrella(), "{}", g.name());
            // A group under another's umbrella is switched off by it, and
            // switches off nothing of the umbrella's own.
            if g.umbrella() != g {
                assert!(FamilySet::named_by(g.umbrella()).union(want) == FamilySet::named_by(g.umbrella()));
                assert_eq!(FamilySet::named_by(g), FamilySet::group(g), "{}", g.name());
            }
        }
    }

    const fn row(name: &'static str, umbrella: &'static str, families: &'static [&'static str]) -> GroupRow {
        GroupRow { umbrella, families, ..GroupRow::new(name, name) }
    }

    #[test]
    fn the_registry_check_finds_each_kind_of_mistake() {
        assert_eq!(registry_problem(GROUPS), None);
        let (a, b) = (row("a", "a", &["a1", "a2"]), row("b", "a", &["b1"]));
        assert_eq!(registry_problem(&[&a, &b]), None);
        let cases: [(&[&GroupRow], &str); 6] = [
            (&[&a, &row("c", "c", &[])], "a group has no family"),
            (&[&a, &row("c", "x", &["c1"])], "a group's umbrella is not a group"),
            (&[&a, &b, &row("c", "b", &["c1"])], "a group's umbrella has an umbrella of its own"),
            (&[&a, &row("a", "a", &["c1"])], "two groups or families share a name"),
            (&[&a, &row("c", "c", &["a2"])], "two groups or families share a name"),
            (&[&a, &row("c", "c", &["c"])], "two groups or families share a name"),
        ];
        for (groups, problem) in cases {
            assert_eq!(registry_problem(groups), Some(problem));
        }
        const MANY: [&str; 65] = [""; 65];
        assert_eq!(registry_problem(&[&row("m", "m", &MANY)]), Some("more families than a FamilySet has bits"));
    }
}
