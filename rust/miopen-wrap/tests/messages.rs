//! Every message the wrapper can print is in `docs/messages.md`.
//!
//! The wrapper's Rust sources (`rust/wrapper/src`, `rust/forwarding-core/src`,
//! `rust/hipdnn-backend/src`, tests left out) are parsed with `syn`; a
//! message is a string the code writes into a line: the format string of
//! every `format!`, `format_args!`, `write!`, `writeln!` and `tracing` event;
//! every string literal handed to a call that makes a line or a cause of one
//! (`declined`, `decline`, `warning`, `error`, `rejected`, `Err`,
//! `write_str`, ...); a thiserror `#[error("...")]`; an audited variable's
//! `why`, a warning's `how` and a failure's `message`; every literal of the routing's reason and
//! target functions and of every `*decline*` function; the exit summary's
//! labels. A template's placeholders (`{...}`) and the catalogue's (`<...>`)
//! both read as one wildcard; the catalogue's templates are the first
//! backticked text of the first cell of each row of its tables. A string
//! without a word of two letters (`{n}={}`, ` -H {}`) is a fragment of
//! another line, not a message.
//!
//! The rules of issue 32 ride on the same parse: no decline cause says
//! "forwarded" (a cause says what is forwardable), and no template prints a
//! float with Rust's `{:e}` (MIOpen prints `%g`: `forwarding_core::print`).
//!
//! Run it alone with `cargo test -p miopen-wrap --test messages -- --nocapture`:
//! it prints how many templates it found and where.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use syn::visit::Visit;

/// Calls whose string-literal arguments are messages or causes of one.
const SINKS: &[&str] = &[
    "declined",
    "decline",
    "Declined",
    "Decline",
    "warning",
    "error",
    "line",
    "write_stderr",
    "rejected",
    "Says",
    "Err",
    "note",
    "success",
    "unavailable",
    "write_str",
    "NoEngine",
];

/// Struct fields whose string is a message's part (an audited variable's
/// `why`, a warning's `how`, a hipDNN failure's `message`).
const FIELDS: &[&str] = &["why", "how", "message"];

/// Constants whose strings are messages (the exit summary's labels).
const CONSTS: &[&str] = &["KINDS", "CAUSES_HEADING"];

/// Functions every string literal of which is a message: the routing
/// reasons and targets, and every `*decline*` function's causes.
fn message_fn(name: &str) -> bool {
    matches!(name, "as_str" | "target" | "describe") || name.contains("decline")
}

/// Macros whose format string is a message (or a part of one).
const FORMATS: &[&str] = &["format", "format_args", "write", "writeln", "info", "warn", "error", "debug"];

/// Source files that write no message of the wrapper's: MIOpen's own
/// `MIOpenDriver` lines (their format is MIOpen's, documented once as such),
/// the stubs' assembly.
const NOT_MESSAGES: &[&str] = &[
    "forwarding-core/src/stub_asm.rs",
    "forwarding-core/src/ops/conv/driver_line.rs",
    "forwarding-core/src/batchnorm/driver_cmd.rs",
];

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Template {
    /// The text as written in the code.
    text: String,
    /// `file:line`.
    at: String,
    /// Handed to a decline (a cause, not a line).
    cause: bool,
}

struct Collect<'a> {
    file: &'a str,
    source: &'a str,
    found: Vec<Template>,
    /// Inside the arguments of a decline: a format string there is a cause.
    in_decline: usize,
    /// Inside a function or constant every literal of which is a message.
    in_messages: usize,
}

/// The calls that make a decline of their argument.
const DECLINES: &[&str] = &["declined", "decline", "Declined", "Decline", "NoEngine"];

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| a.path().is_ident("cfg") && quote::ToTokens::to_token_stream(&a.meta).to_string().contains("test"))
}

