//! The version strings: `cocosearch 0.1.0 (abc1234567 2026-11-22)`.

/// `0.1.0 (commit date)`, as shown by `--version`.
pub fn short() -> &'static str {
    concat!(env!("CARGO_PKG_VERSION"), " (", env!("COCOSEARCH_GIT_COMMIT"), " ", env!("COCOSEARCH_GIT_DATE"), ")")
}

/// The long version: adds the backends and what PostgreSQL needs.
pub fn long() -> &'static str {
    concat!(
        env!("CARGO_PKG_VERSION"),
        " (",
        env!("COCOSEARCH_GIT_COMMIT"),
        " ",
        env!("COCOSEARCH_GIT_DATE"),
        ")\nstores: the embedded SQLite store, or PostgreSQL 14+ with pgvector 0.5+"
    )
}
