//! Redaction of secrets before anything is printed or logged.
//!
//! Passwords in URLs and API keys never reach the terminal, JSON output or logs. There is one
//! redaction, [`redact_url`]: the password of the userinfo (`user:***@`) and the values of
//! credential-like query parameters (`?password=***`, `?sslpassword=***`, `?api_key=***`) are
//! replaced, everything else is kept as written. [`redact_text`] applies it to every URL inside
//! a free text, such as an HTTP client's error message that quotes the URL it called; callers
//! show one or the other instead of the raw text, always, even in error messages.

/// What replaces a secret.
const MASK: &str = "***";

/// Fragments that make a query parameter's name credential-like (compared in lowercase, with
/// `-` read as `_`): `password`, `sslpassword`, `passwd`, `pwd`, `token`, `access_token`,
/// `api_key`, `apikey`, `key`, `secret`, `client_secret`, `auth`, `authorization`, ...
const SECRET_NAME_PARTS: &[&str] = &["pass", "pwd", "secret", "token", "auth", "key", "credential", "signature"];

/// `url` with its password and credential-like query values replaced by `***`.
///
/// Unparseable input is redacted by its shape (everything between `://` and the last `@`
/// after the user, and the query parameters), so a malformed URL still never leaks its
/// credentials.
pub fn redact_url(url: &str) -> String {
    let (before_query, query) = match url.split_once('?') {
        Some((before, query)) => (before, Some(query)),
        None => (url, None),
    };
    let mut out = redact_userinfo(before_query);
    if let Some(query) = query {
        out.push('?');
        out.push_str(&redact_query(query));
    }
    out
}

/// `text` with every URL in it (`scheme://…` up to the next blank, quote or bracket) passed
/// through [`redact_url`].
pub fn redact_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(found) = rest.find("://") {
        // The scheme: the letters, digits, `+`, `-` and `.` right before `://`.
        let scheme_start = rest[..found]
            .char_indices()
            .rev()
            .take_while(|(_, c)| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
            .last()
            .map_or(found, |(i, _)| i);
        let end = rest[found..]
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '<' | '>' | '(' | ')' | '[' | ']'))
            .map_or(rest.len(), |i| found + i);
        out.push_str(&rest[..scheme_start]);
        if scheme_start == found {
            // No scheme: not a URL, keep the separator as it is.
            out.push_str(&rest[found..found + 3]);
            rest = &rest[found + 3..];
            continue;
        }
        // Punctuation that ends a sentence ends the URL too: `at http://h/db: refused`.
        let url = rest[scheme_start..end].trim_end_matches(['.', ',', ';', ':', '!', '?']);
        let end = scheme_start + url.len();
        out.push_str(&redact_url(url));
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// Whether a query parameter with this (encoded) name carries a credential.
fn is_secret_name(name: &str) -> bool {
    let decoded: String = url::form_urlencoded::parse(format!("{name}=").as_bytes())
        .next()
        .map(|(k, _)| k.into_owned())
        .unwrap_or_else(|| name.to_string());
    let name = decoded.to_ascii_lowercase().replace('-', "_");
    SECRET_NAME_PARTS.iter().any(|part| name.contains(part))
}

/// `a=1&password=x&b` → `a=1&password=***&b`, keeping every other byte as written.
fn redact_query(query: &str) -> String {
    let (query, fragment) = match query.split_once('#') {
        Some((query, fragment)) => (query, Some(fragment)),
        None => (query, None),
    };
    let mut out: Vec<String> = Vec::new();
    for pair in query.split('&') {
        match pair.split_once('=') {
            Some((name, value)) if is_secret_name(name) && !value.is_empty() => out.push(format!("{name}={MASK}")),
            _ => out.push(pair.to_string()),
        }
    }
    let mut out = out.join("&");
    if let Some(fragment) = fragment {
        out.push('#');
        out.push_str(fragment);
    }
    out
}

/// `scheme://user:password@host/path` → `scheme://user:***@host/path`.
fn redact_userinfo(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else { return url.to_string() };
    let authority_start = scheme_end + 3;
    let authority_end = url[authority_start..].find('/').map_or(url.len(), |i| authority_start + i);
    let authority = &url[authority_start..authority_end];
    // The userinfo ends at the last `@` of the authority: a password may hold a raw `@`.
    let Some(at) = authority.rfind('@') else { return url.to_string() };
    let userinfo = &authority[..at];
    match userinfo.split_once(':') {
        Some((user, _)) => format!("{}{user}:{MASK}{}", &url[..authority_start], &url[authority_start + at..]),
        None => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_masked() {
        assert_eq!(
            redact_url("postgresql://cocosearch:s3cret@localhost:5432/cocosearch"),
            "postgresql://cocosearch:***@localhost:5432/cocosearch"
        );
        assert_eq!(redact_url("postgresql://u@h/db"), "postgresql://u@h/db");
        assert_eq!(redact_url("http://localhost:11434"), "http://localhost:11434");
        assert_eq!(redact_url("1nvalid://us er:pa ss@host"), "1nvalid://us er:***@host");
        assert_eq!(redact_url("http://u:p%40ss@host:1/x"), "http://u:***@host:1/x");
        assert_eq!(redact_url("http://u:p@ss@host/x@y"), "http://u:***@host/x@y");
    }

    #[test]
    fn credential_query_parameters_are_masked() {
        assert_eq!(
            redact_url("postgresql://u@h/db?sslmode=require&password=s3cr%21t&application_name=x"),
            "postgresql://u@h/db?sslmode=require&password=***&application_name=x"
        );
        for name in
            ["PASSWORD", "passwd", "pwd", "sslpassword", "token", "access_token", "api_key", "apikey", "key", "secret"]
        {
            assert_eq!(redact_url(&format!("https://h/v1?{name}=zz&a=b")), format!("https://h/v1?{name}=***&a=b"));
        }
        assert_eq!(redact_url("https://h/v1?Api-Key=zz"), "https://h/v1?Api-Key=***");
        assert_eq!(redact_url("https://h/v1?pass%77ord=zz"), "https://h/v1?pass%77ord=***");
        assert_eq!(redact_url("https://h/v1?auth=zz#frag"), "https://h/v1?auth=***#frag");
        assert_eq!(redact_url("https://h/v1?q=1&flag"), "https://h/v1?q=1&flag");
        assert_eq!(redact_url("not a url?password=zz"), "not a url?password=***");
    }

    #[test]
    fn urls_inside_text_are_masked() {
        assert_eq!(
            redact_text("error sending request for url (http://u:pw@127.0.0.1:9/api/embed): refused"),
            "error sending request for url (http://u:***@127.0.0.1:9/api/embed): refused"
        );
        assert_eq!(
            redact_text("a postgresql://u@h/db?password=pw: and https://h?token=t."),
            "a postgresql://u@h/db?password=***: and https://h?token=***."
        );
        assert_eq!(redact_text("no url :// here, key=value"), "no url :// here, key=value");
        assert_eq!(redact_text(""), "");
    }
}
