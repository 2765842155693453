//! Integration tests for `miopen-wrap check`: every gate has a positive and a
//! negative case on tiny C libraries built here with `cc` (and `patchelf`
//! for the wheel-bundler rename scenario, `abidiff` for the abi gate).
use std::path::{Path, PathBuf};
use std::process::Command;

use tempfile::TempDir;

const BIN: &str = env!("CARGO_BIN_EXE_miopen-wrap");

/// Entry points of the fixture API (a miniature miopen.h).
const API: &[&str] = &["miopenCreate", "miopenDestroy", "miopenGetVersion", "miopenHiddenSetConvolutionFindMode"];

fn stamp(version: &str) -> String {
    format!(
        "__attribute__((section(\".miopen_version\"), used))\n\
         static const char miopen_version_stamp[] = \"miopen-version:{version}\";\n"
    )
}

struct Fx {
    dir: TempDir,
}

impl Fx {
    fn new() -> Fx {
        Fx { dir: tempfile::tempdir().expect("tempdir") }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let p = self.path(name);
        if let Some(parent) = p.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&p, text).expect("write fixture");
        p
    }

    /// `cc -shared -fPIC -Wl,-soname,<soname> -Wl,--version-script,<map>` of
    /// `src` into `out`, linking `libs` (paths) for DT_NEEDED entries.
    fn shared(&self, out: &str, soname: &str, node: &str, src: &str, libs: &[&Path], extra: &[&str]) -> PathBuf {
        let map = format!("{node} {{ global: miopen*; hipdnn*; _Z*; local: *; }};\n");
        self.shared_with_map(out, soname, &map, src, libs, extra)
    }

    /// `shared` with the version script's text given.
    fn shared_with_map(
        &self,
        out: &str,
        soname: &str,
        map: &str,
        src: &str,
        libs: &[&Path],
        extra: &[&str],
    ) -> PathBuf {
        let c = self.write(&format!("{out}.c"), src);
        let map = self.write(&format!("{out}.map"), map);
        let o = self.path(out);
        let mut cmd = Command::new("cc");
        cmd.args(["-shared", "-fPIC", "-o"])
            .arg(&o)
            .arg(format!("-Wl,-soname,{soname}"))
            .arg(format!("-Wl,--version-script,{}", map.display()))
            .args(extra)
            .arg(&c)
            // Ubuntu's gcc links --as-needed; a weak-only reference must still
            // produce a DT_NEEDED in the fixtures.
            .arg("-Wl,--no-as-needed");
        for l in libs {
            cmd.arg(l);
        }
        run_ok(&mut cmd);
        o
    }

    /// The private library: every API entry point as `_impl`.
    fn private(&self, out: &str, soname: &str, version: &str, skip: &[&str]) -> PathBuf {
        let mut src = stamp(version);
        for f in API.iter().filter(|f| !skip.contains(f)) {
            src.push_str(&format!("int {f}_impl(void *p) {{ return p != 0; }}\n"));
        }
        // An internal C++ symbol, as the real private library has many.
        src.push_str(
            "int miopen_internal(void) __asm__(\"_ZN6miopen8internalEv\");\nint miopen_internal(void) { return 7; }\n",
        );
        self.shared(out, soname, "MIOPEN_PRIVATE_1", &src, &[], &[])
    }

    /// A wrapper fixture linked against `private`; see [`WrapperFixture`].
    fn wrapper<'a>(&'a self, private: &'a Path) -> WrapperFixture<'a> {
        WrapperFixture {
            fx: self,
            private,
            file: "libMIOpen.so.1",
            node: "MIOPEN_HIP_1",
            version: "3.4.0",
            without: &[],
            extra_source: "",
            extra_libs: Vec::new(),
        }
    }

    /// The pre-wrapper library: the public API implemented directly.
    fn baseline(&self, out: &str, debug: bool, skip: &[&str]) -> PathBuf {
        let mut src = String::from("typedef struct { int n; float f; } miopenThing;\n");
        for f in API.iter().filter(|f| !skip.contains(f)) {
            src.push_str(&format!("int {f}(miopenThing *p) {{ return p->n; }}\n"));
        }
        src.push_str("int miopenGlobalCounter = 3;\n");
        src.push_str(
            "int miopen_internal(void) __asm__(\"_ZN6miopen8internalEv\");\nint miopen_internal(void) { return 7; }\n",
        );
        let extra: &[&str] = if debug { &["-g"] } else { &[] };
        self.shared(out, "libMIOpen.so.1", "MIOPEN_HIP_1", &src, &[], extra)
    }

    /// A standard good set: (private, wrapper, baseline).
    fn standard(&self) -> (PathBuf, PathBuf, PathBuf) {
        let p = self.private("libMIOpen_private.so.1", "libMIOpen_private.so.1", "3.4.0", &[]);
        let w = self.wrapper(&p).extra_source("int miopenGlobalCounter = 3;\n").build();
        let b = self.baseline("baseline/libMIOpen.so.1", false, &[]);
        (p, w, b)
    }
}

