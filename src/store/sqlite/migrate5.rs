//! Per-index migration 5: stored files keyed by path and content, and the snapshots holding
//! them (see `store::snapshots`).
//!
//! SQLite cannot change a table's keys in place, so the tables keyed by path (files, and the
//! chunks and graph rows pointing at them) are rebuilt: created under staging names, filled
//! from the old ones (ids kept, so vectors, symbol keys and the FTS rows still point at their
//! chunks), then swapped in. Every existing file becomes the one snapshot, `working-tree`.
//! It runs inside the migration's transaction with foreign keys off.

use rusqlite::Connection;

use super::schema::{Tables, has_column, now_ns};

/// The staging copy of `t`'s tables.
fn staging(t: &Tables) -> Tables {
    Tables::with_prefix(format!("{}__v5", t.prefix()))
}

/// The columns of `table` (quoted name).
fn columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1) ORDER BY cid")?;
    let rows = stmt.query_map([table.trim_matches('"')], |r| r.get(0))?;
    rows.collect()
}

/// Copies the rows of `from` into `to`, the columns both have, with `file_id` from the old
/// files table by path.
fn copy_with_file_id(conn: &Connection, from: &str, to: &str, old_files: &str) -> rusqlite::Result<()> {
    let old = columns(conn, from)?;
    if !old.iter().any(|c| c == "path") {
        // Created by migration 2 in this same upgrade, at the current schema (whose references
        // have no path): empty.
        return Ok(());
    }
    let wanted = columns(conn, to)?;
    let shared: Vec<String> = old.into_iter().filter(|c| c != "file_id" && wanted.contains(c)).collect();
    let list = shared.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(", ");
    let select = shared.iter().map(|c| format!("x.\"{c}\"")).collect::<Vec<_>>().join(", ");
    conn.execute_batch(&format!(
        "INSERT INTO {to} (file_id, {list}) SELECT f.rowid, {select} FROM {from} x JOIN {old_files} f ON f.path = x.path;"
    ))
}

pub(crate) fn to_snapshots(conn: &Connection, t: &Tables) -> rusqlite::Result<()> {
    if has_column(conn, &t.files, "id")? {
        return super::migrate::create_missing(conn, t);
    }
    let s = staging(t);
    conn.execute_batch(&s.create_sql_v7())?;
    // Files keep their rowid as their id.
    let wanted = columns(conn, &s.files)?;
    let shared: Vec<String> = columns(conn, &t.files)?.into_iter().filter(|c| wanted.contains(c)).collect();
    let list = shared.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(", ");
    conn.execute_batch(&format!("INSERT INTO {} (id, {list}) SELECT rowid, {list} FROM {};", s.files, t.files))?;
    for (old, new) in [(&t.chunks, &s.chunks), (&t.defs, &s.defs), (&t.refs, &s.refs), (&t.imports, &s.imports)] {
        copy_with_file_id(conn, old, new, &t.files)?;
    }
    // The one snapshot: every file, at the git state the index recorded.
    let index = t.prefix().trim_start_matches("cs_");
    let now = now_ns();
    conn.execute(
        &format!(
            "INSERT INTO {snapshots} (name, origin, git_commit, git_branch, worktree, created_at, updated_at, current)
             SELECT 'working-tree', 'working-tree', git_commit, git_branch, root_path, ?2, ?2, 1 FROM indexes WHERE name = ?1",
            snapshots = s.snapshots
        ),
        (index, now),
    )?;
    conn.execute_batch(&format!(
        "INSERT INTO {members} (snapshot, path, file_id, mtime_ns) SELECT s.id, f.path, f.id, f.mtime_ns FROM {files} f, {snapshots} s;",
        members = s.members,
        files = s.files,
        snapshots = s.snapshots
    ))?;
    // Swap: the old keyed tables go, the staging ones take their names (renaming rewrites the
    // keys pointing at them), and the staging tables this index already has go too.
    let mut swap = String::new();
    for old in [&t.chunks, &t.defs, &t.refs, &t.imports, &t.files] {
        swap.push_str(&format!("DROP TABLE {old};\n"));
    }
    for (new, old) in [
        (&s.files, &t.files),
        (&s.chunks, &t.chunks),
        (&s.defs, &t.defs),
        (&s.refs, &t.refs),
        (&s.imports, &t.imports),
        (&s.snapshots, &t.snapshots),
        (&s.members, &t.members),
    ] {
        swap.push_str(&format!("ALTER TABLE {new} RENAME TO {old};\n"));
    }
    for unused in [&s.fts, &s.symbols, &s.vectors, &s.lists, &s.terms, &s.packs] {
        swap.push_str(&format!("DROP TABLE IF EXISTS {unused};\n"));
    }
    conn.execute_batch(&swap)?;
    // The staging indexes went with their tables or were renamed along; drop what is left under
    // the staging prefix, then create the index's own.
    let prefix = format!("{}_", s.prefix());
    let leftover: Vec<String> = {
        let mut stmt = conn.prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND sql IS NOT NULL AND substr(name, 1, length(?1)) = ?1",
        )?;
        let rows = stmt.query_map([&prefix], |r| r.get(0))?;
        rows.collect::<Result<_, _>>()?
    };
    for index in leftover {
        conn.execute_batch(&format!("DROP INDEX \"{index}\";"))?;
    }
    conn.execute_batch(&t.create_sql_v7())
}
