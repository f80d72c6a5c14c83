//! The vocabulary of a project's tasks, as the presenters take and print them: the task
//! service's inputs and answers ([`super::Target::tasks`] opens the service).

pub use crate::store::{LinkKind, TaskRecord, TaskStatus};
pub use crate::tasks::{
    ChangedFile, CommitFiles, Detail, TaskCode, TaskFilter, TaskInput, TaskUpdate, Tasks, validate,
};
