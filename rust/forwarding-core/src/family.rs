//! Op families: the unit `MIOPEN_DISABLE_HIPDNN_FOR` switches off, the
//! routing trace names, and the environment policy applies to.
//!
//! [`FAMILIES`] is the one list of them. A family belongs to a [`Group`]
//! (`convolution`): the name that switches off all of its families at once,
//! the folder of the wrapper that forwards it (`rust/wrapper/src/forward/<group>`),
//! and the scope of MIOpen's variables that are about it
//! (`crate::environment`). Adding a family is a row here, its entry points
//! in `crate::table`, and its folder.

use std::fmt;

/// A group of families forwarded by one folder of the wrapper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Group {
    /// `rust/wrapper/src/forward/conv`.
    Convolution,
    /// `rust/wrapper/src/forward/fusion`: MIOpen's fusion-plan API, whose
    /// forwarded plans are convolutions (conv -> [bias] -> activation).
    Fusion,
    /// `rust/wrapper/src/forward/find2`: MIOpen's Find 2.0 problem API for
    /// convolution problems (its umbrella is `convolution`).
    Find2,
    /// `rust/wrapper/src/forward/batchnorm`.
    Batchnorm,
}

impl Group {
    pub const ALL: [Group; 4] = [Group::Convolution, Group::Fusion, Group::Find2, Group::Batchnorm];

    /// The `MIOPEN_DISABLE_HIPDNN_FOR` name of every family of the group.
    pub const fn name(self) -> &'static str {
        match self {
            Group::Convolution => "convolution",
            Group::Fusion => "fusion",
            Group::Find2 => "find2",
            Group::Batchnorm => "batchnorm",
        }
    }

    /// The wrapper's module that forwards the group (`crate::forward::<module>`).
    pub const fn module(self) -> &'static str {
        match self {
            Group::Convolution => "conv",
            Group::Fusion => "fusion",
            Group::Find2 => "find2",
            Group::Batchnorm => "batchnorm",
        }
    }

    pub fn from_name(name: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The group whose name in `MIOPEN_DISABLE_HIPDNN_FOR` also switches this
    /// group off: an operator who turns `convolution` off expects every
    /// convolution path to stay on MIOpen, whichever MIOpen API it came
    /// through (a group of another API of the same op answers its op's group).
    pub const fn umbrella(self) -> Group {
        match self {
            Group::Convolution | Group::Fusion | Group::Find2 => Group::Convolution,
            Group::Batchnorm => Group::Batchnorm,
        }
    }

    /// The groups a build forwards unless told otherwise: the convolution,
    /// this RFC's forwarding set (§4.4, Phase 2 task 1), through every API
    /// frameworks call it with: the legacy API, fusion plans (PyTorch's and
    /// XLA's conv + bias + ReLU) and Find 2.0 (MIGraphX's only convolution API).
    pub const DEFAULT_BUILD_SET: &'static [Group] = &[Group::Convolution, Group::Fusion, Group::Find2];

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
                let accepted: Vec<&str> = Group::ALL.iter().map(|g| g.name()).collect();
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

/// An op family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Family {
    ConvForward,
    ConvBackwardData,
    ConvBackwardWeights,
    ConvBiasActivation,
    FusionPlan,
    ConvFind2,
    BnForwardInference,
    BnForwardTraining,
    BnBackward,
}

/// One family: its documented name and its group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FamilyRow {
    pub family: Family,
    /// The name in `MIOPEN_DISABLE_HIPDNN_FOR` and the routing trace.
    pub name: &'static str,
    pub group: Group,
}

const fn row(family: Family, name: &'static str, group: Group) -> FamilyRow {
    FamilyRow { family, name, group }
}

/// Every family, in declaration order (row i is the family of value i).
pub const FAMILIES: &[FamilyRow] = &[
    row(Family::ConvForward, "conv_fwd", Group::Convolution),
    row(Family::ConvBackwardData, "conv_bwd_data", Group::Convolution),
    row(Family::ConvBackwardWeights, "conv_bwd_weights", Group::Convolution),
    row(Family::ConvBiasActivation, "conv_bias_activ", Group::Convolution),
    row(Family::FusionPlan, "fusion_plan", Group::Fusion),
    row(Family::ConvFind2, "conv_find2", Group::Find2),
    row(Family::BnForwardInference, "bn_fwd_inference", Group::Batchnorm),
    row(Family::BnForwardTraining, "bn_fwd_training", Group::Batchnorm),
    row(Family::BnBackward, "bn_bwd", Group::Batchnorm),
];

