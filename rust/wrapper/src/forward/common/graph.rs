//! Building a hipDNN execution plan through the backend descriptor API, in
//! the order hipDNN's frontend lowers a graph: tensors, operations (the
//! group's [`Operations`]), operation graph, heuristic (fallback mode),
//! engine configurations, execution plan. Executing it builds a variant
//! pack per call.

use std::ffi::c_void;
use std::ptr;

use hipdnn_backend::abi::{attr, attr_type, data_type, descriptor_type, heur_mode};
use hipdnn_backend::abi::{status, Descriptor, Handle, Status};
use hipdnn_backend::api::Api;
use hipdnn_backend::knob;
use miopen_forwarding_core::graph_key::{GraphKey, Knobs};
use miopen_forwarding_core::tensor::{ElemType, TensorSpec};

/// A group's part of a graph: the operations (and the tensors they use) of
/// its graph spec, made with the builder. The group whose calls build the
/// plan passes it; it is called for that group's specs only (and fails
/// with [`not_this_group`] for another type).
pub type Operations = fn(&mut Builder, &dyn GraphKey) -> Result<Vec<Descriptor>, Failure>;

/// A hipDNN call that failed: which step, its status and the backend's message.
#[derive(Debug, Clone)]
pub struct Failure {
    pub step: &'static str,
    pub status: Status,
    pub message: String,
}

/// Why no plan was built.
#[derive(Debug, Clone)]
pub enum BuildError {
    /// hipDNN cannot run the graph, in either of the forms its heuristic
    /// reports that: no engine configuration (no installed engine takes the
    /// graph, or none is installed), or a heuristic that fails to finalize
    /// (it had candidates but none of its policies chose one, e.g. an
    /// engine order naming none of them). Nothing ran; the call is declined
    /// to MIOpen. The text says which form it was.
    NoEngine(String),
    /// A genuine hipDNN failure, returned to the caller.
    Failed(Failure),
}

/// A finalized execution plan and every descriptor it was built from. The
/// descriptors are released when the plan leaves the plan cache.
pub struct Plan {
    api: &'static Api,
    plan: Descriptor,
    owned: Vec<Descriptor>,
    /// Workspace bytes the plan needs (the caller's workspace is used).
    pub workspace: usize,
}

// SAFETY: the descriptors are only read by hipDNN after finalization, and a
// plan is executed on the MIOpen handle (hence the hipDNN handle) that built
// it, under the caller's own serialization of that handle.
unsafe impl Send for Plan {}
unsafe impl Sync for Plan {}

impl Drop for Plan {
    fn drop(&mut self) {
        // SAFETY: every descriptor was created by this backend and is owned here.
        unsafe {
            (self.api.destroy_descriptor)(self.plan);
            for d in self.owned.drain(..).rev() {
                (self.api.destroy_descriptor)(d);
            }
        }
    }
}

/// One descriptor, released when dropped: the per-call variant pack, owned
/// without the allocation a [`Builder`]'s list would cost on every call.
struct Released {
    d: Descriptor,
    api: &'static Api,
}

impl Drop for Released {
    fn drop(&mut self) {
        // SAFETY: created by this backend, owned here.
        unsafe { (self.api.destroy_descriptor)(self.d) };
    }
}

/// Descriptors under construction; released on any early return.
pub struct Builder {
    api: &'static Api,
    owned: Vec<Descriptor>,
}

impl Drop for Builder {
    fn drop(&mut self) {
        for d in self.owned.drain(..).rev() {
            // SAFETY: created by this backend, owned by the builder.
            unsafe { (self.api.destroy_descriptor)(d) };
        }
    }
}

impl Builder {
    pub fn fail(&self, step: &'static str, s: Status) -> Failure {
        Failure { step, status: s, message: last_error(self.api) }
    }

