//! The tasks of a project on PostgreSQL (`cocosearch_tasks`, `cocosearch_task_history`,
//! `cocosearch_task_links`).

use std::collections::HashMap;
use std::time::SystemTime;

use postgres::GenericClient;
use postgres::types::ToSql;

use super::PgStore;
use crate::store::tasks::{COUNTS, unreadable_status};
use crate::store::{
    LinkKind, NewTask, StatusChange, StoreError, StoredLink, TaskChange, TaskLink, TaskQuery, TaskRecord, TaskStatus,
    TaskStore, search_text,
};

/// The tasks of one project on PostgreSQL.
pub(crate) struct PgTasks {
    store: PgStore,
    project: String,
}

impl PgTasks {
    pub(crate) fn new(store: &PgStore, project: &str) -> PgTasks {
        PgTasks { store: store.clone(), project: project.to_string() }
    }

    fn err(&self, context: &'static str) -> impl Fn(postgres::Error) -> StoreError + '_ {
        move |e| self.store.query_error(context, &e)
    }

    /// The full records of the tasks with these ids, in the order given.
    fn records(&self, client: &mut impl GenericClient, ids: &[String]) -> Result<Vec<TaskRecord>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let err = self.err("reading tasks");
        let mut tasks: HashMap<String, TaskRecord> = HashMap::with_capacity(ids.len());
        let rows = client
            .query(
                "SELECT id, title, description, notes, status, created_at, updated_at
                 FROM cocosearch_tasks WHERE id = ANY($1)",
                &[&ids],
            )
            .map_err(&err)?;
        for r in rows {
            let id: String = r.get(0);
            let status: String = r.get(4);
            let status = TaskStatus::from_stored(&status)
                .ok_or_else(|| unreadable_status(&self.project, format!("task {id}"), &status))?;
            tasks.insert(
                id.clone(),
                TaskRecord {
                    id,
                    project: self.project.clone(),
                    title: r.get(1),
                    description: r.get(2),
                    notes: r.get(3),
                    status,
                    created_at: r.get(5),
                    updated_at: r.get(6),
                    history: Vec::new(),
                    links: Vec::new(),
                },
            );
        }
        let rows = client
            .query(
                "SELECT task_id, from_status, to_status, changed_at FROM cocosearch_task_history
                 WHERE task_id = ANY($1) ORDER BY id",
                &[&ids],
            )
            .map_err(&err)?;
        for r in rows {
            let id: String = r.get(0);
            let from: Option<String> = r.get(1);
            let to: String = r.get(2);
            let status = |t: &str| {
                TaskStatus::from_stored(t).ok_or_else(|| unreadable_status(&self.project, format!("task {id}"), t))
            };
            let change =
                StatusChange { from: from.as_deref().map(status).transpose()?, to: status(&to)?, at: r.get(3) };
            if let Some(task) = tasks.get_mut(&id) {
                task.history.push(change);
            }
        }
        let rows = client
            .query(
                "SELECT task_id, kind, value, linked_at FROM cocosearch_task_links WHERE task_id = ANY($1) ORDER BY id",
                &[&ids],
            )
            .map_err(&err)?;
        for r in rows {
            let id: String = r.get(0);
            // A kind a newer build added is left out rather than misread.
            let Some(kind) = LinkKind::from_stored(r.get(1)) else { continue };
            let link = StoredLink { link: TaskLink { kind, value: r.get(2) }, linked_at: r.get(3) };
            if let Some(task) = tasks.get_mut(&id) {
                task.links.push(link);
            }
        }
        Ok(ids.iter().filter_map(|id| tasks.remove(id)).collect())
    }
}

fn add_links(
    client: &mut impl GenericClient,
    id: &str,
    links: &[TaskLink],
    now: SystemTime,
) -> Result<(), postgres::Error> {
    for link in links {
        client.execute(
            "INSERT INTO cocosearch_task_links (task_id, kind, value, linked_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (task_id, kind, value) DO NOTHING",
            &[&id, &link.kind.as_str(), &link.value, &now],
        )?;
    }
    Ok(())
}

impl TaskStore for PgTasks {
    fn create(&self, task: &NewTask) -> Result<TaskRecord, StoreError> {
        let err = self.err("creating a task");
        let mut conn = self.store.conn()?;
        let mut tx = conn.transaction().map_err(&err)?;
        let now = SystemTime::now();
        let status = TaskStatus::NeedToBeDone.as_str();
        let text = search_text(&task.title, task.description.as_deref(), task.notes.as_deref());
        tx.execute(
            "INSERT INTO cocosearch_tasks
               (id, project, title, description, notes, status, search_text, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)",
            &[&task.id, &self.project, &task.title, &task.description, &task.notes, &status, &text, &now],
        )
        .map_err(&err)?;
        tx.execute(
            "INSERT INTO cocosearch_task_history (task_id, from_status, to_status, changed_at)
             VALUES ($1, NULL, $2, $3)",
            &[&task.id, &status, &now],
        )
        .map_err(&err)?;
        add_links(&mut tx, &task.id, &task.links, now).map_err(&err)?;
        let record = self.records(&mut tx, std::slice::from_ref(&task.id))?;
        tx.commit().map_err(&err)?;
        record.into_iter().next().ok_or_else(|| StoreError::Query {
            context: "creating a task".into(),
            message: format!("task {} was not there after it was written", task.id),
        })
    }

