//! Redaction of secrets before anything is printed or logged.
//!
//! Passwords in URLs and API keys never reach the terminal, JSON output or logs; callers
//! show `redact_url(url)` instead of the URL, always, even in error messages.

/// `url` with its password (if any) replaced by `***`.
///
/// Unparseable input is returned with everything between `//` and `@` masked, so a malformed
/// URL still never leaks its credentials.
pub fn redact_url(url: &str) -> String {
    if let Ok(mut parsed) = url::Url::parse(url) {
        if parsed.password().is_some() && parsed.set_password(Some("***")).is_ok() {
            return parsed.to_string();
        }
        return url.to_string();
    }
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let userinfo = &url[scheme_end + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme_end + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
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
    }
}
