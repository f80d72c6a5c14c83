//! The tasks of a project in the embedded store (`tasks`, `task_history`, `task_links`).

use std::collections::HashMap;

use rusqlite::types::Value as SqlValue;
use rusqlite::{Connection, OptionalExtension, TransactionBehavior, params_from_iter};

use super::schema::{now_ns, time};
use super::{SqliteStore, query_error};
use crate::store::tasks::{COUNTS, unreadable_status};
use crate::store::{
    LinkKind, NewTask, StatusChange, StoreError, StoredLink, TaskChange, TaskLink, TaskQuery, TaskRecord, TaskStatus,
    TaskStore, search_text,
};

/// The tasks of one project of the embedded store.
pub(crate) struct SqliteTasks {
    store: SqliteStore,
    project: String,
}

impl SqliteTasks {
    pub(crate) fn new(store: &SqliteStore, project: &str) -> SqliteTasks {
        SqliteTasks { store: store.clone(), project: project.to_string() }
    }

    fn err(&self, context: &'static str) -> impl Fn(rusqlite::Error) -> StoreError + '_ {
        move |e| query_error(None, context, &e)
    }

    /// The full records of the tasks with these ids, in the order given.
    fn records(&self, conn: &Connection, ids: &[String]) -> Result<Vec<TaskRecord>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let err = self.err("reading tasks");
        let marks = vec!["?"; ids.len()].join(",");
        let mut tasks: HashMap<String, TaskRecord> = HashMap::with_capacity(ids.len());
        let sql = format!(
            "SELECT id, title, description, notes, status, created_at, updated_at FROM tasks WHERE id IN ({marks})"
        );
        let mut stmt = conn.prepare(&sql).map_err(&err)?;
        let mut rows = stmt.query(params_from_iter(ids)).map_err(&err)?;
        while let Some(r) = rows.next().map_err(&err)? {
            let id: String = r.get(0).map_err(&err)?;
            let status: String = r.get(4).map_err(&err)?;
            let status = TaskStatus::from_stored(&status)
                .ok_or_else(|| unreadable_status(&self.project, format!("task {id}"), &status))?;
            tasks.insert(
                id.clone(),
                TaskRecord {
                    id,
                    project: self.project.clone(),
                    title: r.get(1).map_err(&err)?,
                    description: r.get(2).map_err(&err)?,
                    notes: r.get(3).map_err(&err)?,
                    status,
                    created_at: time(r.get(5).map_err(&err)?),
                    updated_at: time(r.get(6).map_err(&err)?),
                    history: Vec::new(),
                    links: Vec::new(),
                },
            );
        }
        let sql = format!(
            "SELECT task_id, from_status, to_status, changed_at FROM task_history WHERE task_id IN ({marks}) ORDER BY id"
        );
        let mut stmt = conn.prepare(&sql).map_err(&err)?;
        let mut rows = stmt.query(params_from_iter(ids)).map_err(&err)?;
        while let Some(r) = rows.next().map_err(&err)? {
            let id: String = r.get(0).map_err(&err)?;
            let from: Option<String> = r.get(1).map_err(&err)?;
            let to: String = r.get(2).map_err(&err)?;
            let status = |t: &str| {
                TaskStatus::from_stored(t).ok_or_else(|| unreadable_status(&self.project, format!("task {id}"), t))
            };
            let change = StatusChange {
                from: from.as_deref().map(status).transpose()?,
                to: status(&to)?,
                at: time(r.get(3).map_err(&err)?),
            };
            if let Some(task) = tasks.get_mut(&id) {
                task.history.push(change);
            }
        }
        let sql =
            format!("SELECT task_id, kind, value, linked_at FROM task_links WHERE task_id IN ({marks}) ORDER BY id");
        let mut stmt = conn.prepare(&sql).map_err(&err)?;
        let mut rows = stmt.query(params_from_iter(ids)).map_err(&err)?;
        while let Some(r) = rows.next().map_err(&err)? {
            let id: String = r.get(0).map_err(&err)?;
            let kind: String = r.get(1).map_err(&err)?;
            // A kind a newer build added is left out rather than misread.
            let Some(kind) = LinkKind::from_stored(&kind) else { continue };
            let link = StoredLink {
                link: TaskLink { kind, value: r.get(2).map_err(&err)? },
                linked_at: time(r.get(3).map_err(&err)?),
            };
            if let Some(task) = tasks.get_mut(&id) {
                task.links.push(link);
            }
        }
        Ok(ids.iter().filter_map(|id| tasks.remove(id)).collect())
    }
}