    pub fn check(&self, step: &'static str, s: Status) -> Result<(), Failure> {
        if s == status::SUCCESS {
            Ok(())
        } else {
            Err(self.fail(step, s))
        }
    }

    pub fn create(&mut self, ty: i32, step: &'static str) -> Result<Descriptor, Failure> {
        let d = self.create_released(ty, step)?;
        let d = std::mem::ManuallyDrop::new(d).d;
        self.owned.push(d);
        Ok(d)
    }

    /// A descriptor owned by the returned guard rather than the builder.
    fn create_released(&self, ty: i32, step: &'static str) -> Result<Released, Failure> {
        let mut d: Descriptor = ptr::null_mut();
        // SAFETY: out-pointer to a local.
        self.check(step, unsafe { (self.api.create_descriptor)(ty, &mut d) })?;
        Ok(Released { d, api: self.api })
    }

    pub fn set<T>(&self, d: Descriptor, name: i32, ty: i32, values: &[T], step: &'static str) -> Result<(), Failure> {
        // SAFETY: `values` outlives the call; hipDNN copies what it keeps.
        let s = unsafe { (self.api.set_attribute)(d, name, ty, values.len() as i64, values.as_ptr().cast()) };
        self.check(step, s)
    }

    pub fn finalize(&self, d: Descriptor, step: &'static str) -> Result<(), Failure> {
        // SAFETY: a descriptor this builder owns.
        self.check(step, unsafe { (self.api.finalize)(d) })
    }

    pub fn tensor(&mut self, t: &TensorSpec) -> Result<Descriptor, Failure> {
        let d = self.create(descriptor_type::TENSOR, "create tensor")?;
        self.set(d, attr::TENSOR_UNIQUE_ID, attr_type::INT64, &[t.uid], "tensor id")?;
        self.set(d, attr::TENSOR_NAME_EXT, attr_type::CHAR, t.name.as_bytes(), "tensor name")?;
        self.set(d, attr::TENSOR_DATA_TYPE, attr_type::DATA_TYPE, &[hipdnn_type(t.dtype)], "tensor type")?;
        self.set(d, attr::TENSOR_DIMENSIONS, attr_type::INT64, &t.dims, "tensor dims")?;
        self.set(d, attr::TENSOR_STRIDES, attr_type::INT64, &t.strides, "tensor strides")?;
        self.set(d, attr::TENSOR_IS_VIRTUAL, attr_type::BOOLEAN, &[t.is_virtual as u8], "tensor virtual")?;
        self.finalize(d, "finalize tensor")?;
        Ok(d)
    }

    /// A pass-by-value scalar tensor (`TENSOR_VALUE_EXT`): one element of
    /// `dtype`, its bytes sent as CHAR after the type, as hipDNN's tensor
    /// descriptor requires. It takes no variant-pack pointer.
    pub fn value_tensor(&mut self, uid: i64, name: &str, dtype: i32, bytes: &[u8]) -> Result<Descriptor, Failure> {
        let d = self.create(descriptor_type::TENSOR, "create value tensor")?;
        self.set(d, attr::TENSOR_UNIQUE_ID, attr_type::INT64, &[uid], "value tensor id")?;
        self.set(d, attr::TENSOR_NAME_EXT, attr_type::CHAR, name.as_bytes(), "value tensor name")?;
        self.set(d, attr::TENSOR_DATA_TYPE, attr_type::DATA_TYPE, &[dtype], "value tensor type")?;
        self.set(d, attr::TENSOR_DIMENSIONS, attr_type::INT64, &[1i64], "value tensor dims")?;
        self.set(d, attr::TENSOR_STRIDES, attr_type::INT64, &[1i64], "value tensor strides")?;
        self.set(d, attr::TENSOR_VALUE_EXT, attr_type::CHAR, bytes, "value tensor value")?;
        self.finalize(d, "finalize value tensor")?;
        Ok(d)
    }
}

