//! The text sent to the embedder for a chunk, and its hash.
//!
//! The stored content is exactly what is in the file; the embedded text adds what the chunk
//! lacks on its own — the file path and the signatures of the enclosing definitions — so a
//! method split out of a class still "knows" its class:
//!
//! ```text
//! requests/models.py
//! class Request(RequestHooksMixin):
//!     def register_hook(self, event, hook):
//!         ...
//! ```
//!
//! The text is cut to what the model reads (its context, in bytes, from the probe), at a char
//! boundary: longer input would be truncated by the server anyway, or refused.

/// The text to embed for a chunk of `path` with these enclosing signatures.
pub fn embed_text(path: &str, context: &str, content: &str, max_bytes: usize) -> String {
    let mut text = String::with_capacity(path.len() + context.len() + content.len() + 2);
    text.push_str(path);
    text.push('\n');
    if !context.is_empty() {
        text.push_str(context);
        text.push('\n');
    }
    text.push_str(content);
    truncate(&mut text, max_bytes);
    text
}

/// Cuts `text` to at most `max_bytes`, at a char boundary.
pub fn truncate(text: &mut String, max_bytes: usize) {
    if text.len() <= max_bytes {
        return;
    }
    let mut end = max_bytes;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
}

/// The identity of an embedded text: blake3 of the model and the text, 16 bytes. Equal hashes
/// mean an existing vector can be reused instead of asking the embedder again.
pub fn embed_hash(model: &str, text: &str) -> [u8; 16] {
    let mut hasher = blake3::Hasher::new();
    hasher.update(model.as_bytes());
    hasher.update(&[0]);
    hasher.update(text.as_bytes());
    let mut out = [0u8; 16];
    out.copy_from_slice(&hasher.finalize().as_bytes()[..16]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_and_truncation() {
        assert_eq!(embed_text("a.py", "class A:", "def f(): pass", 1000), "a.py\nclass A:\ndef f(): pass");
        assert_eq!(embed_text("a.py", "", "x", 1000), "a.py\nx");
        let cut = embed_text("a.py", "", "ééé", 8);
        assert_eq!(cut, "a.py\né");
        assert_ne!(embed_hash("m1", "x"), embed_hash("m2", "x"));
    }
}
