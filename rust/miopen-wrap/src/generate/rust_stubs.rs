//! The Rust half of the wrapper, as three files: the bindings (types from
//! bindgen, the `_impl` declarations, the argument structs: [`bindings`]),
//! the entry-point table (data), and
//! the stubs (from bindgen's function signatures). The first two are data
//! every module of the runtime may use; only the stubs call into it.
//!
//! bindgen binds the header's enums as plain integer type aliases with
//! constants (a C caller may pass any value; a Rust enum holding an unknown
//! value would be undefined behaviour). Its output is parsed back with `syn`,
//! so each stub's signature is exactly the one bindgen derived from the C
//! prototype.

use proc_macro2::{Span, TokenStream};
use quote::{format_ident, quote};
use syn::{ForeignItemFn, Ident};

use super::{bindings, unparse, GenerateError, Manifest, ManifestEntry};
use crate::header::{Api, ParseOptions};
use miopen_forwarding_core::stub_asm;

/// The three generated files of the runtime crate.
pub struct RustFiles {
    /// `bindings.rs`: `pub mod types`, `pub mod impls`, `pub mod args` ([`bindings`]).
    pub bindings: String,
    /// `entry_points.rs`: `ENTRY_POINTS`, included by the runtime's `entry_points` module.
    pub entry_points: String,
    /// `stubs.rs`: the exported functions.
    pub stubs: String,
}

