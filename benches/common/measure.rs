//! Running a process and measuring it: wall time, CPU time and peak resident memory.
//!
//! Peak memory comes from `wait4`, whose `ru_maxrss` belongs to the process and survives
//! `exec`. A child spawned by a large process starts with that process's high-water mark
//! (`posix_spawn` runs the child in the parent's memory until it execs, and `exec` records the
//! memory it leaves), so a bench that holds a large index in memory would report its own size
//! as every child's peak. The process is therefore started through a small helper — this bench
//! binary again, with [`HELPER_FLAG`] — that spawns it, waits for it and writes its figures to
//! a file: the measured process descends from a process of a few MB, and its figures are its
//! own.

use std::ffi::OsString;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The first argument that makes a bench binary the measuring helper.
const HELPER_FLAG: &str = "--rusage-of";

/// What a run of a process cost.
pub struct Measured {
    pub wall: Duration,
    /// User plus system CPU time of the process (and the children it waited for).
    pub cpu: Duration,
    pub peak_rss_mb: f64,
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Runs `cmd` (its program, arguments, environment and directory) through the helper, with
/// its output captured, and returns what it cost.
pub fn measure(cmd: &mut Command) -> Measured {
    let report = tempfile::NamedTempFile::new().expect("a report file");
    let mut wrapper = Command::new(std::env::current_exe().expect("this bench binary"));
    wrapper.arg(HELPER_FLAG).arg(report.path()).arg(cmd.get_program()).args(cmd.get_args());
    if let Some(dir) = cmd.get_current_dir() {
        wrapper.current_dir(dir);
    }
    for (key, value) in cmd.get_envs() {
        match value {
            Some(value) => wrapper.env(key, value),
            None => wrapper.env_remove(key),
        };
    }
    let mut child = wrapper.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("spawn the helper");
    // Read the pipes on threads so a chatty child cannot block.
    let mut out = child.stdout.take().expect("stdout");
    let mut err = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut out, &mut s).ok();
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut err, &mut s).ok();
        s
    });
    child.wait().expect("wait for the helper");
    let (stdout, stderr) = (out_reader.join().unwrap_or_default(), err_reader.join().unwrap_or_default());
    let figures = std::fs::read_to_string(report.path()).unwrap_or_default();
    let numbers: Vec<i64> = figures.split_whitespace().filter_map(|n| n.parse().ok()).collect();
    let [wall_us, cpu_us, maxrss_kb, code] = numbers[..] else {
        panic!("the measuring helper wrote no figures ({figures:?}); stderr:\n{stderr}")
    };
    Measured {
        wall: Duration::from_micros(wall_us as u64),
        cpu: Duration::from_micros(cpu_us as u64),
        peak_rss_mb: maxrss_kb as f64 / 1024.0,
        stdout,
        stderr,
        code: code as i32,
    }
}

/// When this process is the measuring helper (`<bench> --rusage-of REPORT PROGRAM ARGS…`):
/// runs the program with this process's environment, directory and output, writes its wall
/// time, CPU time (µs), peak RSS (kB) and exit code to REPORT, and exits with its code.
/// Otherwise returns at once. Every bench calls it first.
pub fn rusage_helper() {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    if args.first().is_none_or(|a| a != HELPER_FLAG) {
        return;
    }
    let [_, report, program, rest @ ..] = &args[..] else {
        eprintln!("usage: {HELPER_FLAG} REPORT PROGRAM [ARGS…]");
        std::process::exit(2);
    };
    let started = Instant::now();
    let child = match Command::new(program).args(rest).spawn() {
        Ok(child) => child,
        Err(e) => {
            eprintln!("cannot start {}: {e}", program.to_string_lossy());
            std::process::exit(127);
        }
    };
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = started.elapsed();
    // The child is reaped; dropping the handle must not wait again.
    std::mem::forget(child);
    if waited != pid {
        eprintln!("wait4 failed: {}", std::io::Error::last_os_error());
        std::process::exit(1);
    }
    let micros = |t: libc::timeval| t.tv_sec * 1_000_000 + t.tv_usec;
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { 128 + libc::WTERMSIG(status) };
    let figures = format!(
        "{} {} {} {code}\n",
        wall.as_micros(),
        micros(usage.ru_utime) + micros(usage.ru_stime),
        usage.ru_maxrss
    );
    if let Err(e) = std::fs::write(PathBuf::from(report), figures) {
        eprintln!("cannot write the report: {e}");
    }
    std::process::exit(code);
}
