//! The `cocosearch` binary: everything happens in [`cocosearch::cli::run`].
//!
//! Rust's allocations go through mimalloc: indexing allocates and frees small strings and
//! syntax-tree nodes by the million on every thread, and glibc's malloc took about a tenth of
//! the run's CPU (indexing the Python standard library: 1.0-1.6 s less of 14-15 s with
//! mimalloc). Without transparent huge pages (`no_thp`): with them, every process started
//! with 13 MB more resident memory (a search: 41 MB instead of 28 MB), for no measured gain.
//! Embedding in-process costs a little more memory with it: indexing two stdlib packages with
//! MiniLM peaked at 319-350 MB against glibc's 292-300 MB, in the same time.

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    // SAFETY: the first statement of main; no other thread exists yet.
    unsafe { cocosearch::embed::builtin::configure_process() };
    cocosearch::cli::run(std::env::args_os()).into()
}
