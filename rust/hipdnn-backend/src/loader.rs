//! Finding, opening and version-gating `libhipdnn_backend.so`.
//!
//! The search order follows hipDNN's own dynamic-loading convention so that a
//! deployment configured for hipDNN's frontend also works for the wrapper:
//!
//! 1. a programmatic override directory, else the directory named by
//!    `HIPDNN_BACKEND_LIBRARY_PATH` (absolute only);
//! 2. the directory of the calling module (libMIOpen.so);
//! 3. that directory's siblings `../lib` and `../lib64`;
//! 4. the bare file name, left to the system loader.
//!
//! Under secure execution (`getauxval(AT_SECURE) != 0`: setuid, setgid, file
//! capabilities) only 1's programmatic override and 4 remain, as in
//! hipDNN's own resolution (`resolveBackendLibrary`,
//! projects/hipdnn/frontend/include/hipdnn_frontend/detail/DynamicBackendLibrary.hpp
//! @ d2c2fd9 in ROCm/rocm-libraries): the environment is not trusted, and
//! a directory computed from where a module lies is not restricted the way
//! the system loader restricts its own search (`$ORIGIN`, `LD_*`) for
//! such a process.
//!
//! [`search_plan`] is pure (inputs in, candidates and warnings out) so the
//! order is unit-tested without touching the filesystem; [`load_from`] does
//! the I/O. The first candidate that opens is *the* backend: if it lacks a
//! pinned symbol, reports a version the gate refuses ([`crate::version`]) or
//! fails the probes it is opened with ([`crate::probe`], in [`open`]) that is an error, not a
//! reason to keep searching, so a misconfiguration is reported rather than
//! silently papered over by some other copy further down the list.

use std::ffi::{CStr, OsString};
use std::path::{Component, Path, PathBuf};

use libloading::os::unix::{Library, RTLD_LOCAL, RTLD_NOW};

use crate::api::Api;
use crate::probe::{self, Probe};
use crate::version::{self, Version};

/// The backend's file name.
pub const LIBRARY_NAME: &str = "libhipdnn_backend.so";
/// Environment variable naming the absolute directory that holds [`LIBRARY_NAME`].
pub const BACKEND_PATH_VAR: &str = "HIPDNN_BACKEND_LIBRARY_PATH";

/// Everything the search order depends on, gathered up front so that
/// [`search_plan`] stays pure.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInputs {
    /// `getauxval(AT_SECURE) != 0`: environment-derived locations are ignored.
    pub secure_execution: bool,
    /// Programmatic override directory (beats the environment variable).
    pub override_dir: Option<PathBuf>,
    /// The raw value of `HIPDNN_BACKEND_LIBRARY_PATH`, if set.
    pub env_dir: Option<OsString>,
    /// The directory of the calling module (libMIOpen.so), if known.
    pub module_dir: Option<PathBuf>,
}

impl SearchInputs {
    /// Inputs of this process: the environment variable and `AT_SECURE`;
    /// `module_dir` comes from the caller (it knows which module it is).
    pub fn from_process(module_dir: Option<PathBuf>) -> Self {
        // SAFETY: getauxval only reads the process's auxiliary vector.
        Self::from_auxv(module_dir, |kind| unsafe { libc::getauxval(kind) })
    }

    /// [`Self::from_process`] with `getauxval` given (a test simulates a
    /// secure-execution process with it).
    pub fn from_auxv(module_dir: Option<PathBuf>, getauxval: impl Fn(libc::c_ulong) -> libc::c_ulong) -> Self {
        let secure_execution = getauxval(libc::AT_SECURE) != 0;
        SearchInputs { secure_execution, override_dir: None, env_dir: std::env::var_os(BACKEND_PATH_VAR), module_dir }
    }
}

/// One place to try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Which rule produced it: "override", "HIPDNN_BACKEND_LIBRARY_PATH",
    /// "libMIOpen.so directory", "../lib", "../lib64" or "system loader".
    pub source: &'static str,
    /// An absolute file path, or the bare [`LIBRARY_NAME`] for the system loader.
    pub path: PathBuf,
}

/// The ordered candidates and the warnings about ignored settings.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    pub candidates: Vec<Candidate>,
    pub warnings: Vec<String>,
}

