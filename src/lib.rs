//! cocosearch: fast, local-first hybrid code search.
//!
//! The library holds all the work; the `cocosearch` binary is a thin layer over [`cli`].
//! Modules are declared in data-flow order, the order to read them in:
//! configuration, file discovery, chunking, embedding, storage, indexing, search, the code
//! graph, stats, tasks linked to the code, the workspace (the one API the presenters call), the wire formats (the JSON
//! shapes of its answers), the
//! project setup for agents (the files `cocosearch init` writes), and the three presenters on
//! one floor: the MCP server, the web dashboard and the command line.
//! A module only uses modules declared before it, and a presenter never uses another (the
//! binary hands the command line the servers it starts).
//! See ARCHITECTURE.md for the code map and the invariants.

#![deny(missing_docs)]

pub mod config;
pub mod discover;
pub mod chunk;
pub mod embed;
pub mod store;
pub mod index;
pub mod search;
pub mod graph;
pub mod grep;
pub mod stats;
pub mod tasks;
pub mod workspace;
pub mod wire;
pub mod setup;
pub mod mcp;
pub mod web;
pub mod cli;
