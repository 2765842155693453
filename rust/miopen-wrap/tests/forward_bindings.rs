//! The bindings the forwarding handlers are compiled against, as the runtime
//! crate's build script makes them from the test bed's header (a wrapper
//! build makes them from the header it wraps, the same way): every
//! forwarded entry point has its argument struct and its `_impl`, the
//! legacy form of a call forwarded as another gets the conversion of its
//! arguments, and a header without an optional entry point still gets the
//! handlers. That the handlers fail to compile against a changed header is
//! CTest `forward_bindings_follow_header`'s (test/split/check_header_ties.py).

use std::path::PathBuf;

use miopen_forwarding_core::table::FORWARDING_TABLE;
use miopen_wrap::generate::{bindings, forward_abi};
use miopen_wrap::header::{self, ParseOptions};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn test_bed() -> (PathBuf, ParseOptions) {
    bindings::test_bed(&root())
}

fn test_bed_api() -> header::Api {
    let (path, opts) = test_bed();
    header::parse(&path, &opts).expect("header parses")
}

/// A header without an optional entry point (MIOpen 3.3.0's lacks one) still
/// gets the handlers; without a required one it does not.
#[test]
fn a_header_without_an_optional_entry_point_still_gets_the_handlers() {
    let full = test_bed_api();
    assert!(forward_abi::handlers_apply(&full));
    let optional = FORWARDING_TABLE.iter().filter(|r| r.optional).map(|r| r.entry_point);
    assert!(optional.clone().count() > 0);
    for optional in optional {
        let mut api = full.clone();
        api.entry_points.retain(|e| e.name != optional);
        assert_eq!(api.entry_points.len() + 1, full.entry_points.len(), "{optional} is in the test bed's header");
        assert!(forward_abi::handlers_apply(&api), "without {optional}");
    }
    let required = FORWARDING_TABLE.iter().find(|r| !r.optional).unwrap().entry_point;
    let mut api = full.clone();
    api.entry_points.retain(|e| e.name != required);
    assert!(!forward_abi::handlers_apply(&api), "without {required}");
}

#[test]
fn every_forwarded_entry_point_has_its_struct_and_impl() {
    let (path, opts) = test_bed();
    let text = bindings::of_header(&path, &opts).expect("bindings generate");
    let file = syn::parse_file(&text).expect("the bindings parse");
    let args = file
        .items
        .iter()
        .find_map(|i| match i {
            syn::Item::Mod(m) if m.ident == "args" => m.content.as_ref().map(|(_, items)| items),
            _ => None,
        })
        .expect("a module `args`");
    let structs: Vec<String> = args
        .iter()
        .filter_map(|i| if let syn::Item::Struct(s) = i { Some(s.ident.to_string()) } else { None })
        .collect();
    let table: Vec<&str> = FORWARDING_TABLE.iter().map(|r| r.entry_point).collect();
    assert_eq!(structs, table, "one struct per row, in table order");
    for name in forward_abi::bound_names() {
        assert!(text.contains(&format!("pub fn {name}_impl(")), "{name}_impl missing");
        assert!(!text.contains(&format!("pub fn {name}(")), "{name} bound under its public name");
    }
    for row in FORWARDING_TABLE.iter().filter(|r| r.forwarded_as.is_some()) {
        let to = row.forwarded_as.unwrap();
        let conversion = format!("impl From<&{}> for {to}", row.entry_point);
        assert!(
            text.replace('\n', " ").split_whitespace().collect::<Vec<_>>().join(" ").contains(&conversion),
            "{conversion}"
        );
    }
}
