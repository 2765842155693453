use super::*;

fn prealloc() -> FindOptions {
    let mut o = FindOptions::default();
    for id in argument::ALL {
        o.preallocate_tensor(id, 0x1000 * id as usize);
    }
    o
}

#[test]
fn a_search_is_miopens_only_without_buffers() {
    assert_eq!(search_decline(&prealloc()), None);
    let mut tuned = prealloc();
    tuned.tuning = true;
    assert_eq!(search_decline(&tuned), None, "tuning is hipDNN's benchmarking now");
    let mut two = FindOptions::default();
    two.preallocate_tensor(argument::X, 1);
    two.preallocate_tensor(argument::Y, 3);
    assert!(search_decline(&two).unwrap().starts_with("no preallocated x, w and y buffers"));
}

#[test]
fn an_exhaustive_search_is_hipdnns_benchmarking() {
    assert_eq!(search_knobs(&prealloc(), 0), Knobs::NONE);
    for fast in [2, 3, 5] {
        assert!(!search_knobs(&prealloc(), fast).benchmarking, "find mode {fast}");
    }
    assert!(search_knobs(&prealloc(), 1).benchmarking, "find mode Normal");
    let mut tuned = prealloc();
    tuned.tuning = true;
    assert_eq!(search_knobs(&tuned, 0), Knobs { benchmarking: true, workspace_limit: None });
}

#[test]
fn the_workspace_cap_is_the_preallocated_workspace_within_the_limit() {
    let mut o = FindOptions::default();
    assert_eq!(workspace_cap(&o), 0, "no workspace to run on");
    o.workspace = Some((0x100, 64));
    assert_eq!(workspace_cap(&o), 64);
    o.workspace_limit = 10;
    assert_eq!(workspace_cap(&o), 10);
    o.workspace = Some((0, 64));
    assert_eq!(workspace_cap(&o), 0, "a null workspace holds nothing");
}

#[test]
fn the_first_preallocated_buffer_of_an_id_stays() {
    let mut o = FindOptions::default();
    o.preallocate_tensor(argument::W, 8);
    o.preallocate_tensor(argument::W, 16);
    assert_eq!(o.tensor(argument::W), Some(8));
    assert_eq!(o.tensor(argument::X), None);
}

#[test]
fn the_plans_workspace_keeps_to_the_options() {
    let mut o = FindOptions::default();
    assert_eq!(workspace_decline(&o, 0), None);
    assert!(workspace_decline(&o, 1).unwrap().starts_with("no preallocated workspace for the 1 bytes"));
    o.workspace = Some((0x100, 64));
    assert_eq!(workspace_decline(&o, 64), None);
    assert_eq!(
        workspace_decline(&o, 65).as_deref(),
        Some("preallocated workspace of 64 bytes < the 65 the hipDNN plan needs")
    );
    o.workspace = Some((0, 64));
    assert!(workspace_decline(&o, 1).unwrap().starts_with("preallocated workspace of 0 bytes"));
    let limited = FindOptions { workspace_limit: 10, ..FindOptions::default() };
    assert!(workspace_decline(&limited, 11).unwrap().starts_with("workspace limit of 10 bytes"));
    let both = FindOptions { workspace_limit: 10, workspace: Some((0x100, 64)), ..FindOptions::default() };
    assert_eq!(workspace_decline(&both, 10), None);
    assert!(workspace_decline(&both, 11).unwrap().starts_with("workspace limit of 10 bytes"), "the limit holds too");
}
