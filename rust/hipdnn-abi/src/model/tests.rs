//! The rules a data file must meet, each with a file that breaks it.

use super::*;

/// A small valid file: one enum the wrapper uses (one value test-bed only,
/// one spelled outside the rule), one enum only the test bed uses, a define.
pub(crate) const SMALL: &str = r#"
[[enum]]
c_type = "hipdnnThing_t"
header = "HipdnnThing.h"
rust = "thing"
doc = "things"
prefix = "HIPDNN_"
suffix = "_THING"
unknown = "HIPDNN_THING_UNKNOWN"
source = "backend/include/HipdnnThing.h @0123abcd"
values = [
    { name = "NONE_EXT", value = 0, c_name = "HIPDNN_NO_THING_EXT", testbed_only = true },
    { name = "ONE", value = 1, section = "the first" },
    { name = "TWO_EXT", value = 2, note = "an extension", source = "HipdnnThing.h @89abcdef (fork)" },
]

[[enum]]
c_type = "hipdnnOther_t"
header = "HipdnnOther.h"
doc = "others"
prefix = "HIPDNN_OTHER_"
source = "backend/include/HipdnnOther.h @0123abcd"
values = [{ name = "A", value = 5 }]

[[define]]
name = "HIPDNN_LIMIT"
value = 64
header = "HipdnnLimits.h"
doc = "limits"
source = "backend/include/HipdnnLimits.h @0123abcd"
"#;

pub(crate) fn small() -> Abi {
    Abi::parse(SMALL).unwrap()
}

/// `SMALL` with `from` replaced by `to` (exactly once) must be refused with
/// a message containing `why`.
fn refused(from: &str, to: &str, why: &str) {
    assert_eq!(SMALL.matches(from).count(), 1, "{from:?} must occur once in SMALL");
    let err = Abi::parse(&SMALL.replacen(from, to, 1)).expect_err(to);
    assert!(err.0.contains(why), "{to:?}: {err}");
}

#[test]
fn the_spelling_rule_keeps_ext_last() {
    let abi = small();
    let e = &abi.enums[0];
    let names: Vec<String> = e.values.iter().map(|v| e.c_name(v)).collect();
    assert_eq!(names, ["HIPDNN_NO_THING_EXT", "HIPDNN_ONE_THING", "HIPDNN_TWO_THING_EXT"]);
    assert_eq!(abi.enums[1].c_name(&abi.enums[1].values[0]), "HIPDNN_OTHER_A");
}

#[test]
fn the_wrapper_gets_the_values_not_marked_testbed_only() {
    let abi = small();
    let wrapper: Vec<&str> = abi.enums[0].wrapper_values().map(|v| v.name.as_str()).collect();
    assert_eq!(wrapper, ["ONE", "TWO_EXT"]);
    assert_eq!(abi.enums[1].wrapper_values().count(), 0, "no module: nothing for the wrapper");
    assert_eq!(abi.headers(), ["HipdnnThing.h", "HipdnnOther.h", "HipdnnLimits.h"]);
}

#[test]
fn values_are_ascending_unique_and_int_sized() {
    refused("value = 2, note", "value = 1, note", "not above the value before it");
    refused("value = 2, note", "value = 0, note", "not above the value before it");
    refused("value = 2, note", "value = 2147483648, note", "does not fit a C enum");
}

#[test]
fn names_are_identifiers_and_unique_in_c() {
    refused(r#"name = "ONE""#, r#"name = "one""#, "uppercase identifier");
    refused(r#"name = "ONE""#, r#"name = "O-NE""#, "uppercase identifier");
    refused(r#"prefix = "HIPDNN_OTHER_""#, r#"prefix = "HIPDNN_OTHER ""#, "not a C identifier");
    refused(r#"c_name = "HIPDNN_NO_THING_EXT""#, r#"c_name = "HIPDNN_OTHER_A""#, "declared twice");
    refused(r#"name = "HIPDNN_LIMIT""#, r#"name = "HIPDNN_OTHER_A""#, "declared twice");
    refused(r#"c_name = "HIPDNN_NO_THING_EXT""#, r#"c_name = "HIPDNN_NONE_THING_EXT""#, "what the spelling rule gives");
    refused(r#"header = "HipdnnOther.h""#, r#"header = "HipdnnThing.h""#, "holds two");
    refused(r#"header = "HipdnnLimits.h""#, r#"header = "HipdnnThing.h""#, "a header of its own");
    refused(r#"header = "HipdnnOther.h""#, r#"header = "../Other.h""#, "plain `Name.h`");
}

#[test]
fn every_enum_and_define_cites_file_at_commit() {
    refused(r#"source = "backend/include/HipdnnOther.h @0123abcd""#, r#"source = "HipdnnOther.h""#, "@commit");
    refused(r#"source = "backend/include/HipdnnLimits.h @0123abcd""#, r#"source = "x @ main""#, "@commit");
    refused(r#"source = "HipdnnThing.h @89abcdef (fork)""#, r#"source = "HipdnnThing.h @89ab""#, "@commit");
}

#[test]
fn comment_text_cannot_break_out_of_a_comment() {
    refused(r#"note = "an extension""#, r#"note = "an */ extension""#, "without `/*` or `*/`");
    refused(r#"doc = "others""#, r#"doc = "others\nmore""#, "one non-empty line");
    refused(r#"section = "the first""#, r#"section = " ""#, "one non-empty line");
}

#[test]
fn the_test_bed_only_markers_are_consistent() {
    refused(
        r#"values = [{ name = "A", value = 5 }]"#,
        r#"values = [{ name = "A", value = 5, testbed_only = true }]"#,
        "all of it is",
    );
    refused(r#"rust = "thing""#, r#"rust = "Thing""#, "lowercase Rust identifier");
    refused(
        r#"source = "backend/include/HipdnnOther.h @0123abcd""#,
        "source = \"backend/include/HipdnnOther.h @0123abcd\"\nunknown = \"X\"",
        "has none",
    );
}

#[test]
fn unknown_keys_and_missing_keys_are_refused() {
    refused(r#"doc = "others""#, "doc = \"others\"\ncolour = \"red\"", "unknown field");
    refused(r#"doc = "others""#, "", "missing field `doc`");
    assert!(Abi::parse("").unwrap_err().0.contains("missing field `enum`"));
}

#[test]
fn renumber_changes_one_number_and_validates_again() {
    let mut abi = small();
    abi.renumber("HIPDNN_ONE_THING", 7).unwrap();
    let values: Vec<(String, i64)> = abi.enums[0].values.iter().map(|v| (v.name.clone(), v.value)).collect();
    assert_eq!(values, [("NONE_EXT".into(), 0), ("TWO_EXT".into(), 2), ("ONE".into(), 7)], "kept ascending");
    abi.renumber("HIPDNN_LIMIT", 128).unwrap();
    assert_eq!(abi.defines[0].value, 128);
    assert!(abi.renumber("HIPDNN_ONE_THING", 2).unwrap_err().0.contains("not above"), "a clash is refused");
    assert!(small().renumber("HIPDNN_NOTHING", 1).unwrap_err().0.contains("no value is spelled"));
}

#[test]
fn the_real_data_file_is_valid() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hipdnn-backend/abi.toml");
    let abi = Abi::load(&path).unwrap();
    assert!(abi.enums.iter().any(|e| e.rust.as_deref() == Some("status")));
}
