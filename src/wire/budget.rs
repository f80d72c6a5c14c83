//! Answers that fit a token budget (`max_tokens`): the results of an answer are paged so the
//! whole answer, as a client receives it (compact JSON), stays within the budget.
//!
//! Tokens are OpenAI's `cl100k_base` BPE (the tokenizer the evaluations count with). A page
//! holds whole results, in order, from `offset` on; the results that do not fit are left for
//! the next page (`page.next_offset`), so pages join up without gaps or repeats. An answer
//! can also preview the results left out (a search hit's location and signature, in `more`)
//! while the budget lasts. Every paged answer says `truncated` and, in `page`, how many results
//! and tokens there were in all.

use serde_json::{Value, json};

/// The tokenizer budgets are counted in.
pub const TOKENIZER: &str = "cl100k_base";
/// The budget of an agent's answer when it names none: at search_code's default limit (10) it
/// finds the changed function as often as 8k does on the SWE-bench tasks (67.7 %; 2k: 58.1 %).
pub const AGENT_MAX_TOKENS: usize = 4000;
/// The smallest budget: room for an answer's frame and one small result.
pub const MIN_MAX_TOKENS: usize = 200;

/// Tokens of `text` ([`TOKENIZER`]).
pub fn tokens(text: &str) -> usize {
    tiktoken_rs::cl100k_base_singleton().count_ordinary(text)
}

/// Tokens of `value` as a client receives it (compact JSON).
pub fn value_tokens(value: &Value) -> usize {
    tokens(&value.to_string())
}

/// Where an answer keeps its results, in paging order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Results {
    /// The items of an array field.
    Items(&'static str),
    /// The lines of a text field (a definition's source).
    Lines(&'static str),
}

/// A budget and where its page starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// The most tokens the whole answer may take (at least [`MIN_MAX_TOKENS`]).
    pub max_tokens: usize,
    /// Results skipped: those of the pages before.
    pub offset: usize,
}

/// How one answer is paged.
pub struct Fit<'a> {
    /// Its results, in paging order (several fields page as one sequence).
    pub results: &'a [Results],
    /// The short form of a result left out, listed in `more` while the budget lasts.
    pub preview: Option<&'a dyn Fn(&Value) -> Value>,
    /// A result cut to its first lines (`keep`), for a first result longer than the budget.
    pub cut: Option<&'a Cut>,
    /// How the answer reads when sent (its tokens are counted on that); `None`: compact JSON.
    pub render: Option<&'a dyn Fn(&Value) -> String>,
    /// Results the caller already skipped (a search pages by itself): added to the offsets
    /// the answer reports.
    pub skipped: usize,
}

/// Cuts a result to its first lines (how many to keep).
pub type Cut = dyn Fn(&Value, usize) -> Value;

impl<'a> Fit<'a> {
    /// Paging of `results` alone: no previews, no cuts, the answer's JSON as sent.
    pub fn of(results: &'a [Results]) -> Fit<'a> {
        Fit { results, preview: None, cut: None, render: None, skipped: 0 }
    }
}

/// What paging left out, as reported in the answer's `page`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paged {
    /// Where this page starts.
    pub offset: usize,
    /// Results shown whole on this page.
    pub shown: usize,
    /// Results in all (from the first page on).
    pub total: usize,
    /// Where the next page starts, when results were left out.
    pub next_offset: Option<usize>,
}

/// The most lines a cut result keeps (a budget's worth of short lines).
const MAX_CUT_LINES: usize = 2000;

/// One result, with the field it belongs to.
#[derive(Clone)]
struct Item {
    part: usize,
    value: Value,
}

/// Pages `value` within `page`: keeps the results from `page.offset` on while the answer fits,
/// previews the next ones (when `fit.preview`), and writes `truncated` and `page`.
pub fn fit(value: &mut Value, fit: &Fit, page: Page) -> Paged {
    let total_tokens = cost(fit, value);
    let items = take_items(value, fit.results);
    let pager = Pager { frame: value, fit, total_tokens, max_tokens: page.max_tokens.max(MIN_MAX_TOKENS) };
    let start = page.offset.min(items.len());
    let mut end = start + most_that_fit(items.len() - start, |n| pager.fits(&pager.page(&items, start, start + n)));
    let mut answer = pager.page(&items, start, end);
    if end == start
        && let Some(cut) = pager.cut_first(&items, start)
    {
        (answer, end) = (cut, start + 1);
    }
    if end < items.len() {
        pager.preview(&mut answer, &items[end..]);
    }
    *value = answer;
    paged(start, end, items.len(), fit.skipped)
}

/// Tokens of `value` as `fit` sends it.
fn cost(fit: &Fit, value: &Value) -> usize {
    fit.render.map_or_else(|| value_tokens(value), |render| tokens(&render(value)))
}

/// An answer's frame (its results taken out) and how it is paged.
struct Pager<'a> {
    frame: &'a Value,
    fit: &'a Fit<'a>,
    total_tokens: usize,
    max_tokens: usize,
}

