//! The vocabulary of an index's statistics, as the presenters print them: the engine's
//! [`IndexStats`] (from [`super::Target::stats`] and [`super::indexes::all_stats`]) and the
//! kinds its fields are made of.

pub use crate::chunk::{Language, SymbolKind};
pub use crate::discover::{SkipCounts, SkipReason};
pub use crate::index::lease::{Following, Watcher};
pub use crate::stats::{IndexStats, SearchFreshness};
pub use crate::store::RunStatus;