/// The wrapper: a stub per entry point forwarding to `_impl`, plus the
/// wrapper's own export, linked against the private library (its
/// DT_NEEDED). Defaults: `libMIOpen.so.1`, node `MIOPEN_HIP_1`, version
/// 3.4.0, every entry point, nothing else.
struct WrapperFixture<'a> {
    fx: &'a Fx,
    private: &'a Path,
    file: &'a str,
    node: &'a str,
    version: &'a str,
    without: &'a [&'a str],
    extra_source: &'a str,
    extra_libs: Vec<&'a Path>,
}

impl<'a> WrapperFixture<'a> {
    /// Output file, relative to the fixture directory.
    fn file(mut self, file: &'a str) -> Self {
        self.file = file;
        self
    }
    fn node(mut self, node: &'a str) -> Self {
        self.node = node;
        self
    }
    fn version(mut self, version: &'a str) -> Self {
        self.version = version;
        self
    }
    /// Entry points without a stub.
    fn without(mut self, names: &'a [&'a str]) -> Self {
        self.without = names;
        self
    }
    /// C source appended to the stubs.
    fn extra_source(mut self, src: &'a str) -> Self {
        self.extra_source = src;
        self
    }
    /// Another library to link (a DT_NEEDED entry).
    fn linking(mut self, lib: &'a Path) -> Self {
        self.extra_libs.push(lib);
        self
    }
    fn build(self) -> PathBuf {
        let mut src = stamp(self.version);
        for f in API.iter().filter(|f| !self.without.contains(f)) {
            src.push_str(&format!("extern int {f}_impl(void *p);\nint {f}(void *p) {{ return {f}_impl(p); }}\n"));
        }
        src.push_str("int miopenGetLastForwardedError(void) { return 0; }\n");
        src.push_str(self.extra_source);
        let mut libs = vec![self.private];
        libs.extend(self.extra_libs);
        self.fx.shared(self.file, "libMIOpen.so.1", self.node, &src, &libs, &[])
    }
}

fn run_ok(cmd: &mut Command) {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed:\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Run `miopen-wrap check <args>`; (exit code, stdout+stderr).
fn check(args: &[&dyn AsRef<std::ffi::OsStr>]) -> (i32, String) {
    let out = Command::new(BIN).arg("check").args(args.iter().map(|a| a.as_ref())).output().expect("run miopen-wrap");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text)
}

fn assert_pass(gate: &str, (code, out): &(i32, String)) {
    assert_eq!(*code, 0, "expected PASS {gate}:\n{out}");
    assert!(out.contains(&format!("PASS {gate}:")), "no PASS line:\n{out}");
}

fn assert_fail(gate: &str, (code, out): &(i32, String), needles: &[&str]) {
    assert_eq!(*code, 1, "expected FAIL {gate} (exit 1):\n{out}");
    assert!(out.contains(&format!("FAIL {gate}:")), "no FAIL line:\n{out}");
    for n in needles {
        assert!(out.contains(n), "output does not name `{n}`:\n{out}");
    }
}

// ---------------------------------------------------------------- no-impl-exports

#[test]
fn no_impl_exports_passes_on_clean_wrapper() {
    let fx = Fx::new();
    let (_, w, _) = fx.standard();
    assert_pass("no-impl-exports", &check(&[&"no-impl-exports", &"--wrapper", &w]));
}

#[test]
fn no_impl_exports_fails_on_wrapper_exporting_impl() {
    let fx = Fx::new();
    let p = fx.private("libMIOpen_private.so.1", "libMIOpen_private.so.1", "3.4.0", &[]);
    let w = fx.wrapper(&p).extra_source("int miopenLeaky_impl(void) { return 1; }\n").build();
    let r = check(&[&"no-impl-exports", &"--wrapper", &w]);
    assert_fail("no-impl-exports", &r, &["miopenLeaky_impl@@MIOPEN_HIP_1"]);
}

// ---------------------------------------------------------------- superset

#[test]
fn superset_passes_and_lists_wrapper_only_additions() {
    let fx = Fx::new();
    let (p, w, _) = fx.standard();
    let r = check(&[&"superset", &"--wrapper", &w, &"--private", &p]);
    assert_pass("superset", &r);
    assert!(r.1.contains("all 4 _impl entry points"), "{}", r.1);
    assert!(r.1.contains("miopenGetLastForwardedError"), "addition not listed:\n{}", r.1);
}

#[test]
fn superset_fails_when_wrapper_misses_an_entry_point() {
    let fx = Fx::new();
    let p = fx.private("libMIOpen_private.so.1", "libMIOpen_private.so.1", "3.4.0", &[]);
    let w = fx.wrapper(&p).without(&["miopenDestroy"]).build();
    let r = check(&[&"superset", &"--wrapper", &w, &"--private", &p]);
    assert_fail("superset", &r, &["`miopenDestroy` is not exported", "miopenDestroy_impl"]);
}

// ---------------------------------------------------------------- no-dropped

#[test]
fn no_dropped_passes_with_same_version_nodes() {
    let fx = Fx::new();
    let (_, w, b) = fx.standard();
    let r = check(&[&"no-dropped", &"--wrapper", &w, &"--baseline", &b]);
    assert_pass("no-dropped", &r);
    assert!(r.1.contains("C++ `_Z` symbols skipped: 1"), "{}", r.1);
}

