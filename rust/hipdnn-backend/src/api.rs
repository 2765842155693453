//! The one function table the wrapper calls through.
//!
//! Only these entry points are resolved: pinning a small set keeps the wrapper
//! working across backend builds that add functions, and a backend lacking any
//! of them is rejected at load instead of failing mid-call. The table, the C
//! names and the resolver come from one macro so they cannot disagree.

use std::ffi::{c_char, c_void};

use libloading::os::unix::Library;

use crate::abi::{Descriptor, Handle, Status};

macro_rules! api_table {
    ($($(#[$doc:meta])* $field:ident = $cname:literal: $ty:ty;)*) => {
        /// hipDNN backend entry points, resolved once when the backend loads.
        /// Enum-typed C parameters (descriptor type, attribute name and type)
        /// are `i32`.
        #[derive(Clone, Copy, Debug)]
        pub struct Api {
            $($(#[$doc])* pub $field: $ty,)*
        }

        /// The C names [`Api::resolve`] looks up, in table order.
        pub const PINNED_SYMBOLS: &[&str] = &[$($cname),*];

        impl Api {
            /// Resolves every pinned symbol in `lib`; the error is the first
            /// missing name.
            ///
            /// # Safety
            /// `lib` must be a hipDNN backend: each symbol is assumed to have
            /// the C signature its field declares.
            pub unsafe fn resolve(lib: &Library) -> Result<Api, &'static str> {
                Ok(Api { $($field: unsafe { symbol(lib, $cname)? },)* })
            }
        }
    };
}

api_table! {
    /// `hipdnnCreate(hipdnnHandle_t*)`
    create = "hipdnnCreate": unsafe extern "C" fn(*mut Handle) -> Status;
    /// `hipdnnDestroy(hipdnnHandle_t)`
    destroy = "hipdnnDestroy": unsafe extern "C" fn(Handle) -> Status;
    /// `hipdnnSetStream(hipdnnHandle_t, hipStream_t)`
    set_stream = "hipdnnSetStream": unsafe extern "C" fn(Handle, *mut c_void) -> Status;
    /// `hipdnnGetStream(hipdnnHandle_t, hipStream_t*)`
    get_stream = "hipdnnGetStream": unsafe extern "C" fn(Handle, *mut *mut c_void) -> Status;
    /// `hipdnnBackendCreateDescriptor(type, hipdnnBackendDescriptor_t*)`
    create_descriptor = "hipdnnBackendCreateDescriptor":
        unsafe extern "C" fn(i32, *mut Descriptor) -> Status;
    /// `hipdnnBackendDestroyDescriptor(hipdnnBackendDescriptor_t)`
    destroy_descriptor = "hipdnnBackendDestroyDescriptor":
        unsafe extern "C" fn(Descriptor) -> Status;
    /// `hipdnnBackendExecute(handle, execution plan, variant pack)`
    execute = "hipdnnBackendExecute":
        unsafe extern "C" fn(Handle, Descriptor, Descriptor) -> Status;
    /// `hipdnnBackendFinalize(hipdnnBackendDescriptor_t)`
    finalize = "hipdnnBackendFinalize": unsafe extern "C" fn(Descriptor) -> Status;
    /// `hipdnnBackendGetAttribute(desc, name, type, requested count, *count, elements)`
    get_attribute = "hipdnnBackendGetAttribute":
        unsafe extern "C" fn(Descriptor, i32, i32, i64, *mut i64, *mut c_void) -> Status;
    /// `hipdnnBackendSetAttribute(desc, name, type, count, elements)`
    set_attribute = "hipdnnBackendSetAttribute":
        unsafe extern "C" fn(Descriptor, i32, i32, i64, *const c_void) -> Status;
    /// `hipdnnGetErrorString(hipdnnStatus_t)`: static text.
    get_error_string = "hipdnnGetErrorString": unsafe extern "C" fn(Status) -> *const c_char;
    /// `hipdnnGetLastErrorString(char* message, size_t max_size)`
    get_last_error_string = "hipdnnGetLastErrorString": unsafe extern "C" fn(*mut c_char, usize);
    /// `hipdnnVersionString_ext()`: "MAJOR.MINOR.PATCH.TWEAK", static lifetime.
    version_string = "hipdnnVersionString_ext": unsafe extern "C" fn() -> *const c_char;
}

/// One symbol of `lib` as a `T` (a function pointer), or its name if absent.
unsafe fn symbol<T: Copy>(lib: &Library, name: &'static str) -> Result<T, &'static str> {
    // SAFETY: the caller guarantees `T` is the symbol's real type.
    unsafe { lib.get::<T>(name.as_bytes()) }.map(|s| *s).map_err(|_| name)
}

#[cfg(test)]
mod tests {
    use super::PINNED_SYMBOLS;

    #[test]
    fn pinned_symbols_are_exactly_the_subset() {
        let mut got: Vec<&str> = PINNED_SYMBOLS.to_vec();
        got.sort_unstable();
        let mut want = vec![
            "hipdnnCreate",
            "hipdnnDestroy",
            "hipdnnSetStream",
            "hipdnnGetStream",
            "hipdnnBackendCreateDescriptor",
            "hipdnnBackendDestroyDescriptor",
            "hipdnnBackendExecute",
            "hipdnnBackendFinalize",
            "hipdnnBackendGetAttribute",
            "hipdnnBackendSetAttribute",
            "hipdnnGetErrorString",
            "hipdnnGetLastErrorString",
            "hipdnnVersionString_ext",
        ];
        want.sort_unstable();
        assert_eq!(got, want);
    }

    #[test]
    fn pinned_symbols_are_declared_by_the_test_bed() {
        let header = crate::abi::tests::header_text("hipdnn_backend.h");
        for name in PINNED_SYMBOLS {
            let declared = header.match_indices(name).any(|(i, _)| {
                let before = header[..i].chars().next_back();
                let after = header[i + name.len()..].trim_start();
                !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') && after.starts_with('(')
            });
            assert!(declared, "{name} is not declared as a function in hipdnn_backend.h");
        }
    }
}
