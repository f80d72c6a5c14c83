//! The `cocosearch` binary: everything happens in [`cocosearch::cli::run`].

fn main() -> std::process::ExitCode {
    cocosearch::cli::run(std::env::args_os()).into()
}