#[test]
fn no_dropped_accepts_the_wrapper_api_and_fails_on_an_unexpected_export() {
    let fx = Fx::new();
    let (p, _, b) = fx.standard();
    // The standard wrapper exports miopenGetLastForwardedError: accepted.
    let (_, w, _) = fx.standard();
    let r = check(&[&"no-dropped", &"--wrapper", &w, &"--baseline", &b]);
    assert_pass("no-dropped", &r);
    assert!(r.1.contains("no export beyond them but the wrapper's own (miopenGetLastForwardedError)"), "{}", r.1);
    let extra = "int miopenGlobalCounter = 3;\nint miopenSurpriseExport(void) { return 1; }\n";
    let w = fx.wrapper(&p).file("extra/libMIOpen.so.1").extra_source(extra).build();
    let r = check(&[&"no-dropped", &"--wrapper", &w, &"--baseline", &b]);
    assert_fail("no-dropped", &r, &["`miopenSurpriseExport` is exported by", "not a wrapper addition"]);
}

#[test]
fn no_dropped_fails_on_missing_entry_point() {
    let fx = Fx::new();
    let p = fx.private("libMIOpen_private.so.1", "libMIOpen_private.so.1", "3.4.0", &[]);
    let w = fx.wrapper(&p).without(&["miopenGetVersion"]).extra_source("int miopenGlobalCounter = 3;\n").build();
    let b = fx.baseline("baseline/libMIOpen.so.1", false, &[]);
    let r = check(&[&"no-dropped", &"--wrapper", &w, &"--baseline", &b]);
    assert_fail("no-dropped", &r, &["`miopenGetVersion@@MIOPEN_HIP_1` is exported by the baseline but not"]);
    // --ignore lets a packager accept a known, deliberate drop.
    let r = check(&[&"no-dropped", &"--wrapper", &w, &"--baseline", &b, &"--ignore", &"miopenGet*"]);
    assert_pass("no-dropped", &r);
}

#[test]
fn no_dropped_fails_on_different_version_node() {
    let fx = Fx::new();
    let p = fx.private("libMIOpen_private.so.1", "libMIOpen_private.so.1", "3.4.0", &[]);
    let w = fx.wrapper(&p).node("MIOPEN_HIP_2").extra_source("int miopenGlobalCounter = 3;\n").build();
    let b = fx.baseline("baseline/libMIOpen.so.1", false, &[]);
    let r = check(&[&"no-dropped", &"--wrapper", &w, &"--baseline", &b]);
    assert_fail(
        "no-dropped",
        &r,
        &["`miopenCreate@@MIOPEN_HIP_1` has a different version node", "miopenCreate@@MIOPEN_HIP_2"],
    );
}

// ------------------------------------------- no-dropped / abi: the export contract

/// MIOpen's lib.def shape: `miopen*` at the node, no `local: *;`, so every
/// other default-visibility symbol is exported unversioned.
const LEAKY_MAP: &str = "MIOPEN_HIP_1 { global: miopen*; local: *boost*; };\n";
/// Internal data objects of the kind MIOpen leaks (embedded kernel sizes,
/// environment-variable objects).
const INTERNAL_DATA: &str = "const unsigned long MIOPEN_KERNEL_CONV_SIZE = 42;\nint MIOPEN_DEBUG_CONV_X = 1;\n";

/// (baseline with unversioned internal exports, private library with or
/// without them, standard wrapper).
fn leaky_pair(fx: &Fx, private_keeps_internal: bool) -> (PathBuf, PathBuf, PathBuf) {
    let mut bsrc = String::from("typedef struct { int n; float f; } miopenThing;\n");
    for f in API {
        bsrc.push_str(&format!("int {f}(miopenThing *p) {{ return p->n; }}\n"));
    }
    bsrc.push_str("int miopenGlobalCounter = 3;\n");
    bsrc.push_str(INTERNAL_DATA);
    let b = fx.shared_with_map("leaky/libMIOpen.so.1", "libMIOpen.so.1", LEAKY_MAP, &bsrc, &[], &["-g"]);
    let mut psrc = stamp("3.4.0");
    for f in API {
        psrc.push_str(&format!("int {f}_impl(void *p) {{ return p != 0; }}\n"));
    }
    if private_keeps_internal {
        psrc.push_str(INTERNAL_DATA);
    }
    let p = fx.shared_with_map("leaky/libMIOpen_private.so.1", "libMIOpen_private.so.1", LEAKY_MAP, &psrc, &[], &[]);
    let w = fx.wrapper(&p).file("leaky/libMIOpen.so.1.w").extra_source("int miopenGlobalCounter = 3;\n").build();
    (b, p, w)
}

#[test]
fn no_dropped_and_abi_leave_internal_exports_to_the_private_library() {
    let fx = Fx::new();
    let (b, p, w) = leaky_pair(&fx, true);
    let r = check(&[&"no-dropped", &"--wrapper", &w, &"--baseline", &b, &"--private", &p]);
    assert_pass("no-dropped", &r);
    assert!(r.1.contains("baseline internal exports (unversioned in a versioned library; not API"), "{}", r.1);
    assert!(r.1.contains("2 internal export(s) left to the private library"), "{}", r.1);
    // abi applies the same contract: the internal objects are no removal.
    let r = check(&[&"abi", &"--baseline", &b, &"--wrapper", &w]);
    assert_pass("abi", &r);
    assert!(r.1.contains("2 internal export(s) of the baseline"), "{}", r.1);
    // Without --private, no-dropped says what it did not check.
    let r = check(&[&"no-dropped", &"--wrapper", &w, &"--baseline", &b]);
    assert_pass("no-dropped", &r);
    assert!(r.1.contains("not checked (--private"), "{}", r.1);
}

