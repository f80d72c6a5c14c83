//! The compact side-by-side table each bench ends with: one row per backend (or per backend
//! and case), Markdown, so it can be pasted into the README as printed.

/// A Markdown table with right-aligned figures.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table whose first column is `first` and whose figures are `columns`.
    pub fn new(first: &str, columns: &[&str]) -> Table {
        let header = std::iter::once(first).chain(columns.iter().copied()).map(str::to_string).collect();
        Table { header, rows: Vec::new() }
    }

    /// Adds a row: its name, then one cell per figure column.
    pub fn row(&mut self, name: &str, cells: Vec<String>) {
        self.rows.push(std::iter::once(name.to_string()).chain(cells).collect());
    }

    /// Prints the table under `title`.
    pub fn print(&self, title: &str) {
        println!("\n{title}\n");
        let line = |cells: &[String]| println!("| {} |", cells.join(" | "));
        line(&self.header);
        let rule: Vec<String> =
            (0..self.header.len()).map(|i| if i == 0 { "---".into() } else { "---:".into() }).collect();
        line(&rule);
        for row in &self.rows {
            line(row);
        }
    }
}
