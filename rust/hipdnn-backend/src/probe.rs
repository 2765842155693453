//! Check, don't trust: what the wrapper depends on and a version string
//! cannot tell apart, asked of the loaded backend once.
//!
//! Revisions of hipDNN's backend that report the same release numbered the
//! descriptor types differently (an older one had no pointwise operation and
//! put convolution backward-data at 18) and took `CONV_MODE` as a plain
//! INT64 rather than `HIPDNN_TYPE_CONVOLUTION_MODE`. Against such a backend
//! every forwarded convolution would fail at "set conv mode" with BAD_PARAM.
//! The probe creates one descriptor of each operation type the wrapper builds
//! and sets one attribute only the pinned meaning of that type takes, exactly
//! as the graph builder will (no handle, no engine, nothing executed), so a
//! mismatch makes the backend unavailable with one diagnostic instead.
//!
//! The probes are per family group. The convolution group's ([`BASELINE`])
//! run when the backend loads ([`probe`], from `loader::open`): they are the
//! forwarding set of the RFC and the types every other group's graph is
//! checked against. Another group's ([`GROUPS`]) run at that group's first
//! forwarded call ([`probe_group`]), so a backend that lacks or renumbers,
//! say, the batchnorm types makes only the batchnorm group unavailable and
//! convolution still forwards.

use std::ffi::c_void;
use std::ptr;

use crate::abi::{attr, attr_type, conv_mode, data_type, descriptor_type, pointwise_mode, status, Descriptor};
use crate::api::Api;

/// One attribute set on a fresh descriptor of one type.
pub struct Probe {
    descriptor: i32,
    descriptor_name: &'static str,
    attribute: i32,
    attribute_name: &'static str,
    attribute_type: i32,
    attribute_type_name: &'static str,
    value: i32,
}

const fn conv_mode_on(descriptor: i32, descriptor_name: &'static str) -> Probe {
    Probe {
        descriptor,
        descriptor_name,
        attribute: attr::CONVOLUTION_CONV_MODE,
        attribute_name: "CONVOLUTION_CONV_MODE",
        attribute_type: attr_type::CONVOLUTION_MODE,
        attribute_type_name: "HIPDNN_TYPE_CONVOLUTION_MODE",
        value: conv_mode::CROSS_CORRELATION,
    }
}

/// The compute type (FLOAT) set as a DATA_TYPE: an attribute only the
/// pinned meaning of a batchnorm operation type takes.
const fn compute_type_on(
    descriptor: i32,
    descriptor_name: &'static str,
    attribute: i32,
    attribute_name: &'static str,
) -> Probe {
    Probe {
        descriptor,
        descriptor_name,
        attribute,
        attribute_name,
        attribute_type: attr_type::DATA_TYPE,
        attribute_type_name: "HIPDNN_TYPE_DATA_TYPE",
        value: data_type::FLOAT,
    }
}

/// The numbering and attribute types the convolution group's graph builder
/// relies on. Each line fails on a backend whose type number means something
/// else or that takes the attribute with another type.
const BASELINE: [Probe; 4] = [
    conv_mode_on(descriptor_type::OPERATION_CONVOLUTION_FORWARD, "OPERATION_CONVOLUTION_FORWARD"),
    conv_mode_on(descriptor_type::OPERATION_CONVOLUTION_BACKWARD_FILTER, "OPERATION_CONVOLUTION_BACKWARD_FILTER"),
    conv_mode_on(descriptor_type::OPERATION_CONVOLUTION_BACKWARD_DATA, "OPERATION_CONVOLUTION_BACKWARD_DATA"),
    Probe {
        descriptor: descriptor_type::OPERATION_POINTWISE,
        descriptor_name: "OPERATION_POINTWISE",
        attribute: attr::POINTWISE_MODE,
        attribute_name: "POINTWISE_MODE",
        attribute_type: attr_type::POINTWISE_MODE,
        attribute_type_name: "HIPDNN_TYPE_POINTWISE_MODE",
        value: pointwise_mode::RELU_FWD,
    },
];

/// The batchnorm group's operation types: inference with variance (21),
/// training (27), backward (20), each with its compute-type attribute.
const BATCHNORM: [Probe; 3] = [
    compute_type_on(
        descriptor_type::OPERATION_BATCHNORM_INFERENCE_VARIANCE_EXT,
        "OPERATION_BATCHNORM_INFERENCE_VARIANCE_EXT",
        attr::BATCHNORM_INF_VAR_COMP_TYPE_EXT,
        "BATCHNORM_INF_VAR_COMP_TYPE_EXT",
    ),
    compute_type_on(
        descriptor_type::OPERATION_BATCHNORM_EXT,
        "OPERATION_BATCHNORM_EXT",
        attr::BATCHNORM_COMP_TYPE_EXT,
        "BATCHNORM_COMP_TYPE_EXT",
    ),
    compute_type_on(
        descriptor_type::OPERATION_BATCHNORM_BACKWARD_EXT,
        "OPERATION_BATCHNORM_BACKWARD_EXT",
        attr::BATCHNORM_BACKWARD_COMP_TYPE_EXT,
        "BATCHNORM_BACKWARD_COMP_TYPE_EXT",
    ),
];

/// The probes of the groups checked at their first call, by the group's
/// `MIOPEN_DISABLE_HIPDNN_FOR` name. A group not listed (fusion, Find 2.0:
/// the convolution's types) has nothing beyond [`BASELINE`].
pub const GROUPS: &[(&str, &[Probe])] = &[("batchnorm", &BATCHNORM)];

/// The baseline probes, at load. `Err` is one sentence naming each
/// difference found.
pub fn probe(api: &Api) -> Result<(), String> {
    run(api, &BASELINE)
}

/// The probes of the group named `group` ([`GROUPS`]; `Ok` for a group
/// without any). `Err` is one sentence naming each difference found.
pub fn probe_group(api: &Api, group: &str) -> Result<(), String> {
    match GROUPS.iter().find(|(name, _)| *name == group) {
        Some((_, probes)) => run(api, probes),
        None => Ok(()),
    }
}

fn run(api: &Api, probes: &[Probe]) -> Result<(), String> {
    let differences: Vec<String> = probes.iter().filter_map(|p| attempt(api, p).err()).collect();
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