fn add_links(conn: &Connection, id: &str, links: &[TaskLink], now: i64) -> rusqlite::Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO task_links (task_id, kind, value, linked_at) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (task_id, kind, value) DO NOTHING",
    )?;
    for link in links {
        stmt.execute((id, link.kind.as_str(), &link.value, now))?;
    }
    Ok(())
}

impl TaskStore for SqliteTasks {
    fn create(&self, task: &NewTask) -> Result<TaskRecord, StoreError> {
        let err = self.err("creating a task");
        let mut conn = self.store.pool.get()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(&err)?;
        let now = now_ns();
        let status = TaskStatus::NeedToBeDone.as_str();
        tx.execute(
            "INSERT INTO tasks (id, project, title, description, notes, status, search_text, created_at, updated_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?8)",
            (
                &task.id,
                &self.project,
                &task.title,
                &task.description,
                &task.notes,
                status,
                search_text(&task.title, task.description.as_deref(), task.notes.as_deref()),
                now,
            ),
        )
        .map_err(&err)?;
        tx.execute(
            "INSERT INTO task_history (task_id, from_status, to_status, changed_at) VALUES (?1, NULL, ?2, ?3)",
            (&task.id, status, now),
        )
        .map_err(&err)?;
        add_links(&tx, &task.id, &task.links, now).map_err(&err)?;
        let record = self.records(&tx, std::slice::from_ref(&task.id))?;
        tx.commit().map_err(&err)?;
        record.into_iter().next().ok_or_else(|| StoreError::Query {
            context: "creating a task".into(),
            message: format!("task {} was not there after it was written", task.id),
        })
    }

    fn get(&self, id: &str) -> Result<Option<TaskRecord>, StoreError> {
        let conn = self.store.pool.get()?;
        let found: Option<String> = conn
            .prepare_cached("SELECT id FROM tasks WHERE id = ?1 AND project = ?2")
            .and_then(|mut s| s.query_row((id, &self.project), |r| r.get(0)).optional())
            .map_err(self.err("reading a task"))?;
        Ok(self.records(&conn, found.as_slice())?.into_iter().next())
    }

    fn list(&self, query: &TaskQuery) -> Result<Vec<TaskRecord>, StoreError> {
        let conn = self.store.pool.get()?;
        let mut sql = String::from("SELECT id FROM tasks t WHERE project = ?");
        let mut values: Vec<SqlValue> = vec![self.project.clone().into()];
        if let Some(status) = query.status {
            sql.push_str(" AND status = ?");
            values.push(status.as_str().to_string().into());
        }
        if let Some(branch) = &query.branch {
            sql.push_str(
                " AND EXISTS (SELECT 1 FROM task_links l WHERE l.task_id = t.id AND l.kind = 'branch' AND l.value = ?)",
            );
            values.push(branch.clone().into());
        }
        if let Some(prefix) = &query.id_prefix {
            // substr, not LIKE: the prefix is matched as written.
            sql.push_str(" AND substr(id, 1, ?) = ?");
            values.push(i64::try_from(prefix.chars().count()).unwrap_or(i64::MAX).into());
            values.push(prefix.clone().into());
        }
        for word in &query.words {
            sql.push_str(" AND instr(search_text, ?) > 0");
            values.push(word.clone().into());
        }
        sql.push_str(" ORDER BY updated_at DESC, id LIMIT ?");
        values.push(i64::try_from(query.limit).unwrap_or(i64::MAX).into());
        let err = self.err("listing tasks");
        let ids: Vec<String> = conn
            .prepare_cached(&sql)
            .and_then(|mut s| s.query_map(params_from_iter(values), |r| r.get(0))?.collect())
            .map_err(&err)?;
        self.records(&conn, &ids)
    }

