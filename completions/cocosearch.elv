
use builtin;
use str;

set edit:completion:arg-completer[cocosearch] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'cocosearch'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'cocosearch'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand init 'Set a project up: its cocosearch.yaml, and the MCP server for AI agents'
            cand index 'Index a codebase (incremental: only changed files are redone)'
            cand watch 'Keep a project''s index fresh as files change, until Ctrl-C'
            cand search 'Search an index with a question or an identifier'
            cand grep 'Every line matching a regular expression, as ripgrep finds it'
            cand analyze 'Show how a search reads a query and ranks its answer'
            cand symbol 'Find where a symbol is defined (exact, qualified or fuzzy)'
            cand refs 'Who uses a symbol: each reference with the calling function and line'
            cand deps 'What a file imports, resolved to project files, as a tree or a flat list'
            cand impact 'What depends on a file or a symbol, transitively, grouped by depth'
            cand path 'The shortest chain from A to B: imports between two files, calls between two symbols'
            cand outline 'The classes, functions and imports of a file, with their lines'
            cand stats 'Show what is indexed, how fresh it is, and where parsing failed'
            cand snapshots 'List the snapshots of an index: branches, worktrees and versions it keeps'
            cand list 'List the indexes in the database'
            cand clear 'Delete an index (or all of them)'
            cand task 'Tasks linked to the code: what is planned, under way and done, with their branches, commits and planning documents'
            cand languages 'List the supported languages and what is extracted from each'
            cand config 'Inspect and check the configuration'
            cand mcp 'Serve the search engine to AI agents over the Model Context Protocol'
            cand dashboard 'Serve the web dashboard and open it in the browser'
            cand model 'Download and list the built-in embedding models'
            cand completions 'Print a shell completion script'
            cand man 'Print the man page, or write every page to a directory'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'cocosearch;init'= {
            cand --agent 'Set up this agent (repeatable)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --dry-run 'Print what would change; write nothing'
            cand -f 'Replace cocosearch.yaml and a differing cocosearch server'
            cand --force 'Replace cocosearch.yaml and a differing cocosearch server'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;index'= {
            cand -n 'Name of the index (default: indexName, else the directory''s name)'
            cand --index 'Name of the index (default: indexName, else the directory''s name)'
            cand --name '`--name`, the old spelling of `--index` (works, with a note)'
            cand --include 'Index only files matching GLOB (repeatable)'
            cand -i '`-i`, the old short spelling of `--include` (works, with a note: `-i` is rg''s `--ignore-case`)'
            cand --exclude 'Leave out files matching GLOB (repeatable)'
            cand -e '`-e`, the old short spelling of `--exclude` (works, with a note: `-e` is rg''s `--regexp`)'
            cand --max-file-size 'Skip files larger than this many bytes (default 1 MiB)'
            cand --snapshot 'Record the tree as snapshot NAME (a release, an experiment)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --no-gitignore 'Do not apply .gitignore, .git/info/exclude or the global gitignore'
            cand --fresh 'Delete the index and rebuild it from nothing'
            cand --no-embed 'Skip embeddings (keyword search works; vectors come later)'
            cand --json 'Print the summary as JSON'
            cand --allow-any-dir 'Index a system, home or credentials directory anyway'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;watch'= {
            cand -n 'Name of the index (default: indexName, else the directory''s name)'
            cand --index 'Name of the index (default: indexName, else the directory''s name)'
            cand --name '`--name`, the old spelling of `--index` (works, with a note)'
            cand --debounce 'Milliseconds of quiet before a batch is indexed (default: indexing.watchDebounceMs, 200)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --no-embed 'Keep the index keyword-only: compute no vectors in the background'
            cand --json 'Print one JSON object per event on stdout (JSON lines)'
            cand --allow-any-dir 'Watch a system, home or credentials directory anyway (see `cocosearch index --help`)'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;search'= {
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --at 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)'
            cand --indexes 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)'
            cand -m 'Number of results (default: search.resultLimit, 10)'
            cand --limit 'Number of results (default: search.resultLimit, 10)'
            cand --max-tokens 'Token budget of the whole answer (cl100k_base tokens, at least 200; agents get 4000 unless they say): results past it are left for the next page, and the answer says so'
            cand --offset 'Skip this many results: the next page (the answer before gives page.next_offset)'
            cand --min-score 'Drop hits scoring below this (0..1)'
            cand --mode 'How to rank: auto (by what the query looks like), hybrid, vector or keyword'
            cand --lang 'Only these languages (comma list; aliases such as ts, py, tf work)'
            cand --path 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)'
            cand --symbol-type 'Only chunks defining these kinds of symbol (comma list: function, method, class, ...)'
            cand --symbol-name 'Only chunks whose symbol name matches this glob, case-insensitive (get*User, *Handler)'
            cand -B 'Lines to show before each hit, read from the file'
            cand --before-context 'Lines to show before each hit, read from the file'
            cand -A 'Lines to show after each hit, read from the file'
            cand --after-context 'Lines to show after each hit, read from the file'
            cand -C 'Lines to show before and after each hit'
            cand --context 'Lines to show before and after each hit'
            cand --max-lines 'Cap on the lines of each hit; longer hits are cut and say so'
            cand --definitions 'Also list the N functions and methods most likely meant, from the top files (1-100)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --hybrid 'Always fuse vector and keyword results (--mode hybrid)'
            cand --no-hybrid 'Vector search only (--mode vector)'
            cand --keyword 'Keyword search only, no embedding needed (--mode keyword)'
            cand --no-smart 'Do not expand hits to their enclosing function or class'
            cand --no-rewrite 'Search the query as typed, even when controller.enabled rewrites queries'
            cand --no-cache 'Embed the query again instead of using the cached vector (and replace it)'
            cand --compact 'One line per hit: path:line, the symbol and the score'
            cand -l 'Only the paths of the files with hits, best first, one per line (rg''s `-l`)'
            cand --files 'Only the paths of the files with hits, best first, one per line (rg''s `-l`)'
            cand --interactive 'Interactive search loop'
            cand -i '`-i`, the old short spelling of `--interactive` (works, with a note: `-i` is rg''s `--ignore-case`)'
            cand --json 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;grep'= {
            cand -e 'A pattern to search for (repeatable; PATTERN is then a path)'
            cand --regexp 'A pattern to search for (repeatable; PATTERN is then a path)'
            cand --indexes 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)'
            cand -g 'Globs: `*.py` keeps matching files only, `!tests/**` leaves them out (repeatable)'
            cand --glob 'Globs: `*.py` keeps matching files only, `!tests/**` leaves them out (repeatable)'
            cand -t 'Only these languages (comma list; the names of search''s --lang)'
            cand --type 'Only these languages (comma list; the names of search''s --lang)'
            cand --lang 'Only these languages (comma list; the names of search''s --lang)'
            cand -B 'Lines of context before each match'
            cand --before-context 'Lines of context before each match'
            cand -A 'Lines of context after each match'
            cand --after-context 'Lines of context after each match'
            cand -C 'Lines of context before and after each match'
            cand --context 'Lines of context before and after each match'
            cand -m 'At most N matching lines per file (rg -m)'
            cand --max-count 'At most N matching lines per file (rg -m)'
            cand --at 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)'
            cand -r 'Show each match replaced by TEXT; the files are not changed (rg -r)'
            cand --replace 'Show each match replaced by TEXT; the files are not changed (rg -r)'
            cand --sort 'Sort the files: path (the default), modified, accessed, created or none (rg --sort)'
            cand --sortr 'Sort the files the other way round: the newest or the last path first (rg --sortr)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand -F 'The pattern is literal text: no character is special (rg -F)'
            cand --fixed-strings 'The pattern is literal text: no character is special (rg -F)'
            cand -i 'Match case-insensitively (rg -i)'
            cand --ignore-case 'Match case-insensitively (rg -i)'
            cand -S 'Case-insensitive unless the pattern has an upper-case letter (rg -S)'
            cand --smart-case 'Case-insensitive unless the pattern has an upper-case letter (rg -S)'
            cand -w 'Only whole words (rg -w)'
            cand --word-regexp 'Only whole words (rg -w)'
            cand -U 'A match may span lines: `\n` in the pattern matches a line break (rg -U)'
            cand --multiline 'A match may span lines: `\n` in the pattern matches a line break (rg -U)'
            cand --invert-match 'Lines that do not match (rg -v)'
            cand -l 'Only the paths of the files with a match (rg -l), no lines'
            cand --files-with-matches 'Only the paths of the files with a match (rg -l), no lines'
            cand -c 'Only the number of matching lines of each file (rg -c)'
            cand --count 'Only the number of matching lines of each file (rg -c)'
            cand --heading 'Group matches under a heading per file (the default on a terminal)'
            cand --no-heading 'One `path:line:column:text` per match (the default when piped)'
            cand --symbols 'Name the definition each match lies in, from the project''s index'
            cand --files 'List the files that would be searched, and search nothing'
            cand --json 'JSON output: one document, the matches with the field names of `search --json`'
            cand -n 'Line numbers are always shown (rg''s -n, accepted)'
            cand --line-number 'Line numbers are always shown (rg''s -n, accepted)'
            cand -N 'Show no line or column numbers (rg -N)'
            cand --no-line-number 'Show no line or column numbers (rg -N)'
            cand --column 'Columns are always shown (rg''s --column, accepted)'
            cand --no-column 'Show no column numbers (rg --no-column)'
            cand -H 'File names are always shown (rg''s -H, accepted)'
            cand --with-filename 'File names are always shown (rg''s -H, accepted)'
            cand --hidden 'Hidden files are searched already, as the index holds them (rg''s --hidden, accepted)'
            cand -o 'Only the matched parts, each on its own line with its column (rg -o)'
            cand --only-matching 'Only the matched parts, each on its own line with its column (rg -o)'
            cand --vimgrep 'Each match on its own `path:line:column:text` line, for an editor''s list (rg --vimgrep)'
            cand -P 'Refused: no PCRE2 here (look-around and backreferences); rg -P has it'
            cand --pcre2 'Refused: no PCRE2 here (look-around and backreferences); rg -P has it'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;analyze'= {
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --at 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)'
            cand --indexes 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)'
            cand -m 'Number of results (default: search.resultLimit, 10)'
            cand --limit 'Number of results (default: search.resultLimit, 10)'
            cand --max-tokens 'Token budget of the whole answer (cl100k_base tokens, at least 200; agents get 4000 unless they say): results past it are left for the next page, and the answer says so'
            cand --offset 'Skip this many results: the next page (the answer before gives page.next_offset)'
            cand --min-score 'Drop hits scoring below this (0..1)'
            cand --mode 'How to rank: auto (by what the query looks like), hybrid, vector or keyword'
            cand --lang 'Only these languages (comma list; aliases such as ts, py, tf work)'
            cand --path 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)'
            cand --symbol-type 'Only chunks defining these kinds of symbol (comma list: function, method, class, ...)'
            cand --symbol-name 'Only chunks whose symbol name matches this glob, case-insensitive (get*User, *Handler)'
            cand -B 'Lines to show before each hit, read from the file'
            cand --before-context 'Lines to show before each hit, read from the file'
            cand -A 'Lines to show after each hit, read from the file'
            cand --after-context 'Lines to show after each hit, read from the file'
            cand -C 'Lines to show before and after each hit'
            cand --context 'Lines to show before and after each hit'
            cand --max-lines 'Cap on the lines of each hit; longer hits are cut and say so'
            cand --definitions 'Also list the N functions and methods most likely meant, from the top files (1-100)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --hybrid 'Always fuse vector and keyword results (--mode hybrid)'
            cand --no-hybrid 'Vector search only (--mode vector)'
            cand --keyword 'Keyword search only, no embedding needed (--mode keyword)'
            cand --no-smart 'Do not expand hits to their enclosing function or class'
            cand --no-rewrite 'Search the query as typed, even when controller.enabled rewrites queries'
            cand --no-cache 'Embed the query again instead of using the cached vector (and replace it)'
            cand --compact 'One line per hit: path:line, the symbol and the score'
            cand -l 'Only the paths of the files with hits, best first, one per line (rg''s `-l`)'
            cand --files 'Only the paths of the files with hits, best first, one per line (rg''s `-l`)'
            cand --interactive 'Interactive search loop'
            cand -i '`-i`, the old short spelling of `--interactive` (works, with a note: `-i` is rg''s `--ignore-case`)'
            cand --json 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;symbol'= {
            cand --kind 'Only definitions of these kinds (comma list: function, method, class, struct, ...)'
            cand --indexes 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)'
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --at 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)'
            cand --lang 'Only these languages (comma list; aliases such as ts, py, tf work)'
            cand --path 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)'
            cand -m 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`'
            cand --limit 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;refs'= {
            cand --indexes 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)'
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --at 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)'
            cand --lang 'Only these languages (comma list; aliases such as ts, py, tf work)'
            cand --path 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)'
            cand -m 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`'
            cand --limit 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --exact 'Only references tied to the definition by the language''s rules (no heuristic ones)'
            cand --json 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;deps'= {
            cand -d 'Follow imports this many levels deep (default 1)'
            cand --depth 'Follow imports this many levels deep (default 1)'
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --at 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)'
            cand --lang 'Only these languages (comma list; aliases such as ts, py, tf work)'
            cand --path 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)'
            cand -m 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`'
            cand --limit 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --flat 'A flat list of the files reached, with their depth, instead of a tree'
            cand --json 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;impact'= {
            cand -d 'Stop after this many levels (default: all for a file, 3 for a symbol)'
            cand --depth 'Stop after this many levels (default: all for a file, 3 for a symbol)'
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --at 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)'
            cand --lang 'Only these languages (comma list; aliases such as ts, py, tf work)'
            cand --path 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)'
            cand -m 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`'
            cand --limit 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;path'= {
            cand --max-depth 'The longest chain looked for (default 10)'
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --at 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)'
            cand --lang 'Only these languages (comma list; aliases such as ts, py, tf work)'
            cand --path 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)'
            cand -m 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`'
            cand --limit 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;outline'= {
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --at 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)'
            cand --lang 'Only these languages (comma list; aliases such as ts, py, tf work)'
            cand --path 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)'
            cand -m 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`'
            cand --limit 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;stats'= {
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --staleness-threshold 'Warn when the last run is older than this many days'
            cand --at 'Count a snapshot: a snapshot''s name, a branch, a tag or a commit that was indexed (without a scan of the disk, which holds the working tree)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --all 'Every index in the database'
            cand --show-failures 'List each file whose chunks failed to parse, with error positions'
            cand --json 'Print JSON'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;snapshots'= {
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --delete 'Delete a snapshot (a name, a branch, a tag or a commit, as `--at` reads it; repeatable)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Print JSON'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;list'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Print JSON'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;clear'= {
            cand --tasks 'What becomes of the deleted indexes'' projects'' tasks: keep them (default) or delete them too'
            cand -n 'The index to delete (as NAME)'
            cand --index 'The index to delete (as NAME)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --all 'Delete every index'
            cand -f 'Do not ask for confirmation'
            cand -y 'Do not ask for confirmation'
            cand --force 'Do not ask for confirmation'
            cand --yes 'Do not ask for confirmation'
            cand --json 'Print JSON'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;task'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand add 'Record a task (status: need to be done)'
            cand list 'List tasks, most recently changed first'
            cand show 'Show a task and a summary of its commits'' changes (--full: every file, its symbols and its importers)'
            cand update 'Change a task''s title, description, notes or status, or link a branch, a commit or a planning document'
            cand done 'Mark a task complete (with --here: linked to the current branch and commit)'
            cand log 'A task''s status history and links, oldest first'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'cocosearch;task;add'= {
            cand -d 'What is to be done, and why'
            cand --description 'What is to be done, and why'
            cand --notes 'Notes'
            cand --plan 'A spec or plan document inside the project (repeatable)'
            cand --branch 'Link the task to this git branch'
            cand --commit 'Link the task to this commit (its full 40-digit SHA-1)'
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --here 'Link the current git branch, and HEAD as a commit of the task''s'
            cand --json 'JSON output'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;task;list'= {
            cand -s 'Only tasks with this status: need-to-be-done (todo), in-progress (doing), complete (done)'
            cand --status 'Only tasks with this status: need-to-be-done (todo), in-progress (doing), complete (done)'
            cand -b 'Only tasks linked to this branch'
            cand --branch 'Only tasks linked to this branch'
            cand --search 'Only tasks whose title, description or notes hold every word of TEXT'
            cand -m 'Show at most N tasks, 1 to 100 (default 50)'
            cand --limit 'Show at most N tasks, 1 to 100 (default 50)'
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --here 'Only tasks linked to the current git branch'
            cand --json 'JSON output'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;task;show'= {
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --full 'Every changed file with its definitions and importers, not a summary'
            cand --json 'JSON output'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;task;update'= {
            cand --title 'A new title'
            cand -d 'A new description'
            cand --description 'A new description'
            cand --notes 'New notes (they replace the old ones)'
            cand -s 'A new status: need-to-be-done (todo), in-progress (doing), complete (done)'
            cand --status 'A new status: need-to-be-done (todo), in-progress (doing), complete (done)'
            cand --plan 'Link a spec or plan document inside the project (repeatable)'
            cand --branch 'Link the task to this git branch'
            cand --commit 'Link the task to this commit (its full 40-digit SHA-1)'
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --here 'Link the current git branch, and HEAD as a commit of the task''s'
            cand --json 'JSON output'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;task;done'= {
            cand --notes 'New notes (they replace the old ones)'
            cand --branch 'Link the task to this git branch'
            cand --commit 'Link the task to this commit (its full 40-digit SHA-1)'
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --here 'Link the current git branch, and HEAD as a commit of the task''s'
            cand --json 'JSON output'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;task;log'= {
            cand -n 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --index 'Read this index instead of the project''s own (`cocosearch list` shows them)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'JSON output'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;task;help'= {
            cand add 'Record a task (status: need to be done)'
            cand list 'List tasks, most recently changed first'
            cand show 'Show a task and a summary of its commits'' changes (--full: every file, its symbols and its importers)'
            cand update 'Change a task''s title, description, notes or status, or link a branch, a commit or a planning document'
            cand done 'Mark a task complete (with --here: linked to the current branch and commit)'
            cand log 'A task''s status history and links, oldest first'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'cocosearch;task;help;add'= {
        }
        &'cocosearch;task;help;list'= {
        }
        &'cocosearch;task;help;show'= {
        }
        &'cocosearch;task;help;update'= {
        }
        &'cocosearch;task;help;done'= {
        }
        &'cocosearch;task;help;log'= {
        }
        &'cocosearch;task;help;help'= {
        }
        &'cocosearch;languages'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Print JSON'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;config'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand check 'Check that the store (and vector search) and the embedding model answer'
            cand show 'Print every setting, its value and where it came from'
            cand path 'Print which configuration file is in force'
            cand init 'Write a starter cocosearch.yaml in the project root'
            cand trust 'Trust this project''s own cocosearch.yaml as it is now'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'cocosearch;config;check'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Print JSON'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;config;show'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Print JSON'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;config;path'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Print JSON'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;config;init'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand -f 'Overwrite an existing file'
            cand --force 'Overwrite an existing file'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;config;trust'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Print JSON'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;config;help'= {
            cand check 'Check that the store (and vector search) and the embedding model answer'
            cand show 'Print every setting, its value and where it came from'
            cand path 'Print which configuration file is in force'
            cand init 'Write a starter cocosearch.yaml in the project root'
            cand trust 'Trust this project''s own cocosearch.yaml as it is now'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'cocosearch;config;help;check'= {
        }
        &'cocosearch;config;help;show'= {
        }
        &'cocosearch;config;help;path'= {
        }
        &'cocosearch;config;help;init'= {
        }
        &'cocosearch;config;help;trust'= {
        }
        &'cocosearch;config;help;help'= {
        }
        &'cocosearch;mcp'= {
            cand --transport 'stdio for local agents (default), http for streamable HTTP at /mcp'
            cand --host 'Address to bind the HTTP transport to (default 127.0.0.1)'
            cand --port 'Port of the HTTP transport (default 3000)'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --project-from-cwd 'Default project: the working directory''s git root'
            cand --no-watch 'Do not keep the served indexes fresh (indexing.watch: false)'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;dashboard'= {
            cand --port 'Port to serve on (0 picks a free one)'
            cand --host 'Address to bind to'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --no-open 'Do not open the browser; just print the address'
            cand --no-watch 'Do not keep the served indexes fresh (indexing.watch: false)'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;model'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand download 'Download a built-in model into the user cache'
            cand list 'List the built-in models: which are cached, their sizes and paths'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'cocosearch;model;download'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Print JSON'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;model;list'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand --json 'Print JSON'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;model;help'= {
            cand download 'Download a built-in model into the user cache'
            cand list 'List the built-in models: which are cached, their sizes and paths'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'cocosearch;model;help;download'= {
        }
        &'cocosearch;model;help;list'= {
        }
        &'cocosearch;model;help;help'= {
        }
        &'cocosearch;completions'= {
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;man'= {
            cand --dir 'Write cocosearch.1 and one page per subcommand into this directory'
            cand --config 'Use this config file instead of cocosearch.yaml'
            cand --set 'Set a config key (e.g. --set embedding.model=all-minilm)'
            cand --color 'When to use colours. `auto` colours a terminal unless NO_COLOR is set'
            cand -v 'More output; repeat for more (-vv)'
            cand --verbose 'More output; repeat for more (-vv)'
            cand -q 'Print only errors; no progress bars'
            cand --quiet 'Print only errors; no progress bars'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
        &'cocosearch;help'= {
            cand init 'Set a project up: its cocosearch.yaml, and the MCP server for AI agents'
            cand index 'Index a codebase (incremental: only changed files are redone)'
            cand watch 'Keep a project''s index fresh as files change, until Ctrl-C'
            cand search 'Search an index with a question or an identifier'
            cand grep 'Every line matching a regular expression, as ripgrep finds it'
            cand analyze 'Show how a search reads a query and ranks its answer'
            cand symbol 'Find where a symbol is defined (exact, qualified or fuzzy)'
            cand refs 'Who uses a symbol: each reference with the calling function and line'
            cand deps 'What a file imports, resolved to project files, as a tree or a flat list'
            cand impact 'What depends on a file or a symbol, transitively, grouped by depth'
            cand path 'The shortest chain from A to B: imports between two files, calls between two symbols'
            cand outline 'The classes, functions and imports of a file, with their lines'
            cand stats 'Show what is indexed, how fresh it is, and where parsing failed'
            cand snapshots 'List the snapshots of an index: branches, worktrees and versions it keeps'
            cand list 'List the indexes in the database'
            cand clear 'Delete an index (or all of them)'
            cand task 'Tasks linked to the code: what is planned, under way and done, with their branches, commits and planning documents'
            cand languages 'List the supported languages and what is extracted from each'
            cand config 'Inspect and check the configuration'
            cand mcp 'Serve the search engine to AI agents over the Model Context Protocol'
            cand dashboard 'Serve the web dashboard and open it in the browser'
            cand model 'Download and list the built-in embedding models'
            cand completions 'Print a shell completion script'
            cand man 'Print the man page, or write every page to a directory'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'cocosearch;help;init'= {
        }
        &'cocosearch;help;index'= {
        }
        &'cocosearch;help;watch'= {
        }
        &'cocosearch;help;search'= {
        }
        &'cocosearch;help;grep'= {
        }
        &'cocosearch;help;analyze'= {
        }
        &'cocosearch;help;symbol'= {
        }
        &'cocosearch;help;refs'= {
        }
        &'cocosearch;help;deps'= {
        }
        &'cocosearch;help;impact'= {
        }
        &'cocosearch;help;path'= {
        }
        &'cocosearch;help;outline'= {
        }
        &'cocosearch;help;stats'= {
        }
        &'cocosearch;help;snapshots'= {
        }
        &'cocosearch;help;list'= {
        }
        &'cocosearch;help;clear'= {
        }
        &'cocosearch;help;task'= {
            cand add 'Record a task (status: need to be done)'
            cand list 'List tasks, most recently changed first'
            cand show 'Show a task and a summary of its commits'' changes (--full: every file, its symbols and its importers)'
            cand update 'Change a task''s title, description, notes or status, or link a branch, a commit or a planning document'
            cand done 'Mark a task complete (with --here: linked to the current branch and commit)'
            cand log 'A task''s status history and links, oldest first'
        }
        &'cocosearch;help;task;add'= {
        }
        &'cocosearch;help;task;list'= {
        }
        &'cocosearch;help;task;show'= {
        }
        &'cocosearch;help;task;update'= {
        }
        &'cocosearch;help;task;done'= {
        }
        &'cocosearch;help;task;log'= {
        }
        &'cocosearch;help;languages'= {
        }
        &'cocosearch;help;config'= {
            cand check 'Check that the store (and vector search) and the embedding model answer'
            cand show 'Print every setting, its value and where it came from'
            cand path 'Print which configuration file is in force'
            cand init 'Write a starter cocosearch.yaml in the project root'
            cand trust 'Trust this project''s own cocosearch.yaml as it is now'
        }
        &'cocosearch;help;config;check'= {
        }
        &'cocosearch;help;config;show'= {
        }
        &'cocosearch;help;config;path'= {
        }
        &'cocosearch;help;config;init'= {
        }
        &'cocosearch;help;config;trust'= {
        }
        &'cocosearch;help;mcp'= {
        }
        &'cocosearch;help;dashboard'= {
        }
        &'cocosearch;help;model'= {
            cand download 'Download a built-in model into the user cache'
            cand list 'List the built-in models: which are cached, their sizes and paths'
        }
        &'cocosearch;help;model;download'= {
        }
        &'cocosearch;help;model;list'= {
        }
        &'cocosearch;help;completions'= {
        }
        &'cocosearch;help;man'= {
        }
        &'cocosearch;help;help'= {
        }
    ]
    $completions[$command]
}