#[test]
fn no_dropped_fails_when_an_internal_export_is_gone_from_both_libraries() {
    let fx = Fx::new();
    let (b, p, w) = leaky_pair(&fx, false);
    let r = check(&[&"no-dropped", &"--wrapper", &w, &"--baseline", &b, &"--private", &p]);
    assert_fail("no-dropped", &r, &["`MIOPEN_DEBUG_CONV_X` (unversioned, internal)", "MIOPEN_KERNEL_CONV_SIZE"]);
}

#[test]
fn no_dropped_still_fails_on_a_dropped_versioned_survivor_of_a_leaky_baseline() {
    let fx = Fx::new();
    let (b, p, _) = leaky_pair(&fx, true);
    // An SQLite-extension-style C export matching `miopen*` is API (versioned).
    let w = fx.wrapper(&p).file("leaky2/libMIOpen.so.1").build();
    let r = check(&[&"no-dropped", &"--wrapper", &w, &"--baseline", &b, &"--private", &p]);
    assert_fail("no-dropped", &r, &["`miopenGlobalCounter@@MIOPEN_HIP_1` is exported by the baseline but not"]);
    let r = check(&[&"abi", &"--baseline", &b, &"--wrapper", &w]);
    assert_fail("abi", &r, &["miopenGlobalCounter"]);
}

// ---------------------------------------------------------------- needed

#[test]
fn needed_passes_on_standard_wrapper() {
    let fx = Fx::new();
    let (p, w, _) = fx.standard();
    let r = check(&[&"needed", &"--wrapper", &w, &"--private", &p]);
    assert_pass("needed", &r);
    assert!(r.1.contains("needs only libMIOpen_private.so.1 and the C runtime"), "{}", r.1);
}

#[test]
fn needed_fails_on_a_leaked_link_dependency() {
    let fx = Fx::new();
    let p = fx.private("libMIOpen_private.so.1", "libMIOpen_private.so.1", "3.4.0", &[]);
    let dep = fx.shared(
        "libboost_fake.so.1.74.0",
        "libboost_fake.so.1.74.0",
        "FAKE_1",
        "int miopen_fake(void) { return 0; }\n",
        &[],
        &[],
    );
    let w = fx.wrapper(&p).linking(&dep).build();
    let r = check(&[&"needed", &"--wrapper", &w, &"--private", &p]);
    assert_fail("needed", &r, &["has DT_NEEDED `libboost_fake.so.1.74.0`", "1 unexpected DT_NEEDED"]);
    // A deliberate extra dependency can be allowed by name.
    let r = check(&[&"needed", &"--wrapper", &w, &"--private", &p, &"--allow-needed", &"libboost_fake.so.*"]);
    assert_pass("needed", &r);
}

// ---------------------------------------------------------------- co-versioning

#[test]
fn co_versioning_passes_on_matching_pair() {
    let fx = Fx::new();
    let (p, w, _) = fx.standard();
    let r = check(&[
        &"co-versioning",
        &"--wrapper",
        &w,
        &"--private",
        &p,
        &"--expect-soname",
        &"libMIOpen.so.1",
        &"--expect-private-soname",
        &"libMIOpen_private.so.1",
    ]);
    assert_pass("co-versioning", &r);
    assert!(r.1.contains("= 3.4.0"), "{}", r.1);
}

#[test]
fn co_versioning_fails_on_mismatched_version_metadata() {
    let fx = Fx::new();
    let p = fx.private("libMIOpen_private.so.1", "libMIOpen_private.so.1", "3.4.0", &[]);
    let w = fx.wrapper(&p).version("3.5.0").build();
    let r = check(&[&"co-versioning", &"--wrapper", &w, &"--private", &p]);
    assert_fail(
        "co-versioning",
        &r,
        &["version metadata disagree", "libMIOpen.so.1 is 3.5.0", "libMIOpen_private.so.1 is 3.4.0"],
    );
}

#[test]
fn co_versioning_fails_without_version_section() {
    let fx = Fx::new();
    let p = fx.private("libMIOpen_private.so.1", "libMIOpen_private.so.1", "3.4.0", &[]);
    let w = fx.shared(
        "libMIOpen.so.1",
        "libMIOpen.so.1",
        "MIOPEN_HIP_1",
        "extern int miopenCreate_impl(void*);\nint miopenCreate(void *p) { return miopenCreate_impl(p); }\n",
        &[&p],
        &[],
    );
    let r = check(&[&"co-versioning", &"--wrapper", &w, &"--private", &p]);
    assert_fail("co-versioning", &r, &["libMIOpen.so.1 has no .miopen_version section"]);
}

