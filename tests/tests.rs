//! Integration tests: one binary, one module per topic (ripgrep's layout).
//!
//! Every test gets a fresh project directory and, when it needs one, its own database on the
//! real PostgreSQL + pgvector server provisioned by `scripts/testenv.py`.

mod support;

mod cli_config;
mod cli_docs;
mod first_run;
mod index_cli;
mod mcp_server;
mod search_cli;
mod security;
mod stats_cli;
mod store_contract;
mod store_pg;