impl Pager<'_> {
    fn fits(&self, answer: &Value) -> bool {
        cost(self.fit, answer) <= self.max_tokens
    }

    /// The answer holding `items[start..end]`.
    fn page(&self, items: &[Item], start: usize, end: usize) -> Value {
        let mut answer = self.frame.clone();
        put_items(&mut answer, self.fit.results, &items[start..end]);
        write_page(&mut answer, self.fit, &paged(start, end, items.len(), self.fit.skipped), self.total_tokens);
        answer
    }

    /// The answer holding the first result cut to the lines that fit, when it is too long for
    /// the budget whole (rather than an empty page).
    fn cut_first(&self, items: &[Item], start: usize) -> Option<Value> {
        let cut = self.fit.cut.filter(|_| start < items.len())?;
        let with = |keep: usize| {
            let mut items = items.to_vec();
            items[start].value = cut(&items[start].value, keep);
            self.page(&items, start, start + 1)
        };
        let keep = most_that_fit(MAX_CUT_LINES, |keep| self.fits(&with(keep)));
        (keep > 0).then(|| with(keep))
    }

    /// Adds previews of the results left out (`more`) while the answer fits.
    fn preview(&self, answer: &mut Value, rest: &[Item]) {
        let Some(preview) = self.fit.preview else { return };
        let previews: Vec<Value> = rest.iter().map(|item| preview(&item.value)).collect();
        let with = |n: usize| {
            let mut more = answer.clone();
            more["more"] = Value::Array(previews[..n].to_vec());
            more
        };
        let n = most_that_fit(previews.len(), |n| self.fits(&with(n)));
        if n > 0 {
            *answer = with(n);
        }
    }
}

/// The largest `n` in `0..=most` for which `fits(n)` holds (`fits` holds up to some `n` and
/// not beyond, as an answer's size grows with each result); 0 when none does.
fn most_that_fit(most: usize, fits: impl Fn(usize) -> bool) -> usize {
    let (mut low, mut high) = (0, most);
    while low < high {
        let mid = (low + high).div_ceil(2);
        if fits(mid) { low = mid } else { high = mid - 1 }
    }
    low
}

/// Text printed within a budget: how many of `blocks` (whole, in order), then of `previews`
/// (one line each, for the blocks left out), fit after `head` within `max_tokens`.
pub fn fit_text(head: &str, blocks: &[String], previews: &[String], max_tokens: usize) -> (usize, usize) {
    let max_tokens = max_tokens.max(MIN_MAX_TOKENS);
    let fits = |shown: usize, previewed: usize| {
        let rest = previews.iter().skip(shown).take(previewed).map(String::as_str);
        let text: String =
            std::iter::once(head).chain(blocks[..shown].iter().map(String::as_str)).chain(rest).collect();
        tokens(&text) <= max_tokens
    };
    let shown = most_that_fit(blocks.len(), |n| fits(n, 0));
    let previewed = most_that_fit(previews.len().saturating_sub(shown), |n| fits(shown, n));
    (shown, previewed)
}

fn paged(start: usize, end: usize, total: usize, skipped: usize) -> Paged {
    Paged {
        offset: start + skipped,
        shown: end - start,
        total: total + skipped,
        next_offset: (end < total).then_some(end + skipped),
    }
}

/// Moves the results out of `value`, in order, leaving their fields empty.
fn take_items(value: &mut Value, results: &[Results]) -> Vec<Item> {
    let mut items = Vec::new();
    for (part, results) in results.iter().enumerate() {
        match *results {
            Results::Items(field) => {
                if let Some(Value::Array(array)) = value.get_mut(field) {
                    items.extend(std::mem::take(array).into_iter().map(|value| Item { part, value }));
                }
            }
            Results::Lines(field) => {
                if let Some(Value::String(text)) = value.get_mut(field) {
                    let text = std::mem::take(text);
                    items.extend(text.split('\n').map(|line| Item { part, value: json!(line) }));
                }
            }
        }
    }
    items
}

/// Puts `items` back into their fields.
fn put_items(value: &mut Value, results: &[Results], items: &[Item]) {
    for (part, results) in results.iter().enumerate() {
        let mine = items.iter().filter(|i| i.part == part).map(|i| i.value.clone());
        match *results {
            Results::Items(field) => {
                if value.get(field).is_some() {
                    value[field] = Value::Array(mine.collect());
                }
            }
            Results::Lines(field) => {
                if value.get(field).is_some_and(Value::is_string) {
                    let lines: Vec<String> = mine.filter_map(|v| v.as_str().map(str::to_string)).collect();
                    value[field] = json!(lines.join("\n"));
                }
            }
        }
    }
}

/// Writes `truncated` (kept true when the answer was already cut) and `page`.
fn write_page(value: &mut Value, fit: &Fit, paged: &Paged, total_tokens: usize) {
    let cut = paged.next_offset.is_some();
    let was_cut = value.get("truncated").and_then(Value::as_bool).unwrap_or(false);
    value["truncated"] = json!(was_cut || cut);
    let lines = fit.results.iter().all(|r| matches!(r, Results::Lines(_)));
    value["page"] = json!({
        "offset": paged.offset,
        if lines { "lines" } else { "results" }: paged.shown,
        "total": paged.total,
        "total_tokens": total_tokens,
        "next_offset": paged.next_offset,
    });
}

#[cfg(test)]
mod tests;
