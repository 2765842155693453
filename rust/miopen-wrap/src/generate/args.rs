//! The argument structs of the forwarded entry points (module `args` of
//! the bindings): one struct per forwarding-table row the header declares,
//! named as the entry point, one field per parameter with bindgen's name and
//! type. The routed body fills it and hands it to the entry function, so the
//! hand-written Rust per entry point chooses a handler and never repacks
//! arguments; a header that renames or retypes a parameter is a compile
//! error of the handler that reads it.
//!
//! Each struct also calls MIOpen Private with its arguments (`private`), and
//! a row forwarded as another (`Entry::forwarded_as`) gets the conversion
//! of its arguments into the other's.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use syn::{FnArg, ForeignItemFn, Ident, Pat, Type};

use super::GenerateError;
use miopen_forwarding_core::table::{self, Forwarded};

/// The parameters of a bound function: (name, type).
fn parameters(f: &ForeignItemFn) -> Result<Vec<(Ident, Type)>, GenerateError> {
    f.sig
        .inputs
        .iter()
        .map(|a| match a {
            FnArg::Typed(pt) => match &*pt.pat {
                Pat::Ident(pi) => Ok((pi.ident.clone(), (*pt.ty).clone())),
                other => Err(GenerateError::Mismatch(format!(
                    "`{}`: unexpected parameter pattern {}",
                    f.sig.ident,
                    quote!(#other)
                ))),
            },
            FnArg::Receiver(_) => Err(GenerateError::Mismatch(format!("`{}`: unexpected receiver", f.sig.ident))),
        })
        .collect()
}

/// The names of a bound function's parameters, in order (the routed body
/// passes its own arguments, which have these names).
pub(super) fn parameter_names(f: &ForeignItemFn) -> Result<Vec<Ident>, GenerateError> {
    Ok(parameters(f)?.into_iter().map(|(name, _)| name).collect())
}

/// `pub mod args { ... }` for the forwarding table's rows among `fns`.
pub(super) fn module(fns: &[ForeignItemFn]) -> Result<TokenStream, GenerateError> {
    let bound = |name: &str| fns.iter().find(|f| f.sig.ident == name);
    let mut items = Vec::new();
    for row in &table::FORWARDING_TABLE {
        let Some(f) = bound(row.entry_point) else { continue };
        items.push(structure(f)?);
        if let Some(target) = row.forwarded_as {
            let to = bound(target).ok_or_else(|| {
                GenerateError::Mismatch(format!(
                    "`{}` is forwarded as `{target}`, which the header does not declare",
                    row.entry_point
                ))
            })?;
            items.push(conversion(row, f, to)?);
        }
    }
    Ok(quote! {
        /// The arguments of each forwarded entry point, as its routed body
        /// hands them to its entry function.
        #[allow(non_camel_case_types, non_snake_case, dead_code, clippy::all)]
        pub mod args {
            #[allow(unused_imports)]
            use super::types::*;
            #(#items)*
        }
    })
}

/// The struct of one entry point and its call of MIOpen Private.
fn structure(f: &ForeignItemFn) -> Result<TokenStream, GenerateError> {
    let name = &f.sig.ident;
    let impl_name = format_ident!("{}_impl", name);
    let (names, types): (Vec<Ident>, Vec<Type>) = parameters(f)?.into_iter().unzip();
    let output = &f.sig.output;
    let doc = format!("The arguments of `{name}`.");
    Ok(quote! {
        #[doc = #doc]
        #[derive(Clone, Copy)]
        pub struct #name { #(pub #names: #types),* }

        impl #name {
            /// MIOpen Private's call with these arguments.
            ///
            /// # Safety
            /// The arguments are the C caller's, as for the entry point itself.
            pub unsafe fn private(&self) #output {
                super::impls::#impl_name(#(self.#names),*)
            }
        }
    })
}

/// `From<&args::<row>>` for the arguments of the entry point it is forwarded
/// as: each parameter of the same name, and the one parameter of the row the
/// other lacks for every parameter the row lacks.
fn conversion(row: &Forwarded, from: &ForeignItemFn, to: &ForeignItemFn) -> Result<TokenStream, GenerateError> {
    let ours = parameter_names(from)?;
    let theirs = parameter_names(to)?;
    let unmatched: Vec<&Ident> = ours.iter().filter(|p| !theirs.contains(p)).collect();
    let needs_one = theirs.iter().any(|p| !ours.contains(p));
    let spare = match unmatched.as_slice() {
        [one] => Some(*one),
        [] if !needs_one => None,
        _ => {
            return Err(GenerateError::Mismatch(format!(
                "`{}` is forwarded as `{}`, but its parameters are not that entry point's with one of its own \
                 for those it lacks (its own: {})",
                row.entry_point,
                to.sig.ident,
                unmatched.iter().map(|p| p.to_string()).collect::<Vec<_>>().join(", ")
            )))
        }
    };
    let fields = theirs.iter().map(|p| {
        let source = if ours.contains(p) { p } else { spare.expect("a spare parameter when one is needed") };
        quote! { #p: a.#source }
    });
    let (from, to) = (&from.sig.ident, &to.sig.ident);
    Ok(quote! {
        impl From<&#from> for #to {
            fn from(a: &#from) -> #to {
                #to { #(#fields),* }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(text: &str) -> ForeignItemFn {
        syn::parse_str(text).unwrap()
    }

    #[test]
    fn a_struct_has_the_parameters_and_calls_private_with_them() {
        let s = structure(&f("fn miopenFoo(handle: miopenHandle_t, n: ::std::os::raw::c_int) -> miopenStatus_t;"))
            .unwrap()
            .to_string();
        assert!(
            s.contains("pub struct miopenFoo { pub handle : miopenHandle_t , pub n : :: std :: os :: raw :: c_int }"),
            "{s}"
        );
        assert!(s.contains("super :: impls :: miopenFoo_impl (self . handle , self . n)"), "{s}");
    }

    fn row(entry_point: &'static str) -> Forwarded {
        let family = miopen_forwarding_core::Family::all().next().unwrap();
        Forwarded { entry_point, family, optional: false, forwarded_as: Some("miopenFoo_V2") }
    }

    #[test]
    fn a_conversion_takes_names_and_the_one_spare_for_the_rest() {
        let v1 = f("fn miopenFoo(h: H, d: D, x: X) -> S;");
        let v2 = f("fn miopenFoo_V2(h: H, a: D, b: D, x: X) -> S;");
        let s = conversion(&row("miopenFoo"), &v1, &v2).unwrap().to_string();
        assert!(s.contains("miopenFoo_V2 { h : a . h , a : a . d , b : a . d , x : a . x }"), "{s}");
        // Two of its own for what the other lacks: which one is meant is not known.
        let v1 = f("fn miopenFoo(h: H, d: D, e: D, x: X) -> S;");
        let e = conversion(&row("miopenFoo"), &v1, &v2).unwrap_err().to_string();
        assert!(e.contains("its own: d, e"), "{e}");
        // None of its own while the other has more: nothing to take them from.
        let v1 = f("fn miopenFoo(h: H, x: X) -> S;");
        assert!(conversion(&row("miopenFoo"), &v1, &v2).is_err());
    }
}