impl Collect<'_> {
    fn push(&mut self, lit: &syn::LitStr, cause: bool) {
        // The literal as written, found in the file (spans carry no lines here).
        let written = lit.token().to_string();
        let line = self.source.find(&written).map_or(0, |i| self.source[..i].lines().count() + 1);
        let at = format!("{}:{line}", self.file);
        self.found.push(Template { text: lit.value(), at, cause: cause || self.in_decline > 0 });
    }

    /// The string literals of an argument: itself, or the receiver of
    /// `"...".into()` / `.to_string()` / `.to_owned()`.
    fn literal_of(e: &syn::Expr) -> Option<&syn::LitStr> {
        match e {
            syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(s), .. }) => Some(s),
            syn::Expr::MethodCall(m) if m.args.is_empty() => Self::literal_of(&m.receiver),
            syn::Expr::Paren(p) => Self::literal_of(&p.expr),
            _ => None,
        }
    }

    fn sink_args<'e>(&mut self, name: &str, args: impl Iterator<Item = &'e syn::Expr>) {
        if SINKS.contains(&name) {
            let cause = DECLINES.contains(&name);
            for a in args {
                if let Some(s) = Self::literal_of(a) {
                    self.push(s, cause);
                }
            }
        }
    }

    /// Visits an item whose literals are all messages (`all`), and causes
    /// (`causes`), or neither.
    fn messages_in(&mut self, all: bool, causes: bool, visit: impl FnOnce(&mut Self)) {
        self.in_messages += usize::from(all);
        self.in_decline += usize::from(causes);
        visit(self);
        self.in_messages -= usize::from(all);
        self.in_decline -= usize::from(causes);
    }

    /// Visits a call's children, as a decline's arguments if it is one.
    fn within(&mut self, name: &str, visit: impl FnOnce(&mut Self)) {
        let decline = DECLINES.contains(&name);
        self.in_decline += usize::from(decline);
        visit(self);
        self.in_decline -= usize::from(decline);
    }
}

