//! The `cocosearch` binary: everything happens in [`cocosearch::cli::run`], which it hands
//! the servers it may start (the MCP server and the dashboard): the binary is the one place
//! that knows all three presenters, so none of them imports another.
//!
//! Rust's allocations go through mimalloc: indexing allocates and frees small strings by the
//! million on every thread, and glibc's malloc took about a tenth of the run's CPU (indexing
//! the Python standard library: 1.0-1.6 s less of 14-15 s with mimalloc). Tree-sitter's C
//! library allocates its syntax trees through its own hooks, which stayed on glibc's malloc
//! (6 % of the run's CPU samples on the same corpus); pointing them at mimalloc took another
//! 0.6-0.8 s of 10 s CPU off the run. Without transparent huge pages (`no_thp`): with them,
//! every process started with 13 MB more resident memory (a search: 41 MB instead of 28 MB),
//! for no measured gain. Embedding in-process costs a little more memory with it: indexing two
//! stdlib packages with MiniLM peaked at 319-350 MB against glibc's 292-300 MB, in the same
//! time.

use std::ffi::c_void;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // SAFETY: the first statement of main; no tree-sitter object has been created yet.
    unsafe { tree_sitter_on_mimalloc() };
    cocosearch::cli::run(std::env::args_os(), &PRESENTERS, leave).into()
}

/// Ends the process at once with `exit`'s status: the one `process::exit` of the program.
fn leave(exit: cocosearch::cli::Exit) -> ! {
    std::process::exit(i32::from(exit.code()))
}

/// The servers `cocosearch mcp` and `cocosearch dashboard` start.
const PRESENTERS: cocosearch::cli::Presenters = cocosearch::cli::Presenters {
    mcp_stdio: |options| Box::pin(cocosearch::mcp::serve_stdio(options)),
    mcp_routes: cocosearch::mcp::routes,
    web_routes: cocosearch::web::routes,
};

/// Routes tree-sitter's C allocations (parsers, syntax trees, queries) to mimalloc.
///
/// # Safety
/// Call before any tree-sitter object exists, with no other thread running.
unsafe fn tree_sitter_on_mimalloc() {
    /// mimalloc's `calloc` is in the crate's `extended` feature; a zeroed allocation of the
    /// checked product is the same thing.
    unsafe extern "C" fn calloc(count: usize, size: usize) -> *mut c_void {
        match count.checked_mul(size) {
            // SAFETY: mi_zalloc is mimalloc's malloc returning zeroed memory.
            Some(total) => unsafe { libmimalloc_sys::mi_zalloc(total) },
            None => std::ptr::null_mut(),
        }
    }
    // SAFETY: the four functions are one allocator family (mimalloc), which returns memory
    // aligned as malloc's; the caller guarantees no tree-sitter object exists yet.
    unsafe {
        tree_sitter::set_allocator(Some(tree_sitter::Allocator {
            malloc: libmimalloc_sys::mi_malloc,
            calloc,
            realloc: libmimalloc_sys::mi_realloc,
            free: libmimalloc_sys::mi_free,
        }));
    }
}