impl Plan {
    /// Adds a candidate unless the same path is already planned (e.g. a
    /// module in `/opt/rocm/lib` whose `../lib` is itself).
    fn push(&mut self, source: &'static str, path: PathBuf) {
        if !self.candidates.iter().any(|c| c.path == path) {
            self.candidates.push(Candidate { source, path });
        }
    }
}

/// The search order for `inputs` (no filesystem access).
pub fn search_plan(inputs: &SearchInputs) -> Plan {
    let mut plan = Plan::default();
    let mut overridden = false;
    if let Some(dir) = &inputs.override_dir {
        if dir.is_absolute() {
            plan.push("override", dir.join(LIBRARY_NAME));
            overridden = true;
        } else {
            plan.warnings
                .push(format!("the hipDNN backend override directory `{}` is not absolute; ignored", dir.display()));
        }
    }
    if let Some(env) = &inputs.env_dir {
        let shown = Path::new(env).display();
        if inputs.secure_execution {
            plan.warnings.push(format!(
                "{BACKEND_PATH_VAR} is ignored: the process runs under secure execution \
                 (setuid, setgid or file capabilities), where the environment is not trusted"
            ));
        } else if overridden {
            plan.warnings
                .push(format!("{BACKEND_PATH_VAR}=`{shown}` is ignored: a programmatic override directory is set"));
        } else if env.is_empty() {
            plan.warnings.push(format!(
                "{BACKEND_PATH_VAR} is set but empty; ignored (it must name the absolute directory \
                 that holds {LIBRARY_NAME})"
            ));
        } else if !Path::new(env).is_absolute() {
            plan.warnings.push(format!(
                "{BACKEND_PATH_VAR}=`{shown}` is not an absolute directory; ignored (it must name \
                 the absolute directory that holds {LIBRARY_NAME})"
            ));
        } else {
            plan.push(BACKEND_PATH_VAR, Path::new(env).join(LIBRARY_NAME));
        }
    }
    match &inputs.module_dir {
        // hipDNN's rule: no computed directory under secure execution.
        _ if inputs.secure_execution => {}
        Some(dir) if dir.is_absolute() => {
            plan.push("libMIOpen.so directory", dir.join(LIBRARY_NAME));
            let parent = parent_dir(dir);
            plan.push("../lib", parent.join("lib").join(LIBRARY_NAME));
            plan.push("../lib64", parent.join("lib64").join(LIBRARY_NAME));
        }
        Some(dir) => plan.warnings.push(format!(
            "the directory of libMIOpen.so (`{}`) is relative; the locations next to it are not searched",
            dir.display()
        )),
        None => {}
    }
    plan.push("system loader", PathBuf::from(LIBRARY_NAME));
    plan
}

/// `dir/..`, written without `..` when the last component is a plain name
/// (keeps diagnostics readable and lets duplicates be recognised).
fn parent_dir(dir: &Path) -> PathBuf {
    match (dir.components().next_back(), dir.parent()) {
        (Some(Component::Normal(_)), Some(parent)) => parent.to_path_buf(),
        _ => dir.join(".."),
    }
}

/// A loaded backend. Dropping it unloads the library, so the wrapper keeps
/// it for the life of the process (plans and handles hold its code).
#[derive(Debug)]
pub struct Backend {
    pub api: Api,
    /// The candidate path that was opened (absolute, or the bare name).
    pub path: PathBuf,
    /// What `hipdnnVersionString_ext` returned, parsed.
    pub version: Version,
    _lib: libloading::Library,
}