impl<'ast> Visit<'ast> for Collect<'_> {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_cfg_test(&m.attrs) && m.ident != "tests" {
            syn::visit::visit_item_mod(self, m);
        }
    }

    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if !is_cfg_test(&f.attrs) {
            let name = f.sig.ident.to_string();
            self.messages_in(message_fn(&name), name.contains("decline"), |me| syn::visit::visit_item_fn(me, f));
        }
    }

    fn visit_item_impl(&mut self, i: &'ast syn::ItemImpl) {
        // A `Debug` form is for developers, never printed as a message.
        let debug = i.trait_.as_ref().is_some_and(|(_, p, _)| p.segments.last().is_some_and(|s| s.ident == "Debug"));
        if !debug && !is_cfg_test(&i.attrs) {
            syn::visit::visit_item_impl(self, i);
        }
    }

    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let name = f.sig.ident.to_string();
        self.messages_in(message_fn(&name), name.contains("decline"), |me| syn::visit::visit_impl_item_fn(me, f));
    }

    fn visit_item_const(&mut self, c: &'ast syn::ItemConst) {
        let listed = CONSTS.contains(&c.ident.to_string().as_str());
        self.messages_in(listed, false, |me| syn::visit::visit_item_const(me, c));
    }

    fn visit_expr_lit(&mut self, l: &'ast syn::ExprLit) {
        if let (true, syn::Lit::Str(s)) = (self.in_messages > 0, &l.lit) {
            self.push(s, false);
        }
    }

    fn visit_field_value(&mut self, f: &'ast syn::FieldValue) {
        if let syn::Member::Named(n) = &f.member {
            if let (true, Some(s)) = (FIELDS.contains(&n.to_string().as_str()), Self::literal_of(&f.expr)) {
                self.push(s, false);
            }
        }
        syn::visit::visit_field_value(self, f);
    }

    fn visit_attribute(&mut self, a: &'ast syn::Attribute) {
        // thiserror's `#[error("...")]`: the text of an error value.
        if a.path().is_ident("error") {
            let text = |p: syn::parse::ParseStream| -> syn::Result<syn::LitStr> {
                let s = p.parse::<syn::LitStr>()?;
                p.parse::<proc_macro2::TokenStream>()?; // the format arguments
                Ok(s)
            };
            if let Ok(s) = a.parse_args_with(text) {
                self.push(&s, false);
            }
        }
    }

    fn visit_expr_call(&mut self, c: &'ast syn::ExprCall) {
        let name = match &*c.func {
            syn::Expr::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default(),
            _ => String::new(),
        };
        self.sink_args(&name, c.args.iter());
        self.within(&name, |me| syn::visit::visit_expr_call(me, c));
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        let name = m.method.to_string();
        self.sink_args(&name, m.args.iter());
        self.within(&name, |me| syn::visit::visit_expr_method_call(me, m));
    }

    fn visit_macro(&mut self, m: &'ast syn::Macro) {
        let name = m.path.segments.last().map(|s| s.ident.to_string()).unwrap_or_default();
        if FORMATS.contains(&name.as_str()) {
            // The format string: the first string literal of the tokens.
            let first = m.tokens.clone().into_iter().find_map(|t| match t {
                proc_macro2::TokenTree::Literal(l) => syn::parse_str::<syn::LitStr>(&l.to_string()).ok(),
                _ => None,
            });
            if let Some(s) = first {
                self.push(&s, false);
            }
            // Arguments of a format macro may hold further messages.
            if let Ok(args) =
                m.parse_body_with(syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
            {
                for a in &args {
                    self.visit_expr(a);
                }
            }
        }
        syn::visit::visit_macro(self, m);
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The message templates of the wrapper's sources under `rust/`.
fn templates_in(crates: &[&str]) -> Vec<Template> {
    let mut out = Vec::new();
    for c in crates {
        let src = repo().join("rust").join(c).join("src");
        let mut files: Vec<PathBuf> = walkdir::WalkDir::new(&src)
            .into_iter()
            .filter_map(Result::ok)
            .map(|e| e.into_path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .filter(|p| p.file_name().is_none_or(|n| n != "tests.rs") && !p.iter().any(|c| c == "tests"))
            .collect();
        files.sort();
        for f in files {
            let rel = format!("{c}/src/{}", f.strip_prefix(&src).unwrap().display());
            if NOT_MESSAGES.contains(&rel.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(&f).unwrap();
            out.extend(templates_of(&rel, &text));
        }
    }
    out
}

/// The message templates of one source file.
fn templates_of(file: &str, text: &str) -> Vec<Template> {
    let ast = syn::parse_file(text).unwrap_or_else(|e| panic!("{file}: {e}"));
    let mut c = Collect { file, source: text, found: Vec::new(), in_decline: 0, in_messages: 0 };
    c.visit_file(&ast);
    c.found.into_iter().filter(|t| is_message(&t.text)).collect()
}

/// A word of two letters or more, once placeholders are gone.
fn is_message(text: &str) -> bool {
    let bare = wildcards(text).replace('\u{1}', " ");
    bare.split(|c: char| !c.is_ascii_alphabetic()).any(|w| w.len() >= 2)
}

/// Runs of white space (a line break included) as one space, none at the ends.
fn squeezed(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The constants a template names that the catalogue writes out (the
/// stderr prefix, variable and library names): a reader sees the text.
fn constant(name: &str) -> Option<&'static str> {
    use hipdnn_backend::loader;
    use miopen_forwarding_core::{config, plan_cache};
    Some(match name {
        "PREFIX" => config::PREFIX,
        "FORWARDING_VAR" => config::FORWARDING_VAR,
        "DISABLE_FOR_VAR" => config::DISABLE_FOR_VAR,
        "ALL_FAMILIES" => config::ALL_FAMILIES,
        "PLAN_CACHE_SIZE_VAR" => plan_cache::PLAN_CACHE_SIZE_VAR,
        "BACKEND_PATH_VAR" => loader::BACKEND_PATH_VAR,
        "LIBRARY_NAME" => loader::LIBRARY_NAME,
        _ => return None,
    })
}

/// A template with every placeholder, `{...}` (code) or `<...>`
/// (catalogue), as one wildcard character, but for the constants the
/// catalogue writes out; `{{` and `}}` are braces.
fn wildcards(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'{') => {
                chars.next();
                out.push('{');
            }
            '}' if chars.peek() == Some(&'}') => {
                chars.next();
                out.push('}');
            }
            '{' => {
                let inside: String = chars.by_ref().take_while(|&d| d != '}').collect();
                match constant(inside.split(':').next().unwrap_or("")) {
                    Some(value) => out.push_str(value),
                    None => out.push('\u{1}'),
                }
            }
            _ => out.push(c),
        }
    }
    out
}

/// The catalogue's placeholders (`<what>`) as the same wildcard.
fn catalogue_wildcards(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        match rest[start..].find('>') {
            Some(len) if len > 1 && !rest[start + 1..start + len].contains(' ') => {
                out.push_str(&rest[..start]);
                out.push('\u{1}');
                rest = &rest[start + len + 1..];
            }
            _ => {
                out.push_str(&rest[..=start]);
                rest = &rest[start + 1..];
            }
        }
    }
    out.push_str(rest);
    squeezed(&out)
}

/// The first code span of a table cell: `text`, or ``text with `ticks` ``.
fn code_span(cell: &str) -> Option<&str> {
    if let Some(start) = cell.find("``") {
        let len = cell[start + 2..].find("``")?;
        return Some(cell[start + 2..start + 2 + len].trim());
    }
    let start = cell.find('`')?;
    let len = cell[start + 1..].find('`')?;
    Some(&cell[start + 1..start + 1 + len])
}

/// The catalogue's templates: the first backticked text of each table row
/// (header and rule rows left out).
fn catalogue(doc: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for line in doc.lines().filter(|l| l.starts_with('|')) {
        let first_cell = line.trim_start_matches('|').split(" | ").next().unwrap_or("");
        if let Some(span) = code_span(first_cell) {
            out.insert(catalogue_wildcards(span));
        }
    }
    out
}

/// The templates the catalogue lacks.
fn missing<'t>(templates: &'t [Template], catalogue: &BTreeSet<String>) -> Vec<&'t Template> {
    templates.iter().filter(|t| !catalogue.contains(&squeezed(&wildcards(&t.text)))).collect()
}