#[test]
fn co_versioning_fails_on_soversion_skew_and_unexpected_soname() {
    let fx = Fx::new();
    // Private at SOVERSION 2, wrapper at SOVERSION 1 but linked against it.
    let p = fx.private("libMIOpen_private.so.2", "libMIOpen_private.so.2", "3.4.0", &[]);
    let w = fx.wrapper(&p).build();
    let r = check(&[&"co-versioning", &"--wrapper", &w, &"--private", &p, &"--expect-soname", &"libMIOpen.so.3"]);
    assert_fail("co-versioning", &r, &["SOVERSION mismatch", "libMIOpen_private.so.2", "expected `libMIOpen.so.3`"]);
}

#[test]
fn co_versioning_fails_when_wrapper_needs_another_private() {
    let fx = Fx::new();
    let p = fx.private("libMIOpen_private.so.1", "libMIOpen_private.so.1", "3.4.0", &[]);
    let w = fx.wrapper(&p).build();
    // A private library with another SONAME than the one the wrapper needs.
    let other = fx.private("other/libMIOpen_private.so.1", "libMIOpen_private-0badc0de.so", "3.4.0", &[]);
    let r = check(&[&"co-versioning", &"--wrapper", &w, &"--private", &other]);
    assert_fail("co-versioning", &r, &["has no DT_NEEDED `libMIOpen_private-0badc0de.so`", "`libMIOpen_private.so.1`"]);
}

/// What a wheel bundler does: copy both, give each a hashed SONAME and
/// point the wrapper's DT_NEEDED at the renamed private library.
fn bundle_rename(fx: &Fx, p: &Path, w: &Path, replace_needed: bool) -> (PathBuf, PathBuf) {
    std::fs::create_dir_all(fx.path("wheel")).expect("mkdir");
    let rp = fx.path("wheel/libMIOpen_private-7e3a9c1f.so");
    let rw = fx.path("wheel/libMIOpen-5d2b8e40.so");
    std::fs::copy(p, &rp).expect("copy");
    std::fs::copy(w, &rw).expect("copy");
    run_ok(Command::new("patchelf").args(["--set-soname", "libMIOpen_private-7e3a9c1f.so"]).arg(&rp));
    run_ok(Command::new("patchelf").args(["--set-soname", "libMIOpen-5d2b8e40.so"]).arg(&rw));
    if replace_needed {
        run_ok(
            Command::new("patchelf")
                .args(["--replace-needed", "libMIOpen_private.so.1", "libMIOpen_private-7e3a9c1f.so"])
                .arg(&rw),
        );
    }
    (rp, rw)
}

#[test]
fn renamed_pair_passes_co_versioning_and_superset() {
    let fx = Fx::new();
    let (p, w, _) = fx.standard();
    let (rp, rw) = bundle_rename(&fx, &p, &w, true);
    let r = check(&[&"co-versioning", &"--wrapper", &rw, &"--private", &rp]);
    assert_pass("co-versioning", &r);
    assert!(r.1.contains("renamed pair"), "{}", r.1);
    assert_pass("superset", &check(&[&"superset", &"--wrapper", &rw, &"--private", &rp]));
    assert_pass("no-impl-exports", &check(&[&"no-impl-exports", &"--wrapper", &rw]));
}

#[test]
fn renamed_pair_without_replace_needed_fails_co_versioning() {
    let fx = Fx::new();
    let (p, w, _) = fx.standard();
    let (rp, rw) = bundle_rename(&fx, &p, &w, false);
    let r = check(&[&"co-versioning", &"--wrapper", &rw, &"--private", &rp]);
    assert_fail("co-versioning", &r, &["has no DT_NEEDED `libMIOpen_private-7e3a9c1f.so`"]);
}

// ---------------------------------------------------------------- provider

fn provider_src(calls: &[&str]) -> String {
    let mut s = String::new();
    for c in calls {
        s.push_str(&format!("extern int {c}(void *p);\n"));
    }
    s.push_str("int provider_entry(void *p) { int r = 0;\n");
    for c in calls {
        s.push_str(&format!("  r += {c}(p);\n"));
    }
    s.push_str("  return r; }\n");
    s
}

#[test]
fn provider_passes_on_impl_only_plugin_and_objects() {
    let fx = Fx::new();
    let (p, w, _) = fx.standard();
    let so = fx.shared(
        "libmiopen_plugin.so",
        "libmiopen_plugin.so",
        "PLUGIN_1",
        &provider_src(&["miopenCreate_impl", "miopenDestroy_impl"]),
        &[&p],
        &[],
    );
    let r = check(&[&"provider", &"--private", &p, &"--wrapper", &w, &"--provider", &so]);
    assert_pass("provider", &r);
    // Object files (before linking) are read through their static symbol table.
    let c = fx.write("plugin_obj.c", &provider_src(&["miopenGetVersion_impl"]));
    let o = fx.path("plugin_obj.o");
    run_ok(Command::new("cc").args(["-c", "-fPIC", "-o"]).arg(&o).arg(&c));
    assert_pass("provider", &check(&[&"provider", &"--private", &p, &"--provider", &o, &so]));
}

