//! Exit codes, in one place (fd's `exit_codes.rs` is the model).

/// How the process ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    /// 0: done.
    Success,
    /// 1: the command ran but the answer is negative (a failed check) or it failed at run time
    /// (database down, index missing).
    Failure,
    /// 2: the command could not start: bad usage or bad configuration.
    Usage,
    /// 130: stopped by Ctrl-C (the shell convention, 128 + SIGINT).
    Interrupted,
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        match exit {
            Exit::Success => std::process::ExitCode::SUCCESS,
            Exit::Failure => std::process::ExitCode::from(1),
            Exit::Usage => std::process::ExitCode::from(2),
            Exit::Interrupted => std::process::ExitCode::from(130),
        }
    }
}
