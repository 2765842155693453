//! `hipMalloc` and `hipFree` of the HIP runtime MIOpen Private already
//! loaded: MIOpen's default allocator and deallocator call them (ROCm/MIOpen
//! @2d1fd99 `src/hip/handlehip.cpp`, `default_allocator`,
//! `default_deallocator`). They are looked up at run time in the wrapper's
//! own scope (`dlsym` on its handle: the wrapper, MIOpen Private and the
//! libraries Private needs), so `libMIOpen.so` gains no `DT_NEEDED` and no
//! undefined HIP symbol; a process whose Private loaded no HIP runtime has
//! none, and the calls that would need it stay on MIOpen.

use std::ffi::{c_int, c_void};
use std::sync::OnceLock;

/// `hipError_t hipMalloc(void** ptr, size_t size)`.
type Malloc = unsafe extern "C" fn(*mut *mut c_void, usize) -> c_int;
/// `hipError_t hipFree(void* ptr)`.
type Free = unsafe extern "C" fn(*mut c_void) -> c_int;

/// HIP's success status (`hipSuccess`).
const HIP_SUCCESS: c_int = 0;

#[derive(Clone, Copy)]
pub struct Hip {
    malloc: Malloc,
    free: Free,
}

static HIP: OnceLock<Result<Hip, String>> = OnceLock::new();

/// The HIP runtime of MIOpen Private, looked up once per process.
pub fn hip() -> Result<Hip, &'static str> {
    match HIP.get_or_init(look_up) {
        Ok(h) => Ok(*h),
        Err(e) => Err(e.as_str()),
    }
}

impl Hip {
    /// `size` bytes of device memory, or HIP's status.
    pub fn malloc(&self, size: usize) -> Result<*mut c_void, String> {
        let mut p = std::ptr::null_mut();
        // SAFETY: HIP's own function, called as declared; `p` is a local.
        let s = unsafe { (self.malloc)(&mut p, size) };
        if s != HIP_SUCCESS || p.is_null() {
            return Err(format!("hipMalloc of {size} bytes failed (hipError_t {s})"));
        }
        Ok(p)
    }

    /// Frees what [`Hip::malloc`] returned.
    pub fn free(&self, p: *mut c_void) {
        // SAFETY: `p` came from this runtime's hipMalloc and is freed once.
        unsafe { (self.free)(p) };
    }
}

fn look_up() -> Result<Hip, String> {
    let scope = own_library()?;
    // SAFETY: the names are NUL-terminated; dlsym only reads them.
    let (m, f) = unsafe { (libc::dlsym(scope, c"hipMalloc".as_ptr()), libc::dlsym(scope, c"hipFree".as_ptr())) };
    if m.is_null() || f.is_null() {
        return Err("MIOpen Private loaded no HIP runtime (no hipMalloc/hipFree in its scope)".to_string());
    }
    // SAFETY: HIP's declarations of these two functions are the types above.
    Ok(unsafe {
        Hip { malloc: std::mem::transmute::<*mut c_void, Malloc>(m), free: std::mem::transmute::<*mut c_void, Free>(f) }
    })
}

/// The handle of the library this code is linked into (`libMIOpen.so`;
/// `RTLD_NOLOAD`: already loaded, never loaded here). `dlsym` on it searches
/// the library and the libraries it needs, breadth first: MIOpen Private
/// (its one `DT_NEEDED` besides the C runtime) and what Private needs, HIP
/// among them.
fn own_library() -> Result<*mut c_void, String> {
    let path = super::own_library_path().ok_or("libMIOpen.so is not found by address")?;
    // SAFETY: NOLOAD only returns a handle of a library already loaded.
    let h = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD) };
    if h.is_null() {
        return Err(format!("{} is not loaded as a library", path.to_string_lossy()));
    }
    Ok(h)
}