#[test]
fn provider_fails_on_public_name_reference() {
    let fx = Fx::new();
    let (p, _, _) = fx.standard();
    let c = fx.write("bad_obj.c", &provider_src(&["miopenCreate_impl", "miopenDestroy"]));
    let o = fx.path("bad_obj.o");
    run_ok(Command::new("cc").args(["-c", "-fPIC", "-o"]).arg(&o).arg(&c));
    let r = check(&[&"provider", &"--private", &p, &"--provider", &o]);
    assert_fail("provider", &r, &["references public symbol `miopenDestroy`", "bad_obj.o"]);
}

#[test]
fn provider_fails_on_needed_wrapper_and_unknown_impl() {
    let fx = Fx::new();
    let (p, w, _) = fx.standard();
    let so = fx.shared(
        "libmiopen_plugin.so",
        "libmiopen_plugin.so",
        "PLUGIN_1",
        &provider_src(&["miopenCreate", "miopenNotThere_impl"]),
        &[&w, &p],
        &["-Wl,--allow-shlib-undefined"],
    );
    let r = check(&[&"provider", &"--private", &p, &"--wrapper", &w, &"--provider", &so]);
    assert_fail(
        "provider",
        &r,
        &[
            "has DT_NEEDED `libMIOpen.so.1`",
            "references public symbol `miopenCreate`",
            "references `miopenNotThere_impl`, which libMIOpen_private.so.1 does not export",
        ],
    );
}

// ---------------------------------------------------------------- hipdnn-independence

#[test]
fn hipdnn_independence_passes_on_standard_wrapper() {
    let fx = Fx::new();
    let (_, w, _) = fx.standard();
    assert_pass("hipdnn-independence", &check(&[&"hipdnn-independence", &"--wrapper", &w]));
}

#[test]
fn hipdnn_independence_fails_on_needed_hipdnn_backend() {
    let fx = Fx::new();
    let p = fx.private("libMIOpen_private.so.1", "libMIOpen_private.so.1", "3.4.0", &[]);
    let hip = fx.shared(
        "libhipdnn_backend.so",
        "libhipdnn_backend.so",
        "HIPDNN_1",
        "int hipdnnBackendCreateDescriptor(int t, void **d) { *d = 0; return t; }\n",
        &[],
        &[],
    );
    let w = fx.wrapper(&p).extra_source("extern int hipdnnBackendCreateDescriptor(int, void **) __attribute__((weak));\n\
         int miopenForward(void) { void *d; return hipdnnBackendCreateDescriptor ? hipdnnBackendCreateDescriptor(1, &d) : 0; }\n").linking(&hip).build();
    let r = check(&[&"hipdnn-independence", &"--wrapper", &w]);
    assert_fail(
        "hipdnn-independence",
        &r,
        &["has DT_NEEDED `libhipdnn_backend.so`", "undefined weak symbol `hipdnnBackendCreateDescriptor"],
    );
}

// ---------------------------------------------------------------- abi

#[test]
fn abi_passes_on_identical_debug_builds() {
    let fx = Fx::new();
    let a = fx.baseline("a/libMIOpen.so.1", true, &[]);
    let b = fx.baseline("b/libMIOpen.so.1", true, &[]);
    let r = check(&[&"abi", &"--baseline", &a, &"--wrapper", &b]);
    assert_pass("abi", &r);
    assert!(r.1.contains("abidiff"), "{}", r.1);
}

#[test]
fn abi_fails_on_removed_function() {
    let fx = Fx::new();
    let a = fx.baseline("a/libMIOpen.so.1", true, &[]);
    let b = fx.baseline("b/libMIOpen.so.1", true, &["miopenGetVersion"]);
    let r = check(&[&"abi", &"--baseline", &a, &"--wrapper", &b]);
    assert_fail("abi", &r, &["miopenGetVersion", "1 Removed"]);
}

#[test]
fn abi_fails_on_changed_c_signature() {
    let fx = Fx::new();
    let a = fx.baseline("a/libMIOpen.so.1", true, &[]);
    let src = "typedef struct { int n; float f; } miopenThing;\n\
               int miopenCreate(miopenThing *p) { return p->n; }\n\
               int miopenDestroy(miopenThing *p) { return p->n; }\n\
               int miopenGetVersion(miopenThing *p, int extra) { return p->n + extra; }\n\
               int miopenHiddenSetConvolutionFindMode(miopenThing *p) { return p->n; }\n\
               int miopenGlobalCounter = 3;\n\
               int miopen_internal(void) __asm__(\"_ZN6miopen8internalEv\");\nint miopen_internal(void) { return 7; }\n";
    let b = fx.shared("b/libMIOpen.so.1", "libMIOpen.so.1", "MIOPEN_HIP_1", src, &[], &["-g"]);
    let r = check(&[&"abi", &"--baseline", &a, &"--wrapper", &b]);
    assert_fail("abi", &r, &["miopenGetVersion", "changed"]);
}

// ---------------------------------------------------------------- headers

