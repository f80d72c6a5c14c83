//! `-v` means `--invert-match` in `cocosearch grep`, as in rg, while it means `--verbose`
//! everywhere else (a global flag, which clap would also give to `grep`). Before parsing, a
//! `-v` in grep's own arguments is spelled `--invert-match`.

use std::ffi::OsString;

/// Global options that take a value (so the next argument is not the subcommand).
const GLOBAL_VALUES: [&str; 3] = ["--config", "--set", "--color"];
/// grep's short options that take a value: the rest of a cluster is that value.
const SHORT_VALUES: &str = "ABCmgter";
/// grep's long options that take a value (as the next argument, without `=`).
const LONG_VALUES: [&str; 16] = [
    "--regexp",
    "--replace",
    "--sort",
    "--sortr",
    "--index",
    "--at",
    "--after-context",
    "--before-context",
    "--context",
    "--glob",
    "--type",
    "--lang",
    "--max-count",
    "--config",
    "--set",
    "--color",
];

/// `args` with every `-v` of `grep`'s arguments spelled `--invert-match`.
pub fn spell_invert(args: Vec<OsString>) -> Vec<OsString> {
    let Some(at) = subcommand_position(&args).filter(|&i| args[i] == "grep") else {
        return args;
    };
    let mut out: Vec<OsString> = args[..=at].to_vec();
    let mut rest = args[at + 1..].iter();
    while let Some(arg) = rest.next() {
        let Some(text) = arg.to_str() else {
            out.push(arg.clone());
            continue;
        };
        if text == "--" {
            out.push(arg.clone());
            out.extend(rest.cloned());
            break;
        }
        if LONG_VALUES.contains(&text) {
            out.push(arg.clone());
            out.extend(rest.next().cloned());
            continue;
        }
        if !text.starts_with('-') || text.starts_with("--") || text.len() < 2 {
            out.push(arg.clone());
            continue;
        }
        let (flags, needs_value) = split_cluster(&text[1..]);
        out.extend(flags.into_iter().map(OsString::from));
        if needs_value {
            out.extend(rest.next().cloned());
        }
    }
    out
}

/// A cluster of short flags (`ivA3`) as arguments (`-i`, `--invert-match`, `-A3`), and
/// whether its last flag takes its value from the next argument.
fn split_cluster(cluster: &str) -> (Vec<String>, bool) {
    let mut flags = Vec::new();
    let mut plain = String::new();
    for (i, c) in cluster.char_indices() {
        if c == 'v' {
            if !plain.is_empty() {
                flags.push(format!("-{}", std::mem::take(&mut plain)));
            }
            flags.push("--invert-match".to_string());
        } else if SHORT_VALUES.contains(c) {
            plain.push_str(&cluster[i..]);
            let needs_value = i + c.len_utf8() == cluster.len();
            flags.push(format!("-{plain}"));
            return (flags, needs_value);
        } else {
            plain.push(c);
        }
    }
    if !plain.is_empty() {
        flags.push(format!("-{plain}"));
    }
    (flags, false)
}

/// Where the subcommand is: the first argument after the program that is not a global flag
/// or its value.
fn subcommand_position(args: &[OsString]) -> Option<usize> {
    let mut i = 1;
    while i < args.len() {
        let text = args[i].to_str()?;
        if GLOBAL_VALUES.contains(&text) {
            i += 2;
        } else if text.starts_with('-') {
            i += 1;
        } else {
            return Some(i);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spell(args: &[&str]) -> Vec<String> {
        spell_invert(args.iter().map(OsString::from).collect())
            .into_iter()
            .map(|a| a.into_string().expect("utf-8"))
            .collect()
    }

    #[test]
    fn v_is_invert_in_grep_only() {
        assert_eq!(spell(&["cs", "grep", "-v", "x"]), ["cs", "grep", "--invert-match", "x"]);
        assert_eq!(spell(&["cs", "-q", "grep", "-ivw", "x"]), ["cs", "-q", "grep", "-i", "--invert-match", "-w", "x"]);
        assert_eq!(spell(&["cs", "grep", "-vA", "3", "x"]), ["cs", "grep", "--invert-match", "-A", "3", "x"]);
        assert_eq!(spell(&["cs", "grep", "-e", "-v", "x"]), ["cs", "grep", "-e", "-v", "x"]);
        assert_eq!(spell(&["cs", "grep", "-ev", "x"]), ["cs", "grep", "-ev", "x"]);
        assert_eq!(spell(&["cs", "grep", "--glob", "-v", "-v"]), ["cs", "grep", "--glob", "-v", "--invert-match"]);
        assert_eq!(spell(&["cs", "grep", "--", "-v"]), ["cs", "grep", "--", "-v"]);
        assert_eq!(spell(&["cs", "--set", "grep", "search", "-v", "x"]), ["cs", "--set", "grep", "search", "-v", "x"]);
        assert_eq!(spell(&["cs", "search", "-v", "grep"]), ["cs", "search", "-v", "grep"]);
    }
}