    fn get(&self, id: &str) -> Result<Option<TaskRecord>, StoreError> {
        let mut conn = self.store.conn()?;
        let found: Option<String> = conn
            .query_opt("SELECT id FROM cocosearch_tasks WHERE id = $1 AND project = $2", &[&id, &self.project])
            .map_err(self.err("reading a task"))?
            .map(|r| r.get(0));
        Ok(self.records(&mut **conn, found.as_slice())?.into_iter().next())
    }

    fn list(&self, query: &TaskQuery) -> Result<Vec<TaskRecord>, StoreError> {
        let mut conn = self.store.conn()?;
        let status = query.status.map(TaskStatus::as_str);
        let limit = i64::try_from(query.limit).unwrap_or(i64::MAX);
        let params: [&(dyn ToSql + Sync); 6] =
            [&self.project, &status, &query.branch, &query.id_prefix, &query.words, &limit];
        // One statement for every filter: a NULL parameter leaves its filter out.
        let ids: Vec<String> = conn
            .query(
                "SELECT id FROM cocosearch_tasks t
                 WHERE project = $1
                   AND ($2::text IS NULL OR status = $2)
                   AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM cocosearch_task_links l
                        WHERE l.task_id = t.id AND l.kind = 'branch' AND l.value = $3))
                   AND ($4::text IS NULL OR left(id, length($4)) = $4)
                   AND NOT EXISTS (SELECT 1 FROM unnest($5::text[]) w WHERE strpos(t.search_text, w) = 0)
                 ORDER BY updated_at DESC, id
                 LIMIT $6",
                &params,
            )
            .map_err(self.err("listing tasks"))?
            .iter()
            .map(|r| r.get(0))
            .collect();
        self.records(&mut **conn, &ids)
    }

    fn update(&self, id: &str, change: &TaskChange) -> Result<Option<TaskRecord>, StoreError> {
        let err = self.err("updating a task");
        let mut conn = self.store.conn()?;
        let mut tx = conn.transaction().map_err(&err)?;
        let Some(row) = tx
            .query_opt(
                "SELECT title, description, notes, status FROM cocosearch_tasks
                 WHERE id = $1 AND project = $2 FOR UPDATE",
                &[&id, &self.project],
            )
            .map_err(&err)?
        else {
            return Ok(None);
        };
        let now = SystemTime::now();
        let title = change.title.clone().unwrap_or_else(|| row.get(0));
        let description: Option<String> = change.description.clone().or_else(|| row.get(1));
        let notes: Option<String> = change.notes.clone().or_else(|| row.get(2));
        let status: String = row.get(3);
        let new_status = change.status.map_or(status.clone(), |s| s.as_str().to_string());
        let text = search_text(&title, description.as_deref(), notes.as_deref());
        tx.execute(
            "UPDATE cocosearch_tasks
             SET title = $2, description = $3, notes = $4, status = $5, search_text = $6, updated_at = $7
             WHERE id = $1",
            &[&id, &title, &description, &notes, &new_status, &text, &now],
        )
        .map_err(&err)?;
        if new_status != status {
            tx.execute(
                "INSERT INTO cocosearch_task_history (task_id, from_status, to_status, changed_at)
                 VALUES ($1, $2, $3, $4)",
                &[&id, &status, &new_status, &now],
            )
            .map_err(&err)?;
        }
        add_links(&mut tx, id, &change.links, now).map_err(&err)?;
        let record = self.records(&mut tx, &[id.to_string()])?;
        tx.commit().map_err(&err)?;
        Ok(record.into_iter().next())
    }

    fn counts(&self) -> Result<Vec<(TaskStatus, u64)>, StoreError> {
        let mut conn = self.store.conn()?;
        let rows = conn
            .query("SELECT status, count(*) FROM cocosearch_tasks WHERE project = $1 GROUP BY status", &[&self.project])
            .map_err(self.err("counting tasks"))?;
        // A status this build does not know is an error here too, never a count left out.
        let mut counts = rows
            .iter()
            .map(|r| {
                let s: &str = r.get(0);
                let status =
                    TaskStatus::from_stored(s).ok_or_else(|| unreadable_status(&self.project, COUNTS.into(), s))?;
                Ok((status, u64::try_from(r.get::<_, i64>(1)).unwrap_or(0)))
            })
            .collect::<Result<Vec<(TaskStatus, u64)>, StoreError>>()?;
        counts.sort();
        Ok(counts)
    }

    fn delete_all(&self) -> Result<u64, StoreError> {
        let mut conn = self.store.conn()?;
        // History and links go with their task (ON DELETE CASCADE).
        conn.execute("DELETE FROM cocosearch_tasks WHERE project = $1", &[&self.project])
            .map_err(self.err("deleting tasks"))
    }
}
