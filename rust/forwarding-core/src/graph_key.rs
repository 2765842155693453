//! What a hipDNN plan is built from: the plan cache's key (a MIOpen handle
//! and a graph) and the input of the wrapper's graph builder. The graph is
//! a family's own spec type, behind [`GraphKey`]: a family makes its spec a
//! key by implementing [`OwnedGraph`] (in its group's `group.rs`), and the
//! cache compares and hashes it by value without knowing the type. Specs of
//! two types are never equal.

use std::any::{Any, TypeId};
use std::fmt::Debug;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use crate::row::GroupRow;

/// A family's graph spec, as the plan cache keys it.
pub trait GraphKey: Any + Debug + Send + Sync {
    /// The group whose hipDNN operation types the graph uses (the backend's
    /// probe of that group must pass before a plan of it is built).
    fn group(&self) -> &'static GroupRow;
    fn as_any(&self) -> &dyn Any;
    /// `self == other` when `other` is of the same type.
    fn eq_key(&self, other: &dyn GraphKey) -> bool;
    fn hash_key(&self, state: &mut dyn Hasher);
}

/// A spec owned by a family of `GROUP`: implementing this makes it a [`GraphKey`].
pub trait OwnedGraph: Any + Debug + Eq + Hash + Send + Sync {
    const GROUP: &'static GroupRow;
}

impl<T: OwnedGraph> GraphKey for T {
    fn group(&self) -> &'static GroupRow {
        T::GROUP
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn eq_key(&self, other: &dyn GraphKey) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }

    fn hash_key(&self, mut state: &mut dyn Hasher) {
        self.hash(&mut state);
    }
}

impl dyn GraphKey {
    /// The spec, if it is a `T`.
    pub fn downcast<T: GraphKey>(&self) -> Option<&T> {
        self.as_any().downcast_ref()
    }
}

impl PartialEq for dyn GraphKey {
    fn eq(&self, other: &dyn GraphKey) -> bool {
        self.eq_key(other)
    }
}

impl Eq for dyn GraphKey {}

impl Hash for dyn GraphKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The type too: equal bytes of two specs are two graphs.
        self.as_any().type_id().hash(state);
        self.hash_key(state);
    }
}

/// The hipDNN engine-config knobs a plan is built with (hipDNN's global
/// knobs, set by name on the engine config: `docs/forwarding.md` "Knobs").
/// Part of the plan's identity: a plan an engine chose by benchmarking, or
/// under a workspace limit, is another plan than its default one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Knobs {
    /// `global.benchmarking = 1`: the engine benchmarks its candidates.
    pub benchmarking: bool,
    /// `global.workspace_size_limit`: the most workspace bytes the plan may need.
    pub workspace_limit: Option<u64>,
}

impl Knobs {
    pub const NONE: Knobs = Knobs { benchmarking: false, workspace_limit: None };

    pub fn is_none(&self) -> bool {
        *self == Knobs::NONE
    }
}

/// A plan belongs to the MIOpen handle (hence hipDNN handle) that built it.
#[derive(Debug, Clone)]
pub struct PlanKey {
    /// The MIOpen handle's address.
    pub handle: usize,
    pub graph: Arc<dyn GraphKey>,
    pub knobs: Knobs,
}

impl PartialEq for PlanKey {
    fn eq(&self, other: &PlanKey) -> bool {
        self.handle == other.handle
            && self.knobs == other.knobs
            && (Arc::ptr_eq(&self.graph, &other.graph) || *self.graph == *other.graph)
    }
}

impl Eq for PlanKey {}

impl Hash for PlanKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.handle.hash(state);
        self.knobs.hash(state);
        (*self.graph).hash(state);
    }
}

impl PlanKey {
    pub fn new(handle: usize, graph: impl GraphKey) -> PlanKey {
        PlanKey { handle, graph: Arc::new(graph), knobs: Knobs::NONE }
    }

    /// The same graph on the same handle, built with `knobs`.
    pub fn with_knobs(&self, knobs: Knobs) -> PlanKey {
        PlanKey { handle: self.handle, graph: Arc::clone(&self.graph), knobs }
    }

    /// The graph, if it is a `T`.
    pub fn graph<T: GraphKey>(&self) -> Option<&T> {
        self.graph.downcast()
    }

    /// Whether the graph is a `T`.
    pub fn is<T: GraphKey>(&self) -> bool {
        (*self.graph).as_any().type_id() == TypeId::of::<T>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    const A: GroupRow = GroupRow::new("a", "a");

    #[derive(Debug, PartialEq, Eq, Hash)]
    struct One(u32);
    #[derive(Debug, PartialEq, Eq, Hash)]
    struct Other(u32);

    impl OwnedGraph for One {
        const GROUP: &'static GroupRow = &A;
    }
    impl OwnedGraph for Other {
        const GROUP: &'static GroupRow = &A;
    }

    fn hash(k: &PlanKey) -> u64 {
        let mut h = DefaultHasher::new();
        k.hash(&mut h);
        h.finish()
    }

    #[test]
    fn keys_compare_by_value_and_type() {
        let k = PlanKey::new(1, One(7));
        assert_eq!(k, PlanKey::new(1, One(7)));
        assert_eq!(hash(&k), hash(&PlanKey::new(1, One(7))));
        assert_ne!(k, PlanKey::new(1, One(8)));
        assert_ne!(k, PlanKey::new(2, One(7)), "another MIOpen handle");
        assert_ne!(k, PlanKey::new(1, Other(7)), "the same value of another spec type");
        assert_ne!(hash(&k), hash(&PlanKey::new(1, Other(7))));
        let benchmarked = k.with_knobs(Knobs { benchmarking: true, workspace_limit: None });
        assert_ne!(k, benchmarked, "a benchmarked plan is another plan");
        assert_ne!(hash(&k), hash(&benchmarked));
        let limited = k.with_knobs(Knobs { benchmarking: false, workspace_limit: Some(64) });
        assert_ne!(limited, k.with_knobs(Knobs { benchmarking: false, workspace_limit: Some(65) }));
        assert_eq!(k.with_knobs(Knobs::NONE), k);
        assert_eq!(k.graph::<One>(), Some(&One(7)));
        assert!(k.graph::<Other>().is_none() && k.is::<One>() && !k.is::<Other>());
        assert_eq!(k.graph.group().name, "a");
    }
}