fn header_tree(fx: &Fx, public_extra: &str) -> PathBuf {
    let inc = fx.path("include");
    fx.write(
        "include/miopen/miopen.h",
        &format!(
            "#pragma once\n#include <miopen/config.h>\n/* implicit GEMM */\nint miopenCreate(void *handle);\n{public_extra}"
        ),
    );
    fx.write("include/miopen/config.h", "#define MIOPEN_BACKEND_HIP 1\n");
    fx.write("include/miopen/version.h", "#define MIOPEN_VERSION_MAJOR 3\n");
    fx.write("include/miopen_private/miopen/miopen_impl.h", "#pragma once\nint miopenCreate_impl(void *handle);\n");
    inc
}

#[test]
fn headers_pass_on_clean_tree_and_sources() {
    let fx = Fx::new();
    let inc = header_tree(&fx, "");
    fx.write("src/handle_api.cpp", "#include <miopen/miopen.h>\nint miopenCreate_impl(void *h) { return 0; }\n");
    let r = check(&[
        &"headers",
        &"--public-include",
        &inc,
        &"--private-include-subdir",
        &"miopen_private",
        &"--impl-sources",
        &fx.path("src"),
    ]);
    assert_pass("headers", &r);
    assert!(r.1.contains("holds miopen/miopen_impl.h"), "{}", r.1);
}

#[test]
fn headers_fail_on_public_header_mentioning_impl() {
    let fx = Fx::new();
    let inc = header_tree(&fx, "int miopenDestroy_impl(void *handle);\n");
    let r = check(&[&"headers", &"--public-include", &inc, &"--private-include-subdir", &"miopen_private"]);
    assert_fail("headers", &r, &["miopen/miopen.h:5: `miopenDestroy_impl`"]);
    // Without the private subtree option, miopen_impl.h itself is a leak.
    let r = check(&[&"headers", &"--public-include", &inc]);
    assert_fail("headers", &r, &["miopen_impl.h is in the public include tree"]);
}

#[test]
fn headers_fail_on_source_including_impl_header() {
    let fx = Fx::new();
    let inc = header_tree(&fx, "");
    fx.write("src/ok.cpp", "#include <miopen/miopen.h>\n");
    fx.write("src/conv/conv_api.cpp", "#include <vector>\n  #  include \"miopen/miopen_impl.h\"\n");
    let r = check(&[
        &"headers",
        &"--public-include",
        &inc,
        &"--private-include-subdir",
        &"miopen_private",
        &"--impl-sources",
        &fx.path("src"),
    ]);
    assert_fail("headers", &r, &["conv/conv_api.cpp:2: includes `miopen/miopen_impl.h`"]);
}

// ---------------------------------------------------------------- all + CLI

