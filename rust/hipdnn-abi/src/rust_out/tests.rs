use crate::model::tests::small;

#[test]
fn a_module_per_wrapper_enum_with_its_constants_and_names() {
    let text = super::render(&small());
    assert!(text.contains("pub mod thing {"), "{text}");
    assert!(!text.contains("pub mod other"), "an enum without a module stays C-only:\n{text}");
    assert!(text.contains("    pub const ONE: i32 = 1;\n"), "{text}");
    assert!(text.contains("    pub const TWO_EXT: i32 = 2;\n"), "{text}");
    assert!(!text.contains("NONE_EXT"), "test-bed-only values have no constant:\n{text}");
    assert!(
        text.contains("        (\"HIPDNN_ONE_THING\", ONE),\n        (\"HIPDNN_TWO_THING_EXT\", TWO_EXT),\n"),
        "{text}"
    );
    assert!(text.contains("map_or(\"HIPDNN_THING_UNKNOWN\""), "{text}");
    assert!(text.contains("/// hipDNN: backend/include/HipdnnThing.h @0123abcd."), "the citation travels: {text}");
    assert!(text.contains("/// hipDNN: HipdnnThing.h @89abcdef (fork)."), "{text}");
}
