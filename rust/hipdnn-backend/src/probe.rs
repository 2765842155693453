//! Check, don't trust: what the wrapper depends on and a version string
//! cannot tell apart, asked of the loaded backend.
//!
//! Revisions of hipDNN's backend that report the same release numbered the
//! descriptor types differently (an older one had no pointwise operation and
//! put convolution backward-data at 18) and took `CONV_MODE` as a plain
//! INT64 rather than `HIPDNN_TYPE_CONVOLUTION_MODE`. Against such a backend
//! every forwarded convolution would fail at "set conv mode" with BAD_PARAM.
//! A [`Probe`] creates one descriptor of an operation type the wrapper
//! builds and sets one attribute only the pinned meaning of that type takes,
//! exactly as the graph builder will (no handle, no engine, nothing
//! executed), so a mismatch makes the backend (or one group of the wrapper)
//! unavailable with one diagnostic instead.
//!
//! Which probes run, and when, is the wrapper's business: each of its
//! family groups lists the operation types its graphs use. The loader runs
//! the list it is given when the backend loads (`loader::open`); [`probe`]
//! runs any other list later.

use std::ffi::c_void;
use std::ptr;

use crate::abi::{status, Descriptor};
use crate::api::Api;

/// One attribute set on a fresh descriptor of one type, with the ABI's
/// names of each number for the diagnostic.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Probe {
    pub descriptor: i32,
    pub descriptor_name: &'static str,
    pub attribute: i32,
    pub attribute_name: &'static str,
    pub attribute_type: i32,
    pub attribute_type_name: &'static str,
    /// The one element of the attribute's (enum) type set.
    pub value: i32,
}

/// Runs every probe of `probes`. `Err` is one sentence naming each
/// difference found.
pub fn probe<'a>(api: &Api, probes: impl IntoIterator<Item = &'a Probe>) -> Result<(), String> {
    let differences: Vec<String> = probes.into_iter().filter_map(|p| attempt(api, p).err()).collect();
    // The probes' failures must not become the message of a later failure.
    clear_last_error(api);
    if differences.is_empty() {
        Ok(())
    } else {
        Err(format!("its ABI differs from the one the wrapper pins: {}", differences.join("; ")))
    }
}

/// Creates the descriptor, sets the attribute, destroys the descriptor.
fn attempt(api: &Api, p: &Probe) -> Result<(), String> {
    let mut d: Descriptor = ptr::null_mut();
    // SAFETY: out-pointer to a local.
    let s = unsafe { (api.create_descriptor)(p.descriptor, &mut d) };
    if s != status::SUCCESS {
        return Err(format!(
            "descriptor type {} ({}) cannot be created ({})",
            p.descriptor,
            p.descriptor_name,
            status::name(s)
        ));
    }
    let value: *const c_void = (&p.value as *const i32).cast();
    // SAFETY: a descriptor just created; one element of the attribute's (enum) type.
    let s = unsafe { (api.set_attribute)(d, p.attribute, p.attribute_type, 1, value) };
    // SAFETY: created above, owned here.
    unsafe { (api.destroy_descriptor)(d) };
    if s == status::SUCCESS {
        return Ok(());
    }
    Err(format!(
        "descriptor type {} does not take {} ({}) as {} ({}), as the pinned {} does",
        p.descriptor,
        p.attribute_name,
        p.attribute,
        p.attribute_type_name,
        status::name(s),
        p.descriptor_name
    ))
}

fn clear_last_error(api: &Api) {
    let mut sink = [0 as std::ffi::c_char; 1];
    // SAFETY: a one-byte buffer of ours; the call copies and clears.
    unsafe { (api.get_last_error_string)(sink.as_mut_ptr(), sink.len()) };
}
