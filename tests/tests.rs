//! Integration tests: one binary, one module per topic (ripgrep's layout).
//!
//! Every test gets a fresh project directory and, when it needs one, its own store: an embedded
//! store by default (what every new user gets), its own database on the real PostgreSQL +
//! pgvector server provisioned by `scripts/testenv.py` for the tests about PostgreSQL, and both
//! for the store contract (`store_contract`) and the end-to-end set (`cstest!(name,
//! both_backends, ...)`, run as `name::embedded` and `name::postgres`).

mod support;

mod architecture;
mod builtin_auto;
mod builtin_embed;
mod cli_config;
mod cli_init;
mod cli_docs;
mod dashboard;
mod first_minutes;
mod first_run;
mod graph_cli;
mod grep_cli;
mod habits;
mod index_cli;
mod index_scope;
mod live_index;
mod snapshots_cli;
mod mcp_budget;
mod mcp_graph;
mod mcp_server;
mod mcp_tasks;
mod ranking;
mod model_download;
mod multi_index;
mod search_cli;
mod security;
mod shared_index;
mod stats_cli;
mod store_contract;
mod store_pg;
mod store_sqlite;
mod tasks_cli;