pub fn generate(api: &Api, opts: &ParseOptions, manifest: &Manifest) -> Result<RustFiles, GenerateError> {
    // The forwarding handlers are compiled against these very types and
    // declarations (rust/wrapper/src/forward/mod.rs), so the stubs below
    // pass every argument on without a cast.
    let bound = bindings::bind(api, opts)?;
    let mut stubs = Vec::new();
    let mut asm_names: Vec<String> = manifest.survivors.clone();
    for (index, entry) in manifest.entry_points.iter().enumerate() {
        let f = bound
            .function(&entry.name)
            .ok_or_else(|| GenerateError::Mismatch(format!("bindgen produced no binding for `{}`", entry.name)))?;
        if f.sig.variadic.is_some() {
            // Rust cannot define a C-variadic function; a tail jump serves any signature.
            asm_names.push(entry.name.clone());
            continue;
        }
        let header_entry = api.entry_points.iter().find(|e| e.name == entry.name);
        let changes = header_entry.map(DescriptorChanges::of).transpose()?.unwrap_or_default();
        stubs.push(stub_for(f, index, RoutedBody::of(manifest, &entry.name), &changes)?);
    }
    let table: Vec<TokenStream> = manifest.entry_points.iter().map(|e| entry_point_row(manifest, e)).collect();
    let count = table.len();
    let asm: Vec<TokenStream> = asm_names.iter().map(|n| tail_jump(n)).collect();
    let entry_points = quote! {
        /// Every public entry point, indexed as the stubs pass it to the runtime.
        pub static ENTRY_POINTS: [EntryPoint; #count] = [ #(#table),* ];
    };
    let stubs = quote! {
        #[allow(unused_imports)]
        use crate::bindings::{args, impls};
        #[allow(unused_imports)]
        use crate::bindings::types::*;

        #(#stubs)*

        #(#asm)*
    };
    Ok(RustFiles {
        bindings: unparse(api, bound.file(api)?)?,
        entry_points: unparse(api, entry_points)?,
        stubs: unparse(api, stubs)?,
    })
}

/// One `ENTRY_POINTS` row: name, family, and the forwarding family when the
/// forwarding table routes the entry point and the build forwards its group
/// (the family's handle, looked up by name when the runtime compiles).
fn entry_point_row(manifest: &Manifest, e: &ManifestEntry) -> TokenStream {
    let (n, fam) = (&e.name, &e.family);
    let forward = match manifest.forwarded(n) {
        Some(row) => {
            let family = row.family.name();
            quote! { Some(miopen_forwarding_core::Family::named(#family)) }
        }
        None => quote! { None },
    };
    let c_name = format!("{n}\0");
    quote! { EntryPoint { name: #n, c_name: #c_name, family: #fam, forward: #forward } }
}

/// What the routed (slow-path) body of an entry point does, from the
/// forwarding table in `miopen-forwarding-core` (the one place that lists
/// the forwarding set) and the groups this build forwards.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RoutedBody {
    /// Trace the decision, then call MIOpen Private.
    Private,
    /// In the forwarding set: the routed body fills the entry point's
    /// argument struct (`args::<name>`) and
    /// `crate::forward::<module>::entry::<function>` runs the call on hipDNN
    /// or declines it (None), and a decline goes to Private. `function` is
    /// the entry point's own, or the one it is forwarded as (given its
    /// arguments converted: `args::<function>::from`).
    Forward { module: &'static str, function: &'static str },
    /// Observed while forwarding is enabled (`<hooks>::<name>`), then Private.
    Hook(HookModule),
    /// Private, then `<hooks>::<name>` with the arguments and the result,
    /// which it may replace.
    AfterHook(HookModule),
}

/// Where a hook is: the wrapper's own (`crate::forward::hooks`) or a
/// group's (`crate::forward::<group module>::hooks`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct HookModule(Option<&'static str>);

impl HookModule {
    fn path(self) -> TokenStream {
        match self.0 {
            None => quote! { crate::forward::hooks },
            Some(module) => {
                let module = Ident::new(module, Span::call_site());
                quote! { crate::forward::#module::hooks }
            }
        }
    }
}

impl RoutedBody {
    fn of(manifest: &Manifest, name: &str) -> RoutedBody {
        use miopen_forwarding_core::table;
        if let Some(row) = manifest.forwarded(name) {
            RoutedBody::Forward { module: row.family.group().module(), function: row.entry_function() }
        } else if let Some(hooked) = table::hook(name) {
            let module = HookModule(hooked.group.map(|g| g.module()));
            if hooked.hook.after {
                RoutedBody::AfterHook(module)
            } else {
                RoutedBody::Hook(module)
            }
        } else {
            RoutedBody::Private
        }
    }
}

/// The watched descriptors (`table::watched_descriptors()`) an entry point
/// may change, by parameter position, from the header's own types: every
/// one it takes (a setter, a destroy, anything else that could write
/// through the handle), and the out-parameter of a create (`T*`). `const`
/// does not help: on a handle typedef it is the pointer's constness, and
/// MIOpen declares setters that way (`miopenSetActivationDescriptor(const
/// miopenActivationDescriptor_t, ...)`). The one exception is an entry point
/// of the forwarding table: the forwarded calls read their descriptors
/// only, and their handlers' reads are what the generations protect.
#[derive(Debug, Default, PartialEq, Eq)]
struct DescriptorChanges {
    by_value: Vec<usize>,
    created: Vec<usize>,
}

impl DescriptorChanges {
    fn of(e: &crate::header::EntryPoint) -> Result<DescriptorChanges, GenerateError> {
        use crate::header::PassedBy;
        let mut c = DescriptorChanges::default();
        if miopen_forwarding_core::table::lookup(&e.name).is_some() {
            return Ok(c);
        }
        let watched = miopen_forwarding_core::table::watched_descriptors();
        for (i, p) in e.params.iter().enumerate() {
            let Some(t) = &p.typedef else { continue };
            if !watched.contains(&t.name.as_str()) {
                continue;
            }
            match t.by {
                PassedBy::ConstValue | PassedBy::Value => c.by_value.push(i),
                PassedBy::MutablePointer => c.created.push(i),
            }
        }
        if !c.created.is_empty() && e.ret != "miopenStatus_t" {
            return Err(GenerateError::Mismatch(format!(
                "`{}` writes a watched descriptor through a pointer but returns `{}`, not miopenStatus_t: \
                 the wrapper reads the new descriptor only after a successful call",
                e.name, e.ret
            )));
        }
        Ok(c)
    }

    fn is_empty(&self) -> bool {
        self.by_value.is_empty() && self.created.is_empty()
    }

    /// The routed body, then the report of the changed descriptors.
    fn wrap(&self, body: TokenStream, args: &[Ident]) -> TokenStream {
        if self.is_empty() {
            return body;
        }
        let values = self.by_value.iter().map(|&i| &args[i]);
        let created = self.created.iter().map(|&i| &args[i]);
        quote! {
            let result = { #body };
            crate::forward::common::generations::changed(
                result as u32,
                &[#(#values as usize),*],
                &[#(#created as *const usize),*],
            );
            result
        }
    }
}

/// The exported stub for one entry point.
fn stub_for(
    f: &ForeignItemFn,
    index: usize,
    body: RoutedBody,
    changes: &DescriptorChanges,
) -> Result<TokenStream, GenerateError> {
    let name = &f.sig.ident;
    let impl_name = format_ident!("{}_impl", name);
    let inputs = &f.sig.inputs;
    let output = &f.sig.output;
    let args = super::args::parameter_names(f)?;
    let routed = format_ident!("{}__routed", name);
    let idx = syn::LitInt::new(&index.to_string(), Span::call_site());
    // The handlers are compiled against this file's own types (the header
    // being built), so every argument goes on as it is: a handler whose
    // parameter types differ from the header's prototype does not compile.
    let routed_body = match body {
        RoutedBody::Private => quote! {
            crate::runtime::route(#idx);
            impls::#impl_name(#(#args),*)
        },
        RoutedBody::Forward { module, function } => {
            let module = Ident::new(module, Span::call_site());
            let function = Ident::new(function, Span::call_site());
            // The struct's local name is one no C parameter has (a parameter
            // may be called `args`).
            let handed = if function == *name {
                quote! { &forwarded_args__ }
            } else {
                quote! { &args::#function::from(&forwarded_args__) }
            };
            quote! {
                match crate::runtime::route(#idx) {
                    crate::runtime::Routed::Hipdnn(config) => {
                        let forwarded_args__ = args::#name { #(#args),* };
                        match crate::forward::#module::entry::#function(#idx, config, #handed) {
                            Some(status) => status,
                            None => impls::#impl_name(#(#args),*),
                        }
                    }
                    crate::runtime::Routed::Private => impls::#impl_name(#(#args),*),
                }
            }
        }
        RoutedBody::Hook(hooks) => {
            let hooks = hooks.path();
            quote! {
                crate::runtime::route(#idx);
                #hooks::#name(crate::runtime::config(), #(#args),*);
                impls::#impl_name(#(#args),*)
            }
        }
        RoutedBody::AfterHook(hooks) => {
            let hooks = hooks.path();
            quote! {
                crate::runtime::route(#idx);
                let result = impls::#impl_name(#(#args),*);
                #hooks::#name(crate::runtime::config(), #(#args,)* result)
            }
        }
    };
    let routed_body = changes.wrap(routed_body, &args);
    let stub = quote! {
        #[unsafe(naked)]
        #[no_mangle]
        #[allow(non_snake_case, unused_variables, clippy::missing_safety_doc)]
        pub unsafe extern "C" fn #name(#inputs) #output {
            // Pass-through: compare the state byte, tail-jump to Private.
            crate::fast_path!(impls::#impl_name, #routed)
        }

        /// Everything but pass-through: reached by a tail jump from the stub,
        /// with the caller's arguments and return address untouched.
        #[allow(non_snake_case, clippy::unnecessary_cast)]
        unsafe extern "C" fn #routed(#inputs) #output {
            #routed_body
        }
    };
    Ok(stub)
}

/// A signature-free stub: jumps to `<name>_impl` with every argument register
/// untouched, so it serves any prototype (including unknown ones). The code
/// is `miopen_forwarding_core::stub_asm`'s, as the runtime's fast path is.
fn tail_jump(name: &str) -> TokenStream {
    let x86 = stub_asm::x86_64_tail_jump(name);
    let arm = stub_asm::aarch64_tail_jump(name);
    quote! {
        #[cfg(target_arch = "x86_64")]
        core::arch::global_asm!(#(#x86),*, options(att_syntax));
        #[cfg(target_arch = "aarch64")]
        core::arch::global_asm!(#(#arm),*);
    }
}

#[cfg(test)]
mod hook_tests {
    use super::*;
    use miopen_forwarding_core::table;

    #[test]
    fn a_hook_is_called_in_the_module_of_whoever_lists_it() {
        let manifest = Manifest {
            version_node: "N".into(),
            entry_points: Vec::new(),
            survivors: Vec::new(),
            additions: Vec::new(),
            forward_groups: Vec::new(),
        };
        let mut groups = 0;
        for h in table::hooks() {
            let (body, module) = match RoutedBody::of(&manifest, h.entry_point) {
                RoutedBody::Hook(m) => (false, m),
                RoutedBody::AfterHook(m) => (true, m),
                other => panic!("{}: {other:?}", h.entry_point),
            };
            assert_eq!(body, h.hook.after, "{}", h.entry_point);
            let want = match h.group {
                None => "crate :: forward :: hooks".to_string(),
                Some(g) => format!("crate :: forward :: {} :: hooks", g.module()),
            };
            assert_eq!(module.path().to_string(), want, "{}", h.entry_point);
            groups += usize::from(h.group.is_some());
        }
        assert!(groups > 0, "no group lists a hook: the group case is untested");
    }
}
