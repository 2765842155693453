//! The wrapper's committed forwarding bindings
//! (`rust/wrapper/src/forward/miopen_sys.rs`) are exactly what the generator
//! makes of the test bed's header. Run with `MIOPEN_WRAP_BLESS=1` to rewrite
//! the file after a deliberate change to the header or the forwarding table.

use std::path::PathBuf;

use miopen_wrap::generate::forward_bindings;
use miopen_wrap::header::{self, ParseOptions};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn options() -> ParseOptions {
    let r = root();
    ParseOptions {
        include_dirs: vec![
            r.join("test/mini-miopen/include"),
            r.join("src_patches/standin/miopen-include"),
            r.join("src_patches/standin/hip-include"),
        ],
        defines: vec![],
    }
}

fn test_bed_api(opts: &ParseOptions) -> header::Api {
    header::parse(&root().join("test/mini-miopen/include/miopen/miopen.h"), opts).expect("header parses")
}

fn regenerate() -> String {
    let opts = options();
    forward_bindings::generate(&test_bed_api(&opts), &opts).expect("bindings generate")
}

/// MIOpen 3.3.0's header has no `miopenExecuteFusionPlan_v2` (an optional
/// entry point): the handlers still apply to it. Without a required one
/// (`miopenExecuteFusionPlan`) they do not.
#[test]
fn a_header_without_an_optional_entry_point_still_gets_the_handlers() {
    use miopen_forwarding_core::table::FORWARDING_TABLE;
    use miopen_wrap::generate::forward_abi::handlers_apply;
    let full = test_bed_api(&options());
    assert!(handlers_apply(&full));
    let optional = FORWARDING_TABLE.iter().filter(|r| r.optional).map(|r| r.entry_point);
    assert!(optional.clone().count() > 0);
    for optional in optional {
        let mut api = full.clone();
        api.entry_points.retain(|e| e.name != *optional);
        assert_eq!(api.entry_points.len() + 1, full.entry_points.len(), "{optional} is in the test bed's header");
        assert!(handlers_apply(&api), "without {optional}");
    }
    let mut api = full.clone();
    api.entry_points.retain(|e| e.name != "miopenExecuteFusionPlan");
    assert!(!handlers_apply(&api), "without a required entry point");
}

#[test]
fn committed_forward_bindings_match_the_header() {
    let path = root().join("rust/wrapper/src/forward/miopen_sys.rs");
    let fresh = regenerate();
    if std::env::var_os("MIOPEN_WRAP_BLESS").is_some() {
        std::fs::write(&path, &fresh).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(committed == fresh, "{} is stale: rerun with MIOPEN_WRAP_BLESS=1 and commit the result", path.display());
}

#[test]
fn bindings_declare_impl_names_only() {
    let fresh = regenerate();
    for name in forward_bindings::bound_names() {
        assert!(fresh.contains(&format!("pub fn {name}_impl(")), "{name}_impl missing");
        assert!(!fresh.contains(&format!("pub fn {name}(")), "{name} bound under its public name");
    }
}