#[test]
fn all_runs_every_gate_with_inputs_and_summarises() {
    let fx = Fx::new();
    let (p, w, b) = fx.standard();
    let inc = header_tree(&fx, "");
    fx.write("src/a.cpp", "#include <miopen/miopen.h>\n");
    let so = fx.shared(
        "libmiopen_plugin.so",
        "libmiopen_plugin.so",
        "PLUGIN_1",
        &provider_src(&["miopenCreate_impl"]),
        &[&p],
        &[],
    );
    let (code, out) = check(&[
        &"all",
        &"--wrapper",
        &w,
        &"--private",
        &p,
        &"--baseline",
        &b,
        &"--provider",
        &so,
        &"--public-include",
        &inc,
        &"--private-include-subdir",
        &"miopen_private",
        &"--impl-sources",
        &fx.path("src"),
        &"--expect-soname",
        &"libMIOpen.so.1",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("9 passed, 0 failed"), "{out}");

    // Without optional inputs only the five gates on the pair run.
    let (code, out) = check(&[&"all", &"--wrapper", &w, &"--private", &p]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("5 passed, 0 failed"), "{out}");
    assert!(out.contains("not run: headers (inputs not given)"), "{out}");
}

#[test]
fn all_fails_and_counts_failures() {
    let fx = Fx::new();
    let p = fx.private("libMIOpen_private.so.1", "libMIOpen_private.so.1", "3.4.0", &[]);
    let w = fx
        .wrapper(&p)
        .version("3.5.0")
        .without(&["miopenDestroy"])
        .extra_source("int miopenLeaky_impl(void) { return 1; }\n")
        .build();
    let (code, out) = check(&[&"all", &"--wrapper", &w, &"--private", &p]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("2 passed, 3 failed (failed: no-impl-exports, superset, co-versioning)"), "{out}");
}

#[test]
fn cli_errors_exit_2() {
    let (code, out) =
        check(&[&"superset", &"--wrapper", &"/nonexistent/libMIOpen.so.1", &"--private", &"/nonexistent/p.so"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("FAIL superset: could not be evaluated"), "{out}");
    assert!(out.contains("/nonexistent/libMIOpen.so.1"), "{out}");
    let (code, _) = check(&[&"no-such-gate"]);
    assert_eq!(code, 2);
    // A misspelt gate name is a usage error, not a gate silently left in.
    let (code, out) = check(&[&"all", &"--wrapper", &"w.so", &"--private", &"p.so", &"--skip", &"abbi"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("invalid value 'abbi'") && out.contains("co-versioning"), "{out}");
    let fx = Fx::new();
    let not_elf = fx.write("libMIOpen.so.1", "not an ELF file");
    let (code, out) = check(&[&"no-impl-exports", &"--wrapper", &not_elf]);
    assert_eq!(code, 2, "{out}");
    let (code, out) = check(&[&"--help"]);
    assert_eq!(code, 0, "{out}");
    for g in [
        "headers",
        "no-impl-exports",
        "superset",
        "no-dropped",
        "co-versioning",
        "provider",
        "hipdnn-independence",
        "abi",
        "all",
    ] {
        assert!(out.contains(g), "help does not list {g}:\n{out}");
    }
}

#[test]
fn abi_include_cxx_compares_internal_symbols() {
    let fx = Fx::new();
    let (_, w, b) = fx.standard();
    assert_pass("abi", &check(&[&"abi", &"--baseline", &b, &"--wrapper", &w]));
    let r = check(&[&"abi", &"--baseline", &b, &"--wrapper", &w, &"--include-cxx"]);
    assert_fail("abi", &r, &["_ZN6miopen8internalEv"]);
}

/// The real wrapper's stubs are Rust: with `debug = 1` libabigail sees them
/// as `void f()` and reports every one "changed". Those are artifacts of the
/// debug info; a removed entry point must still fail.
#[test]
fn abi_ignores_rust_debug_info_artifacts_but_not_removals() {
    let fx = Fx::new();
    let base = fx.baseline("a/libMIOpen.so.1", true, &[]);
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".to_string());
    let build = |name: &str, skip: &[&str]| -> PathBuf {
        let mut src = String::from(
            "#![allow(non_snake_case, non_upper_case_globals)]\n#[repr(C)] pub struct MiopenThing { n: i32, f: f32 }\n",
        );
        for (i, f) in API.iter().enumerate().filter(|(_, f)| !skip.contains(f)) {
            src.push_str(&format!(
                "#[no_mangle] pub unsafe extern \"C\" fn {f}(p: *const MiopenThing) -> i32 {{ (*p).n + {i} }}\n"
            ));
        }
        src.push_str("#[no_mangle] pub static mut miopenGlobalCounter: i32 = 3;\n");
        let rs = fx.write(&format!("{name}.rs"), &src);
        let obj = fx.path(&format!("{name}.o"));
        run_ok(
            Command::new(&rustc)
                .args(["--crate-type=lib", "--emit=obj", "-C", "debuginfo=1", "-C", "panic=abort", "-O", "-o"])
                .arg(&obj)
                .arg(&rs),
        );
        let map = fx.write(&format!("{name}.map"), "MIOPEN_HIP_1 { global: miopen*; local: *; };\n");
        let so = fx.path(&format!("{name}/libMIOpen.so.1"));
        std::fs::create_dir_all(so.parent().expect("parent")).expect("mkdir");
        run_ok(
            Command::new("cc")
                .args(["-shared", "-fPIC", "-Wl,-soname,libMIOpen.so.1"])
                .arg(format!("-Wl,--version-script,{}", map.display()))
                .arg("-o")
                .arg(&so)
                .arg(&obj),
        );
        so
    };
    let good = build("rustwrap", &[]);
    let r = check(&[&"abi", &"--baseline", &base, &"--wrapper", &good]);
    assert_pass("abi", &r);
    assert!(r.1.contains("type-level artifacts"), "{}", r.1);
    let bad = build("rustwrap_missing", &["miopenDestroy"]);
    let r = check(&[&"abi", &"--baseline", &base, &"--wrapper", &bad]);
    assert_fail("abi", &r, &["miopenDestroy"]);
}

#[test]
fn abi_fails_on_soname_change_unless_ignored() {
    let fx = Fx::new();
    let (p, w, b) = fx.standard();
    let (_, rw) = bundle_rename(&fx, &p, &w, true);
    let r = check(&[&"abi", &"--baseline", &b, &"--wrapper", &rw]);
    assert_fail("abi", &r, &["SONAME changed from 'libMIOpen.so.1' to 'libMIOpen-5d2b8e40.so'"]);
    // A bundler-renamed pair is compared with abidiff's --ignore-soname.
    let r = check(&[&"abi", &"--baseline", &b, &"--wrapper", &rw, &"--abidiff-arg=--ignore-soname"]);
    assert_pass("abi", &r);
}

#[test]
fn provider_objects_may_reference_each_other() {
    let fx = Fx::new();
    let (p, _, _) = fx.standard();
    // plugin_a.o calls a helper that plugin_b.o defines; both are the plugin.
    let a = fx.write("plugin_a.c", &provider_src(&["miopenCreate_impl", "miopenProviderHelper"]));
    let b = fx.write("plugin_b.c", "int miopenProviderHelper(void *p) { return p != 0; }\n");
    let (ao, bo) = (fx.path("plugin_a.o"), fx.path("plugin_b.o"));
    run_ok(Command::new("cc").args(["-c", "-fPIC", "-o"]).arg(&ao).arg(&a));
    run_ok(Command::new("cc").args(["-c", "-fPIC", "-o"]).arg(&bo).arg(&b));
    assert_pass("provider", &check(&[&"provider", &"--private", &p, &"--provider", &ao, &bo]));
    // Alone, plugin_a.o's reference looks like a public MIOpen name.
    let r = check(&[&"provider", &"--private", &p, &"--provider", &ao]);
    assert_fail("provider", &r, &["references public symbol `miopenProviderHelper`"]);
}
