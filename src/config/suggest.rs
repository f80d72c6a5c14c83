//! "Did you mean": the known name closest to one typed, for every refusal that names a thing
//! the user may have misspelled (a setting, a parameter, a value).

/// Of `known`, the one most like `typed` (Jaro-Winkler, case-insensitive), when it is at least
/// `min_similarity` alike (0..1; 0.8 is a typo, 0.9 a near-certain one).
pub fn closest<'a>(typed: &str, known: impl IntoIterator<Item = &'a str>, min_similarity: f64) -> Option<&'a str> {
    let typed = typed.to_lowercase();
    known
        .into_iter()
        .map(|k| (strsim::jaro_winkler(&typed, &k.to_lowercase()), k))
        .filter(|(score, _)| *score >= min_similarity)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// `did you mean `x`?` for the one of `known` closest to `typed` (at 0.8, a typo), the words
/// every refusal of a misspelled name ends with.
pub fn did_you_mean<'a>(typed: &str, known: impl IntoIterator<Item = &'a str>) -> Option<String> {
    closest(typed, known, 0.8).map(|k| format!("did you mean `{k}`?"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_known_name_above_the_bar() {
        let known = ["limit", "language", "path"];
        assert_eq!(closest("limt", known, 0.8), Some("limit"));
        assert_eq!(closest("LANGUAGE", known, 0.8), Some("language"));
        assert_eq!(closest("zzz", known, 0.8), None);
    }
}
