//! The manifest: every exported name of the wrapper with its op family.

use serde::{Deserialize, Serialize};

use miopen_forwarding_core::family::Group;
use miopen_forwarding_core::table::{self, Forwarded};

use crate::header::Api;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ManifestEntry {
    pub name: String,
    /// Op family: the forwarding table's family for an entry point in the
    /// forwarding set, otherwise the header's doxygen group, lower-cased.
    pub family: String,
    pub beta: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub version_node: String,
    /// Public entry points, in header order; the stub table index is the position here.
    pub entry_points: Vec<ManifestEntry>,
    /// Exported C functions the header does not declare; tail-jump stubs, never routed.
    pub survivors: Vec<String>,
    /// The wrapper's own exports (not MIOpen's): the only additions the
    /// release gates accept, and the only exports that are not stubs.
    #[serde(default)]
    pub additions: Vec<String>,
    /// The family groups this build forwards (`--forward-groups`): a row of
    /// the forwarding table whose group is not here is built as pass-through.
    #[serde(default)]
    pub forward_groups: Vec<String>,
}

pub fn build(api: &Api, survivors: &[String], version_node: &str, forward_groups: &[Group]) -> Manifest {
    Manifest {
        version_node: version_node.to_string(),
        entry_points: api
            .entry_points
            .iter()
            .map(|e| ManifestEntry { name: e.name.clone(), family: family_of(&e.name, &e.group), beta: e.beta })
            .collect(),
        survivors: survivors.to_vec(),
        additions: miopen_forwarding_core::table::WRAPPER_ADDITIONS.iter().map(|a| a.to_string()).collect(),
        forward_groups: forward_groups.iter().map(|g| g.name().to_string()).collect(),
    }
}

fn family_of(name: &str, group: &str) -> String {
    match table::lookup(name) {
        Some(row) => row.family.name().to_string(),
        None => group.to_string(),
    }
}

impl Manifest {
    /// The forwarding table's row of `name` when this build forwards its group.
    pub fn forwarded(&self, name: &str) -> Option<&'static Forwarded> {
        table::lookup(name).filter(|row| self.forward_groups.iter().any(|g| g == row.family.group().name()))
    }

    /// Every symbol the wrapper exports, sorted.
    pub fn exported_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.entry_points.iter().map(|e| e.name.clone()).collect();
        v.extend(self.survivors.iter().cloned());
        v.extend(self.additions.iter().cloned());
        v.sort();
        v
    }
}