/// The failure of a group's [`Operations`] handed a spec of another type (a
/// wiring mistake, reported rather than panicking).
pub fn not_this_group(step: &'static str) -> Failure {
    Failure { step, status: status::INTERNAL_ERROR, message: "graph spec of another family".into() }
}

/// hipDNN's number of an element type.
pub fn hipdnn_type(t: ElemType) -> i32 {
    match t {
        ElemType::F32 => data_type::FLOAT,
        ElemType::F16 => data_type::HALF,
        ElemType::BF16 => data_type::BFLOAT16,
    }
}

/// The backend's message for the last failure on this thread.
pub fn last_error(api: &Api) -> String {
    let mut buf = [0u8; 512];
    // SAFETY: the buffer and its size are ours.
    unsafe { (api.get_last_error_string)(buf.as_mut_ptr().cast(), buf.len()) };
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..end]).into_owned()
}

/// The byte alignment of every tensor the wrapper builds: hipDNN's default,
/// so `TENSOR_BYTE_ALIGNMENT` is not sent (as hipDNN's frontend does not for
/// the default). A call whose data pointer is not a multiple of it is
/// declined before hipDNN sees it (the backend would reject it at execute
/// with BAD_PARAM, where MIOpen runs it).
pub const DATA_ALIGNMENT: usize = hipdnn_backend::abi::DEFAULT_TENSOR_ALIGNMENT as usize;

/// Build and finalize the plan of `key` on hipDNN handle `h`, its
/// operations made by the group's `ops`.
pub fn build(
    api: &'static Api,
    h: Handle,
    key: &dyn GraphKey,
    knobs: Knobs,
    ops: Operations,
) -> Result<Plan, BuildError> {
    let mut b = Builder { api, owned: Vec::new() };
    let fail = BuildError::Failed;
    let ops = ops(&mut b, key).map_err(fail)?;
    let graph = b.create(descriptor_type::OPERATIONGRAPH, "create graph").map_err(fail)?;
    b.set(graph, attr::OPERATIONGRAPH_HANDLE, attr_type::HANDLE, &[h], "graph handle").map_err(fail)?;
    b.set(graph, attr::OPERATIONGRAPH_OPS, attr_type::BACKEND_DESCRIPTOR, &ops, "graph ops").map_err(fail)?;
    b.finalize(graph, "finalize graph").map_err(fail)?;
    let cfgs = engine_configs(&mut b, graph)?;
    let choices = knob_choices(&mut b, knobs).map_err(fail)?;
    let (plan, workspace) = first_plan(&mut b, h, &cfgs, &choices)?;
    let owned = std::mem::take(&mut b.owned);
    Ok(Plan { api, plan, owned, workspace })
}

/// The heuristic's engine configurations for the graph (fallback mode).
fn engine_configs(b: &mut Builder, graph: Descriptor) -> Result<Vec<Descriptor>, BuildError> {
    let fail = BuildError::Failed;
    let heur = b.create(descriptor_type::ENGINEHEUR, "create heuristic").map_err(fail)?;
    b.set(heur, attr::ENGINEHEUR_OPERATION_GRAPH, attr_type::BACKEND_DESCRIPTOR, &[graph], "heuristic graph")
        .map_err(fail)?;
    b.set(heur, attr::ENGINEHEUR_MODE, attr_type::HEUR_MODE, &[heur_mode::FALLBACK], "heuristic mode").map_err(fail)?;
    match b.finalize(heur, "finalize heuristic") {
        Err(f) if f.status == status::INTERNAL_ERROR => {
            return Err(BuildError::NoEngine(format!(
                "hipDNN has no engine for this problem (its heuristic failed: {}: {})",
                status::name(f.status),
                f.message
            )))
        }
        other => other.map_err(fail)?,
    }
    let mut count = 0i64;
    let get = b.api.get_attribute;
    let bd = attr_type::BACKEND_DESCRIPTOR;
    // SAFETY: count query with a null array, as the backend API defines it.
    let s = unsafe { get(heur, attr::ENGINEHEUR_RESULTS, bd, 0, &mut count, ptr::null_mut()) };
    b.check("heuristic result count", s).map_err(fail)?;
    if count <= 0 {
        return Err(no_configuration());
    }
    // The backend's count is untrusted: a few configurations are all the
    // first-that-finalizes policy needs, and no more are created or asked for.
    let count = count.min(MAX_ENGINE_CONFIGS);
    let mut cfgs = Vec::with_capacity(count as usize);
    for _ in 0..count {
        cfgs.push(b.create(descriptor_type::ENGINECFG, "create engine config").map_err(fail)?);
    }
    let mut got = 0i64;
    // SAFETY: `cfgs` holds `count` created descriptors for the backend to fill.
    let s = unsafe { get(heur, attr::ENGINEHEUR_RESULTS, bd, count, &mut got, cfgs.as_mut_ptr().cast::<c_void>()) };
    b.check("heuristic results", s).map_err(fail)?;
    cfgs.truncate(got.clamp(0, count) as usize);
    if cfgs.is_empty() {
        return Err(no_configuration());
    }
    Ok(cfgs)
}