const CRATES: &[&str] = &["wrapper", "forwarding-core", "hipdnn-backend"];

fn read_catalogue() -> String {
    std::fs::read_to_string(repo().join("docs/messages.md")).expect("docs/messages.md")
}

#[test]
fn every_message_in_the_code_is_in_the_catalogue() {
    let templates = templates_in(CRATES);
    assert!(templates.len() > 50, "only {} templates found: the parse finds no messages", templates.len());
    let doc = read_catalogue();
    let gaps = missing(&templates, &catalogue(&doc));
    let listed: Vec<String> = gaps.iter().map(|t| format!("  {}  `{}`", t.at, t.text)).collect();
    println!("{} message templates, {} missing from docs/messages.md", templates.len(), gaps.len());
    assert!(gaps.is_empty(), "docs/messages.md lacks {} message(s):\n{}", gaps.len(), listed.join("\n"));
}

#[test]
fn a_message_missing_from_the_catalogue_is_found() {
    let source = r#"
        fn handler() -> Step<()> {
            declined("a cause nobody wrote down (MIOpen decides)")?;
            diagnostics::warning(&format!("{name}: something else nobody wrote down"));
            Ok(())
        }
        #[cfg(test)]
        mod tests { fn t() { declined("a test's own text is not a message"); } }
    "#;
    let templates = templates_of("synthetic.rs", source);
    let texts: Vec<&str> = templates.iter().map(|t| t.text.as_str()).collect();
    assert_eq!(texts, ["a cause nobody wrote down (MIOpen decides)", "{name}: something else nobody wrote down"]);
    let doc = "| text | example |\n| --- | --- |\n| `<name>: something else nobody wrote down` | x |\n";
    let gaps: Vec<&str> = missing(&templates, &catalogue(doc)).iter().map(|t| t.text.as_str()).collect();
    assert_eq!(gaps, ["a cause nobody wrote down (MIOpen decides)"]);
    // The real catalogue does not have it either.
    assert!(!missing(&templates, &catalogue(&read_catalogue())).is_empty());
}

#[test]
fn no_decline_says_forwarded_and_no_float_prints_as_rust_scientific() {
    let check = |templates: &[Template]| -> Vec<String> {
        let mut bad = Vec::new();
        for t in templates {
            let word = t.text.split(|c: char| !c.is_ascii_alphabetic()).any(|w| w == "forwarded");
            if (t.cause && word) || t.text.contains("(forwarded") || t.text.contains("(not forwarded") {
                bad.push(format!("{}: a decline says \"forwarded\": {}", t.at, t.text));
            }
            if t.text.contains(":e}") {
                bad.push(format!("{}: a float printed as Rust's {{:e}}, not as MIOpen's %g: {}", t.at, t.text));
            }
        }
        bad
    };
    let bad = check(&templates_in(CRATES));
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // Each rule finds its case.
    let synthetic = templates_of(
        "synthetic.rs",
        r#"fn f() { decline(format!("operators {} (forwarded: conv -> act)", x)); let e = format!("epsilon is {:e} here", v); }"#,
    );
    let caught = check(&synthetic);
    assert_eq!(caught.len(), 2, "{caught:?}");
}
