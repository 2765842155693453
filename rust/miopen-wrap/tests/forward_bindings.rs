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

fn regenerate() -> String {
    let r = root();
    let opts = ParseOptions {
        include_dirs: vec![
            r.join("test/mini-miopen/include"),
            r.join("src_patches/standin/miopen-include"),
            r.join("src_patches/standin/hip-include"),
        ],
        defines: vec![],
    };
    let api = header::parse(&r.join("test/mini-miopen/include/miopen/miopen.h"), &opts).expect("header parses");
    forward_bindings::generate(&api, &opts).expect("bindings generate")
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
