//! The `cocosearch` binary: everything happens in [`cocosearch::cli::run`].

fn main() -> std::process::ExitCode {
    // SAFETY: the first statement of main; no other thread exists yet.
    unsafe { cocosearch::embed::builtin::configure_process() };
    cocosearch::cli::run(std::env::args_os()).into()
}
