use super::*;

fn v(major: u32, minor: u32, patch: u32, tweak: Option<&str>) -> Version {
    Version { major, minor, patch, tweak: tweak.map(str::to_string) }
}

#[test]
fn the_forms_hipdnn_reports_parse() {
    // `<version.json>.<git short hash>`, `.unknown` without git, three
    // fields from older builds, and the test bed's decimal tweak.
    for (text, want) in [
        ("1.2.3.9f3e2a1", v(1, 2, 3, Some("9f3e2a1"))),
        ("1.2.3.unknown", v(1, 2, 3, Some("unknown"))),
        ("0.4.0.ab12cd3", v(0, 4, 0, Some("ab12cd3"))),
        ("0.0.1", v(0, 0, 1, None)),
        ("1.0.0.0", v(1, 0, 0, Some("0"))),
        ("12.0.10.rc1-dirty.2", v(12, 0, 10, Some("rc1-dirty.2"))),
    ] {
        let got = Version::parse(text);
        assert_eq!(got.as_ref(), Some(&want), "{text:?}");
        assert_eq!(want.to_string(), text, "display round-trips");
    }
}

#[test]
fn anything_else_is_not_a_version() {
    for text in [
        "",
        "1",
        "1.2",
        "1..3",
        "1.2.",
        "1.2.3.",
        " 1.2.3",
        "1.2.3 ",
        "+1.2.3",
        "-1.2.3",
        "1.2.3-rc1",
        "a.2.3.4",
        "1.2.3.4\n",
        "99999999999.0.0",
        "garbage",
    ] {
        assert_eq!(Version::parse(text), None, "{text:?}");
    }
}

#[test]
fn the_gate_accepts_the_verified_releases_only() {
    let accepted = [
        "1.2.3.9f3e2a1",
        "1.2.3.unknown",
        "1.0.0",
        "1.99.0.0",
        "0.4.0.ab12cd3",
        "0.3.0.unknown",
        "0.0.1",
        "0.2.0.1a2b3c4",
    ];
    let refused = ["0.5.0.abc", "0.10.0", "2.0.0.0", "3.1.0.unknown"];
    for text in accepted {
        assert!(is_verified(&Version::parse(text).unwrap()), "{text} must be accepted");
    }
    for text in refused {
        assert!(!is_verified(&Version::parse(text).unwrap()), "{text} must be refused");
    }
}

#[test]
fn the_accepted_releases_read_as_a_phrase() {
    assert_eq!(accepted(), "0.0.x to 0.4.x, 1.x");
    let one = Verified { major: 0, minors: 4..=4, evidence: "" };
    assert_eq!(one.to_string(), "0.4.x");
    let open = Verified { major: 0, minors: 3..=u32::MAX, evidence: "" };
    assert_eq!(open.to_string(), "0.3.x or a later 0.x");
}