/// A workspace above this (256 TiB) is no device's: the backend's answer is wrong.
const MAX_WORKSPACE: i64 = 1 << 48;

/// The most engine configurations asked of the heuristic.
const MAX_ENGINE_CONFIGS: i64 = 64;

fn no_configuration() -> BuildError {
    BuildError::NoEngine("hipDNN has no engine for this problem (its heuristic returned no configuration)".into())
}

/// The `KNOB_CHOICE` descriptors of `knobs` (none for the default plan).
/// Every engine configuration gets them all: an engine reads the knobs it
/// has by id and ignores the others (`docs/forwarding.md` "Knobs").
fn knob_choices(b: &mut Builder, knobs: Knobs) -> Result<Vec<Descriptor>, Failure> {
    let mut settings: Vec<(&str, i64)> = Vec::new();
    if knobs.benchmarking {
        settings.push((knob::BENCHMARKING, 1));
    }
    if let Some(limit) = knobs.workspace_limit {
        settings.push((knob::WORKSPACE_SIZE_LIMIT, i64::try_from(limit).unwrap_or(i64::MAX)));
    }
    let mut choices = Vec::with_capacity(settings.len());
    for (id, value) in settings {
        let d = b.create(descriptor_type::KNOB_CHOICE, "create knob choice")?;
        b.set(d, attr::KNOB_CHOICE_KNOB_TYPE, attr_type::CHAR, id.as_bytes(), "knob id")?;
        b.set(d, attr::KNOB_CHOICE_KNOB_VALUE, attr_type::INT64, &[value], "knob value")?;
        b.finalize(d, "finalize knob choice")?;
        choices.push(d);
    }
    Ok(choices)
}

/// The plan of the first configuration that finalizes, as the frontend's
/// default policy picks it, and its workspace size.
fn first_plan(
    b: &mut Builder,
    h: Handle,
    cfgs: &[Descriptor],
    choices: &[Descriptor],
) -> Result<(Descriptor, usize), BuildError> {
    let mut last = None;
    for &cfg in cfgs {
        match plan_for(b, h, cfg, choices) {
            Ok(p) => return Ok(p),
            Err(f) => last = Some(f),
        }
    }
    Err(BuildError::Failed(last.expect("at least one configuration")))
}