// A family is one bit of a `FamilySet`, indexed by its value: the rows must
// be in value order and fit the set. Checked when the crate compiles.
const _: () = {
    assert!(FAMILIES.len() <= FamilySet::CAPACITY, "more families than FamilySet has bits");
    let mut i = 0;
    while i < FAMILIES.len() {
        assert!(FAMILIES[i].family as usize == i, "FAMILIES is not in declaration order");
        i += 1;
    }
};

impl Family {
    /// Every family.
    pub fn all() -> impl Iterator<Item = Family> {
        FAMILIES.iter().map(|r| r.family)
    }

    const fn row(self) -> &'static FamilyRow {
        &FAMILIES[self as usize]
    }

    /// The documented name (`MIOPEN_DISABLE_HIPDNN_FOR`, routing trace).
    pub const fn name(self) -> &'static str {
        self.row().name
    }

    pub const fn group(self) -> Group {
        self.row().group
    }

    pub fn from_name(name: &str) -> Option<Family> {
        Family::all().find(|f| f.name() == name)
    }

    /// The bit of this family in a [`FamilySet`].
    pub const fn bit(self) -> u64 {
        1 << (self as u32)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
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
            if FAMILIES[i].group as u8 == g as u8 {
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
            if own as u8 == g as u8 || own.umbrella() as u8 == g as u8 {
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
            assert_eq!(f.to_string(), f.name());
        }
        for g in Group::ALL {
            assert_eq!(Group::from_name(g.name()), Some(g));
            assert!(Family::from_name(g.name()).is_none(), "a group and a family share the name {}", g.name());
        }
        assert_eq!(Family::from_name("convolution"), None);
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
        assert_eq!(Group::parse_build_set("convolution"), Ok(vec![Group::Convolution]));
        assert_eq!(Group::parse_build_set(" convolution;convolution, "), Ok(vec![Group::Convolution]));
        assert_eq!(Group::parse_build_set("none"), Ok(vec![]));
        assert_eq!(Group::parse_build_set(""), Ok(vec![]));
        let e = Group::parse_build_set("convolution;pooling").unwrap_err();
        assert!(e.contains("`pooling`") && e.contains("accepted: convolution, fusion, find2, batchnorm"), "{e}");
        assert_eq!(Group::DEFAULT_BUILD_SET, &[Group::Convolution, Group::Fusion, Group::Find2]);
        assert_eq!(Group::parse_build_set("find2;convolution"), Ok(vec![Group::Find2, Group::Convolution]));
        assert_eq!(Group::parse_build_set("convolution;batchnorm"), Ok(vec![Group::Convolution, Group::Batchnorm]));
    }

    #[test]
    fn a_group_is_its_families() {
        for g in Group::ALL {
            let want: FamilySet = Family::all().filter(|f| f.group() == g).collect();
            assert_eq!(FamilySet::group(g), want);
            assert!(!want.is_empty(), "{} has no family", g.name());
        }
        assert_eq!(FamilySet::group(Group::Fusion), FamilySet::from(Family::FusionPlan));
        assert_eq!(FamilySet::group(Group::Find2), FamilySet::from(Family::ConvFind2));
        // `convolution` switches off every convolution path, the fusion plans
        // and Find 2.0's included (their umbrella), and nothing of batchnorm.
        let convolutions = FamilySet::named_by(Group::Convolution);
        assert_eq!(convolutions.union(FamilySet::group(Group::Batchnorm)), FamilySet::all());
        assert!(!convolutions.contains(Family::BnForwardInference));
        assert_eq!(FamilySet::named_by(Group::Find2), FamilySet::from(Family::ConvFind2));
    }

    #[test]
    fn a_group_name_switches_off_the_groups_it_is_the_umbrella_of() {
        for g in Group::ALL {
            let want: FamilySet = Family::all().filter(|f| f.group() == g || f.group().umbrella() == g).collect();
            assert_eq!(FamilySet::named_by(g), want, "{}", g.name());
            // An umbrella is its own umbrella: no chains to follow.
            assert_eq!(g.umbrella().umbrella(), g.umbrella(), "{}", g.name());
        }
    }
}
