use super::*;

fn prealloc() -> FindOptions {
    let mut o = FindOptions::default();
    for id in argument::ALL {
        o.preallocate_tensor(id, 0x1000 * id as usize);
    }
    o
}

#[test]
fn a_search_is_miopens_when_asked_exhaustive_or_without_buffers() {
    assert_eq!(search_decline(&prealloc(), 0), None);
    assert_eq!(search_decline(&prealloc(), 5), None);
    let normal = search_decline(&prealloc(), 1).unwrap();
    assert!(normal.contains("find mode Normal"), "{normal}");
    let mut tuned = prealloc();
    tuned.tuning = true;
    assert!(search_decline(&tuned, 0).unwrap().contains("miopenSetFindOptionTuning"));
    let mut two = FindOptions::default();
    two.preallocate_tensor(argument::X, 1);
    two.preallocate_tensor(argument::Y, 3);
    assert!(search_decline(&two, 0).unwrap().starts_with("no preallocated x, w and y buffers"));
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
}
