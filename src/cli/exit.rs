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

impl Exit {
    /// The process's exit status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Success => 0,
            Exit::Failure => 1,
            Exit::Usage => 2,
            Exit::Interrupted => 130,
        }
    }
}

impl From<Exit> for std::process::ExitCode {
    fn from(exit: Exit) -> Self {
        std::process::ExitCode::from(exit.code())
    }
}

/// Ends the process at once with an exit's status (a second Ctrl-C that may not wait for the
/// current batch): the binary's, the one place that ends the process.
pub type Leave = fn(Exit) -> !;
