//! `bindings.rs`: what the runtime crate knows of the header being built,
//! as data every module of it may use: the header's types (bindgen, enums
//! as plain integers) with the mirrored enumerators' checks, the `_impl`
//! declarations of MIOpen Private (every entry point, and the survivors the
//! forwarding handlers call), and the forwarded entry points' argument
//! structs ([`super::args`]).
//!
//! A wrapper build writes it next to the stubs (`miopen-wrap generate`); a
//! plain `cargo test` of the runtime crate writes it from the test bed's
//! header in the crate's build script ([`test_bed`]), so the forwarding
//! handlers are always compiled against generated bindings of a real parse.

use std::path::Path;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{ForeignItem, ForeignItemFn, Item};

use super::forward_abi::{self, SurvivorCall};
use super::GenerateError;
use crate::header::{self, Api, ParseOptions};

/// bindgen's view of the header: its types and functions, the survivor
/// calls' declarations and the enumerator checks.
pub(super) struct Bound {
    types: Vec<Item>,
    fns: Vec<ForeignItemFn>,
    survivor_decls: Vec<TokenStream>,
    mirror_checks: TokenStream,
}

impl Bound {
    /// The bound function of this name.
    pub(super) fn function(&self, name: &str) -> Option<&ForeignItemFn> {
        self.fns.iter().find(|f| f.sig.ident == name)
    }

    /// The tokens of `bindings.rs`.
    pub(super) fn file(&self, api: &Api) -> Result<TokenStream, GenerateError> {
        let types = &self.types;
        let mirror_checks = &self.mirror_checks;
        let survivor_decls = &self.survivor_decls;
        // Every entry point of the header (the variadic ones are reached by
        // a tail jump and never called from Rust).
        let impl_decls =
            api.entry_points.iter().filter_map(|e| self.function(&e.name)).filter(|f| f.sig.variadic.is_none()).map(
                |f| {
                    let mut sig = f.sig.clone();
                    sig.ident = format_ident!("{}_impl", sig.ident);
                    quote! { pub #sig; }
                },
            );
        let args = super::args::module(&self.fns)?;
        Ok(quote! {
            /// Types of <miopen/miopen.h>, bound by bindgen.
            #[allow(non_camel_case_types, non_upper_case_globals, non_snake_case, dead_code, clippy::all)]
            pub mod types {
                #(#types)*
                #mirror_checks
            }

            /// The private implementation's entry points (libMIOpen_private.so).
            #[allow(non_snake_case, dead_code, clippy::all)]
            pub mod impls {
                #[allow(unused_imports)]
                use super::types::*;
                extern "C" {
                    #(#impl_decls)*
                    #(#survivor_decls)*
                }
            }

            #args
        })
    }
}

/// bindgen over every entry point of the header, and, when the forwarding
/// handlers apply to it (`forward_abi::handlers_apply`), the survivor calls
/// and the enumerator checks.
pub(super) fn bind(api: &Api, opts: &ParseOptions) -> Result<Bound, GenerateError> {
    let forwarding = forward_abi::handlers_apply(api);
    let calls = if forwarding { forward_abi::survivor_calls() } else { Vec::new() };
    let names: Vec<&str> = api.entry_points.iter().map(|e| e.name.as_str()).collect();
    let bound = bindgen_of(api, opts, &names, &calls)?;
    let mirror_checks = if forwarding { forward_abi::mirror_checks(&bound)? } else { TokenStream::new() };
    let survivor_decls = forward_abi::impl_declarations(&bound, &calls)?;
    let mut types = Vec::new();
    let mut fns = Vec::new();
    for item in bound.items {
        match item {
            Item::ForeignMod(fm) => fns.extend(fm.items.into_iter().filter_map(|fi| match fi {
                ForeignItem::Fn(f) => Some(f),
                _ => None,
            })),
            other => types.push(other),
        }
    }
    Ok(Bound { types, fns, survivor_decls, mirror_checks })
}

/// bindgen over the header, functions restricted to `names`, plus the
/// survivor calls' prototypes read after it.
fn bindgen_of(
    api: &Api,
    opts: &ParseOptions,
    names: &[&str],
    calls: &[SurvivorCall],
) -> Result<syn::File, GenerateError> {
    // Parsed exactly as the header parser does (beta API on); its warnings are
    // the header parser's business, so bindgen stays quiet.
    let mut args = header::clang_args(opts, true);
    args.push("-w".into());
    let mut b = bindgen::Builder::default()
        .header(api.header.to_string_lossy())
        .clang_args(args)
        .default_enum_style(bindgen::EnumVariation::Consts)
        .prepend_enum_name(false)
        .layout_tests(false)
        .generate_comments(false)
        .derive_debug(false);
    for n in names.iter().copied().chain(calls.iter().map(|c| c.name.as_str())) {
        b = b.allowlist_function(format!("^{n}$"));
    }
    if !calls.is_empty() {
        // Its own translation unit for bindgen: it includes the header first.
        let text = format!("#include \"{}\"\n{}", api.header.display(), forward_abi::prototypes_header(calls));
        b = b.header_contents("miopen_wrap_survivor_calls.h", &text);
    }
    let bindings =
        b.generate().map_err(|e| GenerateError::Bindgen { path: api.header.clone(), reason: e.to_string() })?;
    Ok(syn::parse_file(&bindings.to_string())?)
}

/// `bindings.rs` of the header at `path`, parsed with `opts`.
pub fn of_header(path: &Path, opts: &ParseOptions) -> Result<String, GenerateError> {
    let api = header::parse(path, opts)?;
    super::unparse(&api, bind(&api, opts)?.file(&api)?)
}

/// The test bed's header (`test/mini-miopen/include/miopen/miopen.h` of the
/// repository at `repo`) and how it is parsed: what the runtime crate's
/// bindings are without a wrapper build.
pub fn test_bed(repo: &Path) -> (std::path::PathBuf, ParseOptions) {
    let include = repo.join("test/mini-miopen/include");
    let standin = repo.join("src_patches/standin");
    let opts = ParseOptions {
        include_dirs: vec![include.clone(), standin.join("miopen-include"), standin.join("hip-include")],
        defines: vec![],
    };
    (include.join("miopen/miopen.h"), opts)
}