    fn update(&self, id: &str, change: &TaskChange) -> Result<Option<TaskRecord>, StoreError> {
        let err = self.err("updating a task");
        let mut conn = self.store.pool.get()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(&err)?;
        let current: Option<(String, Option<String>, Option<String>, String)> = tx
            .query_row(
                "SELECT title, description, notes, status FROM tasks WHERE id = ?1 AND project = ?2",
                (id, &self.project),
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )
            .optional()
            .map_err(&err)?;
        let Some((title, description, notes, status)) = current else { return Ok(None) };
        let now = now_ns();
        let title = change.title.clone().unwrap_or(title);
        let description = change.description.clone().or(description);
        let notes = change.notes.clone().or(notes);
        let new_status = change.status.map_or(status.clone(), |s| s.as_str().to_string());
        tx.execute(
            "UPDATE tasks SET title = ?2, description = ?3, notes = ?4, status = ?5, search_text = ?6, updated_at = ?7
             WHERE id = ?1",
            (
                id,
                &title,
                &description,
                &notes,
                &new_status,
                search_text(&title, description.as_deref(), notes.as_deref()),
                now,
            ),
        )
        .map_err(&err)?;
        if new_status != status {
            tx.execute(
                "INSERT INTO task_history (task_id, from_status, to_status, changed_at) VALUES (?1, ?2, ?3, ?4)",
                (id, &status, &new_status, now),
            )
            .map_err(&err)?;
        }
        add_links(&tx, id, &change.links, now).map_err(&err)?;
        let record = self.records(&tx, &[id.to_string()])?;
        tx.commit().map_err(&err)?;
        Ok(record.into_iter().next())
    }

    fn counts(&self) -> Result<Vec<(TaskStatus, u64)>, StoreError> {
        let conn = self.store.pool.get()?;
        let err = self.err("counting tasks");
        let rows: Vec<(String, i64)> = conn
            .prepare_cached("SELECT status, count(*) FROM tasks WHERE project = ?1 GROUP BY status")
            .and_then(|mut s| s.query_map([&self.project], |r| Ok((r.get(0)?, r.get(1)?)))?.collect())
            .map_err(&err)?;
        // A status this build does not know is an error here too, never a count left out.
        let mut counts = rows
            .into_iter()
            .map(|(s, n)| {
                let status =
                    TaskStatus::from_stored(&s).ok_or_else(|| unreadable_status(&self.project, COUNTS.into(), &s))?;
                Ok((status, u64::try_from(n).unwrap_or(0)))
            })
            .collect::<Result<Vec<(TaskStatus, u64)>, StoreError>>()?;
        counts.sort();
        Ok(counts)
    }

    fn delete_all(&self) -> Result<u64, StoreError> {
        let err = self.err("deleting tasks");
        let mut conn = self.store.pool.get()?;
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate).map_err(&err)?;
        let mine = "SELECT id FROM tasks WHERE project = ?1";
        tx.execute(&format!("DELETE FROM task_links WHERE task_id IN ({mine})"), [&self.project]).map_err(&err)?;
        tx.execute(&format!("DELETE FROM task_history WHERE task_id IN ({mine})"), [&self.project]).map_err(&err)?;
        let n = tx.execute("DELETE FROM tasks WHERE project = ?1", [&self.project]).map_err(&err)?;
        tx.commit().map_err(&err)?;
        Ok(n as u64)
    }
}