fn plan_for(
    b: &mut Builder,
    h: Handle,
    cfg: Descriptor,
    choices: &[Descriptor],
) -> Result<(Descriptor, usize), Failure> {
    if !choices.is_empty() {
        b.set(cfg, attr::ENGINECFG_KNOB_CHOICES, attr_type::BACKEND_DESCRIPTOR, choices, "engine config knobs")?;
    }
    b.finalize(cfg, "finalize engine config")?;
    let plan = b.create(descriptor_type::EXECUTION_PLAN, "create plan")?;
    b.set(plan, attr::EXECUTION_PLAN_HANDLE, attr_type::HANDLE, &[h], "plan handle")?;
    b.set(plan, attr::EXECUTION_PLAN_ENGINE_CONFIG, attr_type::BACKEND_DESCRIPTOR, &[cfg], "plan config")?;
    b.finalize(plan, "finalize plan")?;
    let mut ws = 0i64;
    // SAFETY: one INT64 into a local.
    let s = unsafe {
        (b.api.get_attribute)(
            plan,
            attr::EXECUTION_PLAN_WORKSPACE_SIZE,
            attr_type::INT64,
            1,
            ptr::null_mut(),
            (&mut ws as *mut i64).cast(),
        )
    };
    b.check("plan workspace size", s)?;
    // The backend's number is untrusted and the caller allocates it: one no
    // device could hold (or a negative one) fails the plan, reported as hipDNN's.
    if !(0..=MAX_WORKSPACE).contains(&ws) {
        return Err(Failure {
            step: "plan workspace size",
            status: status::BAD_PARAM,
            message: format!("the backend reports a workspace of {ws} bytes"),
        });
    }
    // The plan is returned separately and owned by the Plan from here on.
    b.owned.retain(|&d| d != plan);
    Ok((plan, ws as usize))
}

/// Run `plan` on hipDNN handle `h` with the caller's buffers and workspace.
/// The steady state's path: one variant pack per call, owned by a guard
/// rather than a [`Builder`] (no list to allocate or drain), and each
/// step's status tested inline; the failure's text is built only on failure.
/// Inlined into each caller (see `steps::ready`).
#[inline(always)]
pub fn execute(
    plan: &Plan,
    h: Handle,
    uids: &[i64],
    ptrs: &[*mut c_void],
    workspace: *mut c_void,
) -> Result<(), Failure> {
    let api = plan.api;
    let fail = |step: &'static str, s: Status| Err(Failure { step, status: s, message: last_error(api) });
    let mut vp: Descriptor = ptr::null_mut();
    // SAFETY: out-pointer to a local.
    let s = unsafe { (api.create_descriptor)(descriptor_type::VARIANT_PACK, &mut vp) };
    if s != status::SUCCESS {
        return fail("create variant pack", s);
    }
    let pack = Released { d: vp, api };
    let steps: [(&'static str, i32, i32, i64, *const c_void); 3] = [
        ("variant pack ids", attr::VARIANT_PACK_UNIQUE_IDS, attr_type::INT64, uids.len() as i64, uids.as_ptr().cast()),
        (
            "variant pack pointers",
            attr::VARIANT_PACK_DATA_POINTERS,
            attr_type::VOID_PTR,
            ptrs.len() as i64,
            ptrs.as_ptr().cast(),
        ),
        (
            "variant pack workspace",
            attr::VARIANT_PACK_WORKSPACE,
            attr_type::VOID_PTR,
            1,
            (&workspace as *const *mut c_void).cast(),
        ),
    ];
    for (step, name, ty, count, values) in steps {
        // SAFETY: `values` holds `count` elements of `ty` and outlives the call; hipDNN copies what it keeps.
        let s = unsafe { (api.set_attribute)(pack.d, name, ty, count, values) };
        if s != status::SUCCESS {
            return fail(step, s);
        }
    }
    // SAFETY: a descriptor of this backend, owned by `pack`.
    let s = unsafe { (api.finalize)(pack.d) };
    if s != status::SUCCESS {
        return fail("finalize variant pack", s);
    }
    // SAFETY: plan and pack are finalized descriptors of this backend.
    let s = unsafe { (api.execute)(h, plan.plan, pack.d) };
    if s != status::SUCCESS {
        return fail("execute", s);
    }
    Ok(())
}
