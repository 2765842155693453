//! The wrapper's events as `tracing` events, and the small subscriber that
//! writes them as the documented one-line trace.
//!
//! Events: a routing decision per call (`route`, target `miopen_hipdnn::route`:
//! fields `entry`, `family`, `to`, `reason`), and the wrapper's other
//! info-level events (`info`, target `miopen_hipdnn::wrapper`: the backend
//! loaded, plans released). `LineWriter` turns each into exactly one line,
//! `MIOpen(hipDNN wrapper): …`, in one `write(2)`; it is the process-wide
//! default of this library's private copy of `tracing`, installed at the
//! first call when the trace is on (and only then: with no subscriber,
//! every callsite's interest is "never"). A test can attach any subscriber with
//! `tracing::subscriber::with_default` and see the same events. When the
//! trace is off every callsite's interest is "never": nothing is formatted.
//!
//! Warnings and errors (an unavailable backend, a failed forwarded call) are
//! not trace: they are written directly, whatever the subscriber.

use std::fmt::{self, Write as _};

use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::subscriber::Interest;
use tracing::{Event, Metadata, Subscriber};

use miopen_forwarding_core::routing;

use crate::diagnostics;
use crate::entry_points;

pub const ROUTE: &str = "miopen_hipdnn::route";
pub const WRAPPER: &str = "miopen_hipdnn::wrapper";

/// One routing decision.
pub fn route(entry: &str, family: &str, to: &str, reason: &str) {
    tracing::info!(target: ROUTE, entry, family, to, reason);
}

/// The routing decision of a call of entry point `index` (written as
/// `MIOpen(hipDNN wrapper): <entry point> [<family>] -> <target> (<reason>)`
/// while the trace is on). Callers skip building `reason` when it is off.
pub fn call(index: usize, target: &str, reason: &str) {
    let family = entry_points::get(index).map_or("?", |e| e.family);
    route(entry_points::name(index), family, target, reason);
}

/// Another wrapper event; formatted only if a subscriber wants it.
pub fn info(message: fmt::Arguments<'_>) {
    tracing::info!(target: WRAPPER, "{}", message);
}

/// Install [`LineWriter`] as this library's default subscriber.
pub fn install() {
    let _ = tracing::subscriber::set_global_default(LineWriter);
}

/// Writes the wrapper's events as trace lines while the trace is on.
pub struct LineWriter;

#[derive(Default)]
struct Fields {
    entry: String,
    family: String,
    to: String,
    reason: String,
    message: String,
}

impl Visit for Fields {
    fn record_str(&mut self, field: &Field, value: &str) {
        let slot = match field.name() {
            "entry" => &mut self.entry,
            "family" => &mut self.family,
            "to" => &mut self.to,
            "reason" => &mut self.reason,
            _ => &mut self.message,
        };
        slot.push_str(value);
    }

    fn record_debug(&mut self, field: &Field, value: &dyn fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.message, "{value:?}");
        }
    }
}

impl LineWriter {
    fn wants(meta: &Metadata<'_>) -> bool {
        meta.target().starts_with("miopen_hipdnn")
    }

    /// The line for one event, or None for an event of another kind.
    pub fn line(event: &Event<'_>) -> String {
        let mut f = Fields::default();
        event.record(&mut f);
        if event.metadata().target() == ROUTE {
            diagnostics::line(&routing::trace_line(&f.entry, &f.family, &f.to, &f.reason))
        } else {
            diagnostics::line(&f.message)
        }
    }
}

impl Subscriber for LineWriter {
    fn register_callsite(&self, meta: &'static Metadata<'static>) -> Interest {
        if Self::wants(meta) {
            Interest::always()
        } else {
            Interest::never()
        }
    }

    fn enabled(&self, meta: &Metadata<'_>) -> bool {
        Self::wants(meta)
    }

    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }

    fn record(&self, _: &Id, _: &Record<'_>) {}

    fn record_follows_from(&self, _: &Id, _: &Id) {}

    fn event(&self, event: &Event<'_>) {
        diagnostics::write_stderr(&Self::line(event));
    }

    fn enter(&self, _: &Id) {}

    fn exit(&self, _: &Id) {}
}

#[cfg(test)]
mod tests {
    use super::*;
    use miopen_forwarding_core::sync::Mutex;
    use std::sync::Arc;

    /// Any subscriber sees the wrapper's events; this one keeps the lines
    /// `LineWriter` would write.
    struct Capture(Arc<Mutex<Vec<String>>>);

    impl Subscriber for Capture {
        fn enabled(&self, _: &Metadata<'_>) -> bool {
            true
        }
        fn new_span(&self, _: &Attributes<'_>) -> Id {
            Id::from_u64(1)
        }
        fn record(&self, _: &Id, _: &Record<'_>) {}
        fn record_follows_from(&self, _: &Id, _: &Id) {}
        fn event(&self, e: &Event<'_>) {
            self.0.lock().unwrap().push(LineWriter::line(e));
        }
        fn enter(&self, _: &Id) {}
        fn exit(&self, _: &Id) {}
    }

    /// One test, so no other test's subscriber is attached meanwhile (the
    /// dispatchers and callsite interests are process-wide).
    #[test]
    fn nothing_formatted_unless_a_subscriber_listens_then_the_documented_lines() {
        struct Panics;
        impl fmt::Display for Panics {
            fn fmt(&self, _: &mut fmt::Formatter<'_>) -> fmt::Result {
                panic!("formatted although nobody listens")
            }
        }
        // No subscriber at all: the argument is never formatted.
        info(format_args!("{}", Panics));

        let lines = Arc::new(Mutex::new(Vec::new()));
        tracing::subscriber::with_default(Capture(lines.clone()), || {
            route("miopenFoo", "foo_family", "hipDNN", "forwarded; plan cache hit");
            info(format_args!("hipDNN backend {} loaded", "/x/libhipdnn_backend.so"));
        });
        let lines = lines.lock().unwrap();
        assert_eq!(
            *lines,
            vec![
                "MIOpen(hipDNN wrapper): miopenFoo [foo_family] -> hipDNN (forwarded; plan cache hit)\n".to_string(),
                "MIOpen(hipDNN wrapper): hipDNN backend /x/libhipdnn_backend.so loaded\n".to_string(),
            ]
        );
    }
}