/// Why no backend is available. Each message says what is wrong and what to set.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error(
        "{LIBRARY_NAME} was not found or could not be opened; searched: {}; set {BACKEND_PATH_VAR} \
         to the absolute directory that holds {LIBRARY_NAME}",
        .searched.join("; ")
    )]
    NotFound {
        /// "source: path (reason)" for each candidate, in search order.
        searched: Vec<String>,
    },
    #[error(
        "`{}` is not a usable hipDNN backend: it does not export `{symbol}`; set {BACKEND_PATH_VAR} \
         to the absolute directory that holds a hipDNN {LIBRARY_NAME} of version {}",
        .path.display(), version::accepted()
    )]
    MissingSymbol { path: PathBuf, symbol: &'static str },
    #[error(
        "`{}` reports hipDNN version `{version}`, which is not MAJOR.MINOR.PATCH[.TWEAK]; set \
         {BACKEND_PATH_VAR} to the absolute directory that holds a hipDNN {LIBRARY_NAME} of version {}",
        .path.display(), version::accepted()
    )]
    BadVersion { path: PathBuf, version: String },
    #[error(
        "`{}` is hipDNN version {version}, which the wrapper is not verified against (it accepts {}); \
         set {BACKEND_PATH_VAR} to the absolute directory that holds such a {LIBRARY_NAME}",
        .path.display(), version::accepted()
    )]
    Unverified { path: PathBuf, version: Version },
    #[error(
        "`{}` (hipDNN version {version}) cannot be used: {why}; set {BACKEND_PATH_VAR} to the absolute \
         directory that holds a {LIBRARY_NAME} of version {} built from a revision the wrapper pins \
         (docs/hipdnn-compatibility.md)",
        .path.display(), version::accepted()
    )]
    AbiMismatch { path: PathBuf, version: Version, why: String },
}

/// Plans the search for `inputs` and loads it ([`load_from`]: symbols and
/// version gate, no probe). The plan's warnings are dropped; the wrapper
/// uses [`search_plan`] and [`open`].
pub fn load(inputs: &SearchInputs) -> Result<Backend, LoadError> {
    load_from(&search_plan(inputs))
}

/// [`load_from`], then `probes` ([`probe::probe`]: what every use of the
/// backend relies on, the caller's list): the backend the wrapper uses.
pub fn open(plan: &Plan, probes: &[&Probe]) -> Result<Backend, LoadError> {
    let b = load_from(plan)?;
    match probe::probe(&b.api, probes.iter().copied()) {
        Ok(()) => Ok(b),
        Err(why) => Err(LoadError::AbiMismatch { path: b.path.clone(), version: b.version.clone(), why }),
    }
}

/// Opens the first candidate of `plan` that the dynamic loader accepts, then
/// resolves the pinned symbols and gates the version (no probe).
pub fn load_from(plan: &Plan) -> Result<Backend, LoadError> {
    let mut searched = Vec::new();
    for c in &plan.candidates {
        // Absolute candidates that do not exist are skipped so the failure
        // list says "no such file" rather than a loader message.
        if c.path.is_absolute() && !c.path.exists() {
            searched.push(format!("{}: {} (no such file)", c.source, c.path.display()));
            continue;
        }
        // RTLD_LOCAL: the backend's symbols must not satisfy anyone else's
        // references (the process may hold another hipDNN). RTLD_NOW: an
        // unresolvable backend fails here, not at its first call.
        // SAFETY: opening runs the library's initialisers; the search order
        // only yields locations the user or the installation chose.
        match unsafe { Library::open(Some(&c.path), RTLD_NOW | RTLD_LOCAL) } {
            Ok(lib) => return check(lib, c.path.clone()),
            Err(e) => searched.push(format!("{}: {} ({e})", c.source, c.path.display())),
        }
    }
    Err(LoadError::NotFound { searched })
}

/// Resolves the table and gates the version of the library that opened.
fn check(lib: Library, path: PathBuf) -> Result<Backend, LoadError> {
    // SAFETY: the file is named libhipdnn_backend.so and exports hipDNN's
    // names; their signatures are hipDNN's (pinned in `api`).
    let api =
        unsafe { Api::resolve(&lib) }.map_err(|symbol| LoadError::MissingSymbol { path: path.clone(), symbol })?;
    // SAFETY: takes no arguments; returns NULL or a static C string.
    let raw = unsafe { (api.version_string)() };
    if raw.is_null() {
        let version = "(none: hipdnnVersionString_ext returned NULL)".to_string();
        return Err(LoadError::BadVersion { path, version });
    }
    // SAFETY: non-NULL, NUL-terminated, static lifetime per the ABI.
    let reported = unsafe { CStr::from_ptr(raw) }.to_string_lossy().into_owned();
    let Some(version) = Version::parse(&reported) else {
        return Err(LoadError::BadVersion { path, version: reported });
    };
    if !version::is_verified(&version) {
        return Err(LoadError::Unverified { path, version });
    }
    Ok(Backend { api, path, version, _lib: lib.into() })
}

#[cfg(test)]
mod tests;
