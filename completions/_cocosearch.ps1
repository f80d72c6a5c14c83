
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'cocosearch' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'cocosearch'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'cocosearch' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Set a project up: its cocosearch.yaml, and the MCP server for AI agents')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'Index a codebase (incremental: only changed files are redone)')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Keep a project''s index fresh as files change, until Ctrl-C')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search an index with a question or an identifier')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Every line matching a regular expression, as ripgrep finds it')
            [CompletionResult]::new('analyze', 'analyze', [CompletionResultType]::ParameterValue, 'Show how a search reads a query and ranks its answer')
            [CompletionResult]::new('symbol', 'symbol', [CompletionResultType]::ParameterValue, 'Find where a symbol is defined (exact, qualified or fuzzy)')
            [CompletionResult]::new('refs', 'refs', [CompletionResultType]::ParameterValue, 'Who uses a symbol: each reference with the calling function and line')
            [CompletionResult]::new('deps', 'deps', [CompletionResultType]::ParameterValue, 'What a file imports, resolved to project files, as a tree or a flat list')
            [CompletionResult]::new('impact', 'impact', [CompletionResultType]::ParameterValue, 'What depends on a file or a symbol, transitively, grouped by depth')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'The shortest chain from A to B: imports between two files, calls between two symbols')
            [CompletionResult]::new('outline', 'outline', [CompletionResultType]::ParameterValue, 'The classes, functions and imports of a file, with their lines')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Show what is indexed, how fresh it is, and where parsing failed')
            [CompletionResult]::new('snapshots', 'snapshots', [CompletionResultType]::ParameterValue, 'List the snapshots of an index: branches, worktrees and versions it keeps')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the indexes in the database')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Delete an index (or all of them)')
            [CompletionResult]::new('task', 'task', [CompletionResultType]::ParameterValue, 'Tasks linked to the code: what is planned, under way and done, with their branches, commits and planning documents')
            [CompletionResult]::new('languages', 'languages', [CompletionResultType]::ParameterValue, 'List the supported languages and what is extracted from each')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Inspect and check the configuration')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the search engine to AI agents over the Model Context Protocol')
            [CompletionResult]::new('dashboard', 'dashboard', [CompletionResultType]::ParameterValue, 'Serve the web dashboard and open it in the browser')
            [CompletionResult]::new('model', 'model', [CompletionResultType]::ParameterValue, 'Download and list the built-in embedding models')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page, or write every page to a directory')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'cocosearch;init' {
            [CompletionResult]::new('--agent', '--agent', [CompletionResultType]::ParameterName, 'Set up this agent (repeatable)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would change; write nothing')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Replace cocosearch.yaml and a differing cocosearch server')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Replace cocosearch.yaml and a differing cocosearch server')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;index' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Name of the index (default: indexName, else the directory''s name)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Name of the index (default: indexName, else the directory''s name)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, '`--name`, the old spelling of `--index` (works, with a note)')
            [CompletionResult]::new('--include', '--include', [CompletionResultType]::ParameterName, 'Index only files matching GLOB (repeatable)')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, '`-i`, the old short spelling of `--include` (works, with a note: `-i` is rg''s `--ignore-case`)')
            [CompletionResult]::new('--exclude', '--exclude', [CompletionResultType]::ParameterName, 'Leave out files matching GLOB (repeatable)')
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, '`-e`, the old short spelling of `--exclude` (works, with a note: `-e` is rg''s `--regexp`)')
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Skip files larger than this many bytes (default 1 MiB)')
            [CompletionResult]::new('--snapshot', '--snapshot', [CompletionResultType]::ParameterName, 'Record the tree as snapshot NAME (a release, an experiment)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--no-gitignore', '--no-gitignore', [CompletionResultType]::ParameterName, 'Do not apply .gitignore, .git/info/exclude or the global gitignore')
            [CompletionResult]::new('--fresh', '--fresh', [CompletionResultType]::ParameterName, 'Delete the index and rebuild it from nothing')
            [CompletionResult]::new('--no-embed', '--no-embed', [CompletionResultType]::ParameterName, 'Skip embeddings (keyword search works; vectors come later)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print the summary as JSON')
            [CompletionResult]::new('--allow-any-dir', '--allow-any-dir', [CompletionResultType]::ParameterName, 'Index a system, home or credentials directory anyway')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;watch' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Name of the index (default: indexName, else the directory''s name)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Name of the index (default: indexName, else the directory''s name)')
            [CompletionResult]::new('--name', '--name', [CompletionResultType]::ParameterName, '`--name`, the old spelling of `--index` (works, with a note)')
            [CompletionResult]::new('--debounce', '--debounce', [CompletionResultType]::ParameterName, 'Milliseconds of quiet before a batch is indexed (default: indexing.watchDebounceMs, 200)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--no-embed', '--no-embed', [CompletionResultType]::ParameterName, 'Keep the index keyword-only: compute no vectors in the background')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print one JSON object per event on stdout (JSON lines)')
            [CompletionResult]::new('--allow-any-dir', '--allow-any-dir', [CompletionResultType]::ParameterName, 'Watch a system, home or credentials directory anyway (see `cocosearch index --help`)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;search' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)')
            [CompletionResult]::new('--indexes', '--indexes', [CompletionResultType]::ParameterName, 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Number of results (default: search.resultLimit, 10)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Number of results (default: search.resultLimit, 10)')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Token budget of the whole answer (cl100k_base tokens, at least 200; agents get 4000 unless they say): results past it are left for the next page, and the answer says so')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip this many results: the next page (the answer before gives page.next_offset)')
            [CompletionResult]::new('--min-score', '--min-score', [CompletionResultType]::ParameterName, 'Drop hits scoring below this (0..1)')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'How to rank: auto (by what the query looks like), hybrid, vector or keyword')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Only these languages (comma list; aliases such as ts, py, tf work)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)')
            [CompletionResult]::new('--symbol-type', '--symbol-type', [CompletionResultType]::ParameterName, 'Only chunks defining these kinds of symbol (comma list: function, method, class, ...)')
            [CompletionResult]::new('--symbol-name', '--symbol-name', [CompletionResultType]::ParameterName, 'Only chunks whose symbol name matches this glob, case-insensitive (get*User, *Handler)')
            [CompletionResult]::new('-B', '-B ', [CompletionResultType]::ParameterName, 'Lines to show before each hit, read from the file')
            [CompletionResult]::new('--before-context', '--before-context', [CompletionResultType]::ParameterName, 'Lines to show before each hit, read from the file')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Lines to show after each hit, read from the file')
            [CompletionResult]::new('--after-context', '--after-context', [CompletionResultType]::ParameterName, 'Lines to show after each hit, read from the file')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines to show before and after each hit')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines to show before and after each hit')
            [CompletionResult]::new('--max-lines', '--max-lines', [CompletionResultType]::ParameterName, 'Cap on the lines of each hit; longer hits are cut and say so')
            [CompletionResult]::new('--definitions', '--definitions', [CompletionResultType]::ParameterName, 'Also list the N functions and methods most likely meant, from the top files (1-100)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--hybrid', '--hybrid', [CompletionResultType]::ParameterName, 'Always fuse vector and keyword results (--mode hybrid)')
            [CompletionResult]::new('--no-hybrid', '--no-hybrid', [CompletionResultType]::ParameterName, 'Vector search only (--mode vector)')
            [CompletionResult]::new('--keyword', '--keyword', [CompletionResultType]::ParameterName, 'Keyword search only, no embedding needed (--mode keyword)')
            [CompletionResult]::new('--no-smart', '--no-smart', [CompletionResultType]::ParameterName, 'Do not expand hits to their enclosing function or class')
            [CompletionResult]::new('--no-rewrite', '--no-rewrite', [CompletionResultType]::ParameterName, 'Search the query as typed, even when controller.enabled rewrites queries')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Embed the query again instead of using the cached vector (and replace it)')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'One line per hit: path:line, the symbol and the score')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only the paths of the files with hits, best first, one per line (rg''s `-l`)')
            [CompletionResult]::new('--files', '--files', [CompletionResultType]::ParameterName, 'Only the paths of the files with hits, best first, one per line (rg''s `-l`)')
            [CompletionResult]::new('--interactive', '--interactive', [CompletionResultType]::ParameterName, 'Interactive search loop')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, '`-i`, the old short spelling of `--interactive` (works, with a note: `-i` is rg''s `--ignore-case`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;grep' {
            [CompletionResult]::new('-e', '-e', [CompletionResultType]::ParameterName, 'A pattern to search for (repeatable; PATTERN is then a path)')
            [CompletionResult]::new('--regexp', '--regexp', [CompletionResultType]::ParameterName, 'A pattern to search for (repeatable; PATTERN is then a path)')
            [CompletionResult]::new('--indexes', '--indexes', [CompletionResultType]::ParameterName, 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)')
            [CompletionResult]::new('-g', '-g', [CompletionResultType]::ParameterName, 'Globs: `*.py` keeps matching files only, `!tests/**` leaves them out (repeatable)')
            [CompletionResult]::new('--glob', '--glob', [CompletionResultType]::ParameterName, 'Globs: `*.py` keeps matching files only, `!tests/**` leaves them out (repeatable)')
            [CompletionResult]::new('-t', '-t', [CompletionResultType]::ParameterName, 'Only these languages (comma list; the names of search''s --lang)')
            [CompletionResult]::new('--type', '--type', [CompletionResultType]::ParameterName, 'Only these languages (comma list; the names of search''s --lang)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Only these languages (comma list; the names of search''s --lang)')
            [CompletionResult]::new('-B', '-B ', [CompletionResultType]::ParameterName, 'Lines of context before each match')
            [CompletionResult]::new('--before-context', '--before-context', [CompletionResultType]::ParameterName, 'Lines of context before each match')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Lines of context after each match')
            [CompletionResult]::new('--after-context', '--after-context', [CompletionResultType]::ParameterName, 'Lines of context after each match')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines of context before and after each match')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines of context before and after each match')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'At most N matching lines per file (rg -m)')
            [CompletionResult]::new('--max-count', '--max-count', [CompletionResultType]::ParameterName, 'At most N matching lines per file (rg -m)')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)')
            [CompletionResult]::new('-r', '-r', [CompletionResultType]::ParameterName, 'Show each match replaced by TEXT; the files are not changed (rg -r)')
            [CompletionResult]::new('--replace', '--replace', [CompletionResultType]::ParameterName, 'Show each match replaced by TEXT; the files are not changed (rg -r)')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'Sort the files: path (the default), modified, accessed, created or none (rg --sort)')
            [CompletionResult]::new('--sortr', '--sortr', [CompletionResultType]::ParameterName, 'Sort the files the other way round: the newest or the last path first (rg --sortr)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-F', '-F ', [CompletionResultType]::ParameterName, 'The pattern is literal text: no character is special (rg -F)')
            [CompletionResult]::new('--fixed-strings', '--fixed-strings', [CompletionResultType]::ParameterName, 'The pattern is literal text: no character is special (rg -F)')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, 'Match case-insensitively (rg -i)')
            [CompletionResult]::new('--ignore-case', '--ignore-case', [CompletionResultType]::ParameterName, 'Match case-insensitively (rg -i)')
            [CompletionResult]::new('-S', '-S ', [CompletionResultType]::ParameterName, 'Case-insensitive unless the pattern has an upper-case letter (rg -S)')
            [CompletionResult]::new('--smart-case', '--smart-case', [CompletionResultType]::ParameterName, 'Case-insensitive unless the pattern has an upper-case letter (rg -S)')
            [CompletionResult]::new('-w', '-w', [CompletionResultType]::ParameterName, 'Only whole words (rg -w)')
            [CompletionResult]::new('--word-regexp', '--word-regexp', [CompletionResultType]::ParameterName, 'Only whole words (rg -w)')
            [CompletionResult]::new('-U', '-U ', [CompletionResultType]::ParameterName, 'A match may span lines: `\n` in the pattern matches a line break (rg -U)')
            [CompletionResult]::new('--multiline', '--multiline', [CompletionResultType]::ParameterName, 'A match may span lines: `\n` in the pattern matches a line break (rg -U)')
            [CompletionResult]::new('--invert-match', '--invert-match', [CompletionResultType]::ParameterName, 'Lines that do not match (rg -v)')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only the paths of the files with a match (rg -l), no lines')
            [CompletionResult]::new('--files-with-matches', '--files-with-matches', [CompletionResultType]::ParameterName, 'Only the paths of the files with a match (rg -l), no lines')
            [CompletionResult]::new('-c', '-c', [CompletionResultType]::ParameterName, 'Only the number of matching lines of each file (rg -c)')
            [CompletionResult]::new('--count', '--count', [CompletionResultType]::ParameterName, 'Only the number of matching lines of each file (rg -c)')
            [CompletionResult]::new('--heading', '--heading', [CompletionResultType]::ParameterName, 'Group matches under a heading per file (the default on a terminal)')
            [CompletionResult]::new('--no-heading', '--no-heading', [CompletionResultType]::ParameterName, 'One `path:line:column:text` per match (the default when piped)')
            [CompletionResult]::new('--symbols', '--symbols', [CompletionResultType]::ParameterName, 'Name the definition each match lies in, from the project''s index')
            [CompletionResult]::new('--files', '--files', [CompletionResultType]::ParameterName, 'List the files that would be searched, and search nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output: one document, the matches with the field names of `search --json`')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Line numbers are always shown (rg''s -n, accepted)')
            [CompletionResult]::new('--line-number', '--line-number', [CompletionResultType]::ParameterName, 'Line numbers are always shown (rg''s -n, accepted)')
            [CompletionResult]::new('-N', '-N ', [CompletionResultType]::ParameterName, 'Show no line or column numbers (rg -N)')
            [CompletionResult]::new('--no-line-number', '--no-line-number', [CompletionResultType]::ParameterName, 'Show no line or column numbers (rg -N)')
            [CompletionResult]::new('--column', '--column', [CompletionResultType]::ParameterName, 'Columns are always shown (rg''s --column, accepted)')
            [CompletionResult]::new('--no-column', '--no-column', [CompletionResultType]::ParameterName, 'Show no column numbers (rg --no-column)')
            [CompletionResult]::new('-H', '-H ', [CompletionResultType]::ParameterName, 'File names are always shown (rg''s -H, accepted)')
            [CompletionResult]::new('--with-filename', '--with-filename', [CompletionResultType]::ParameterName, 'File names are always shown (rg''s -H, accepted)')
            [CompletionResult]::new('--hidden', '--hidden', [CompletionResultType]::ParameterName, 'Hidden files are searched already, as the index holds them (rg''s --hidden, accepted)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Only the matched parts, each on its own line with its column (rg -o)')
            [CompletionResult]::new('--only-matching', '--only-matching', [CompletionResultType]::ParameterName, 'Only the matched parts, each on its own line with its column (rg -o)')
            [CompletionResult]::new('--vimgrep', '--vimgrep', [CompletionResultType]::ParameterName, 'Each match on its own `path:line:column:text` line, for an editor''s list (rg --vimgrep)')
            [CompletionResult]::new('-P', '-P ', [CompletionResultType]::ParameterName, 'Refused: no PCRE2 here (look-around and backreferences); rg -P has it')
            [CompletionResult]::new('--pcre2', '--pcre2', [CompletionResultType]::ParameterName, 'Refused: no PCRE2 here (look-around and backreferences); rg -P has it')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;analyze' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)')
            [CompletionResult]::new('--indexes', '--indexes', [CompletionResultType]::ParameterName, 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Number of results (default: search.resultLimit, 10)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Number of results (default: search.resultLimit, 10)')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Token budget of the whole answer (cl100k_base tokens, at least 200; agents get 4000 unless they say): results past it are left for the next page, and the answer says so')
            [CompletionResult]::new('--offset', '--offset', [CompletionResultType]::ParameterName, 'Skip this many results: the next page (the answer before gives page.next_offset)')
            [CompletionResult]::new('--min-score', '--min-score', [CompletionResultType]::ParameterName, 'Drop hits scoring below this (0..1)')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'How to rank: auto (by what the query looks like), hybrid, vector or keyword')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Only these languages (comma list; aliases such as ts, py, tf work)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)')
            [CompletionResult]::new('--symbol-type', '--symbol-type', [CompletionResultType]::ParameterName, 'Only chunks defining these kinds of symbol (comma list: function, method, class, ...)')
            [CompletionResult]::new('--symbol-name', '--symbol-name', [CompletionResultType]::ParameterName, 'Only chunks whose symbol name matches this glob, case-insensitive (get*User, *Handler)')
            [CompletionResult]::new('-B', '-B ', [CompletionResultType]::ParameterName, 'Lines to show before each hit, read from the file')
            [CompletionResult]::new('--before-context', '--before-context', [CompletionResultType]::ParameterName, 'Lines to show before each hit, read from the file')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'Lines to show after each hit, read from the file')
            [CompletionResult]::new('--after-context', '--after-context', [CompletionResultType]::ParameterName, 'Lines to show after each hit, read from the file')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'Lines to show before and after each hit')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'Lines to show before and after each hit')
            [CompletionResult]::new('--max-lines', '--max-lines', [CompletionResultType]::ParameterName, 'Cap on the lines of each hit; longer hits are cut and say so')
            [CompletionResult]::new('--definitions', '--definitions', [CompletionResultType]::ParameterName, 'Also list the N functions and methods most likely meant, from the top files (1-100)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--hybrid', '--hybrid', [CompletionResultType]::ParameterName, 'Always fuse vector and keyword results (--mode hybrid)')
            [CompletionResult]::new('--no-hybrid', '--no-hybrid', [CompletionResultType]::ParameterName, 'Vector search only (--mode vector)')
            [CompletionResult]::new('--keyword', '--keyword', [CompletionResultType]::ParameterName, 'Keyword search only, no embedding needed (--mode keyword)')
            [CompletionResult]::new('--no-smart', '--no-smart', [CompletionResultType]::ParameterName, 'Do not expand hits to their enclosing function or class')
            [CompletionResult]::new('--no-rewrite', '--no-rewrite', [CompletionResultType]::ParameterName, 'Search the query as typed, even when controller.enabled rewrites queries')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Embed the query again instead of using the cached vector (and replace it)')
            [CompletionResult]::new('--compact', '--compact', [CompletionResultType]::ParameterName, 'One line per hit: path:line, the symbol and the score')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Only the paths of the files with hits, best first, one per line (rg''s `-l`)')
            [CompletionResult]::new('--files', '--files', [CompletionResultType]::ParameterName, 'Only the paths of the files with hits, best first, one per line (rg''s `-l`)')
            [CompletionResult]::new('--interactive', '--interactive', [CompletionResultType]::ParameterName, 'Interactive search loop')
            [CompletionResult]::new('-i', '-i', [CompletionResultType]::ParameterName, '`-i`, the old short spelling of `--interactive` (works, with a note: `-i` is rg''s `--ignore-case`)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;symbol' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only definitions of these kinds (comma list: function, method, class, struct, ...)')
            [CompletionResult]::new('--indexes', '--indexes', [CompletionResultType]::ParameterName, 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Only these languages (comma list; aliases such as ts, py, tf work)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;refs' {
            [CompletionResult]::new('--indexes', '--indexes', [CompletionResultType]::ParameterName, 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Only these languages (comma list; aliases such as ts, py, tf work)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--exact', '--exact', [CompletionResultType]::ParameterName, 'Only references tied to the definition by the language''s rules (no heuristic ones)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;deps' {
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'Follow imports this many levels deep (default 1)')
            [CompletionResult]::new('--depth', '--depth', [CompletionResultType]::ParameterName, 'Follow imports this many levels deep (default 1)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Only these languages (comma list; aliases such as ts, py, tf work)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--flat', '--flat', [CompletionResultType]::ParameterName, 'A flat list of the files reached, with their depth, instead of a tree')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;impact' {
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'Stop after this many levels (default: all for a file, 3 for a symbol)')
            [CompletionResult]::new('--depth', '--depth', [CompletionResultType]::ParameterName, 'Stop after this many levels (default: all for a file, 3 for a symbol)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Only these languages (comma list; aliases such as ts, py, tf work)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;path' {
            [CompletionResult]::new('--max-depth', '--max-depth', [CompletionResultType]::ParameterName, 'The longest chain looked for (default 10)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Only these languages (comma list; aliases such as ts, py, tf work)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;outline' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Read a snapshot instead of the working tree: a snapshot''s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)')
            [CompletionResult]::new('--lang', '--lang', [CompletionResultType]::ParameterName, 'Only these languages (comma list; aliases such as ts, py, tf work)')
            [CompletionResult]::new('--path', '--path', [CompletionResultType]::ParameterName, 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output. Without it the output is text, on a terminal or piped (as rg''s is)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;stats' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--staleness-threshold', '--staleness-threshold', [CompletionResultType]::ParameterName, 'Warn when the last run is older than this many days')
            [CompletionResult]::new('--at', '--at', [CompletionResultType]::ParameterName, 'Count a snapshot: a snapshot''s name, a branch, a tag or a commit that was indexed (without a scan of the disk, which holds the working tree)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every index in the database')
            [CompletionResult]::new('--show-failures', '--show-failures', [CompletionResultType]::ParameterName, 'List each file whose chunks failed to parse, with error positions')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;snapshots' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--delete', '--delete', [CompletionResultType]::ParameterName, 'Delete a snapshot (a name, a branch, a tag or a commit, as `--at` reads it; repeatable)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;list' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;clear' {
            [CompletionResult]::new('--tasks', '--tasks', [CompletionResultType]::ParameterName, 'What becomes of the deleted indexes'' projects'' tasks: keep them (default) or delete them too')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The index to delete (as NAME)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'The index to delete (as NAME)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Delete every index')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;task' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a task (status: need to be done)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List tasks, most recently changed first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a task and a summary of its commits'' changes (--full: every file, its symbols and its importers)')
            [CompletionResult]::new('update', 'update', [CompletionResultType]::ParameterValue, 'Change a task''s title, description, notes or status, or link a branch, a commit or a planning document')
            [CompletionResult]::new('done', 'done', [CompletionResultType]::ParameterValue, 'Mark a task complete (with --here: linked to the current branch and commit)')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'A task''s status history and links, oldest first')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'cocosearch;task;add' {
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'What is to be done, and why')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'What is to be done, and why')
            [CompletionResult]::new('--notes', '--notes', [CompletionResultType]::ParameterName, 'Notes')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'A spec or plan document inside the project (repeatable)')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Link the task to this git branch')
            [CompletionResult]::new('--commit', '--commit', [CompletionResultType]::ParameterName, 'Link the task to this commit (its full 40-digit SHA-1)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Link the current git branch, and HEAD as a commit of the task''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;task;list' {
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'Only tasks with this status: need-to-be-done (todo), in-progress (doing), complete (done)')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'Only tasks with this status: need-to-be-done (todo), in-progress (doing), complete (done)')
            [CompletionResult]::new('-b', '-b', [CompletionResultType]::ParameterName, 'Only tasks linked to this branch')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Only tasks linked to this branch')
            [CompletionResult]::new('--search', '--search', [CompletionResultType]::ParameterName, 'Only tasks whose title, description or notes hold every word of TEXT')
            [CompletionResult]::new('-m', '-m', [CompletionResultType]::ParameterName, 'Show at most N tasks, 1 to 100 (default 50)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N tasks, 1 to 100 (default 50)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Only tasks linked to the current git branch')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;task;show' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--full', '--full', [CompletionResultType]::ParameterName, 'Every changed file with its definitions and importers, not a summary')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;task;update' {
            [CompletionResult]::new('--title', '--title', [CompletionResultType]::ParameterName, 'A new title')
            [CompletionResult]::new('-d', '-d', [CompletionResultType]::ParameterName, 'A new description')
            [CompletionResult]::new('--description', '--description', [CompletionResultType]::ParameterName, 'A new description')
            [CompletionResult]::new('--notes', '--notes', [CompletionResultType]::ParameterName, 'New notes (they replace the old ones)')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'A new status: need-to-be-done (todo), in-progress (doing), complete (done)')
            [CompletionResult]::new('--status', '--status', [CompletionResultType]::ParameterName, 'A new status: need-to-be-done (todo), in-progress (doing), complete (done)')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'Link a spec or plan document inside the project (repeatable)')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Link the task to this git branch')
            [CompletionResult]::new('--commit', '--commit', [CompletionResultType]::ParameterName, 'Link the task to this commit (its full 40-digit SHA-1)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Link the current git branch, and HEAD as a commit of the task''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;task;done' {
            [CompletionResult]::new('--notes', '--notes', [CompletionResultType]::ParameterName, 'New notes (they replace the old ones)')
            [CompletionResult]::new('--branch', '--branch', [CompletionResultType]::ParameterName, 'Link the task to this git branch')
            [CompletionResult]::new('--commit', '--commit', [CompletionResultType]::ParameterName, 'Link the task to this commit (its full 40-digit SHA-1)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--here', '--here', [CompletionResultType]::ParameterName, 'Link the current git branch, and HEAD as a commit of the task''s')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;task;log' {
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--index', '--index', [CompletionResultType]::ParameterName, 'Read this index instead of the project''s own (`cocosearch list` shows them)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'JSON output')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;task;help' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a task (status: need to be done)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List tasks, most recently changed first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a task and a summary of its commits'' changes (--full: every file, its symbols and its importers)')
            [CompletionResult]::new('update', 'update', [CompletionResultType]::ParameterValue, 'Change a task''s title, description, notes or status, or link a branch, a commit or a planning document')
            [CompletionResult]::new('done', 'done', [CompletionResultType]::ParameterValue, 'Mark a task complete (with --here: linked to the current branch and commit)')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'A task''s status history and links, oldest first')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'cocosearch;task;help;add' {
            break
        }
        'cocosearch;task;help;list' {
            break
        }
        'cocosearch;task;help;show' {
            break
        }
        'cocosearch;task;help;update' {
            break
        }
        'cocosearch;task;help;done' {
            break
        }
        'cocosearch;task;help;log' {
            break
        }
        'cocosearch;task;help;help' {
            break
        }
        'cocosearch;languages' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;config' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check that the store (and vector search) and the embedding model answer')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting, its value and where it came from')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print which configuration file is in force')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write a starter cocosearch.yaml in the project root')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust this project''s own cocosearch.yaml as it is now')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'cocosearch;config;check' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;config;show' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;config;path' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;config;init' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Overwrite an existing file')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite an existing file')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;config;trust' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;config;help' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check that the store (and vector search) and the embedding model answer')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting, its value and where it came from')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print which configuration file is in force')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write a starter cocosearch.yaml in the project root')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust this project''s own cocosearch.yaml as it is now')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'cocosearch;config;help;check' {
            break
        }
        'cocosearch;config;help;show' {
            break
        }
        'cocosearch;config;help;path' {
            break
        }
        'cocosearch;config;help;init' {
            break
        }
        'cocosearch;config;help;trust' {
            break
        }
        'cocosearch;config;help;help' {
            break
        }
        'cocosearch;mcp' {
            [CompletionResult]::new('--transport', '--transport', [CompletionResultType]::ParameterName, 'stdio for local agents (default), http for streamable HTTP at /mcp')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Address to bind the HTTP transport to (default 127.0.0.1)')
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port of the HTTP transport (default 3000)')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--project-from-cwd', '--project-from-cwd', [CompletionResultType]::ParameterName, 'Default project: the working directory''s git root')
            [CompletionResult]::new('--no-watch', '--no-watch', [CompletionResultType]::ParameterName, 'Do not keep the served indexes fresh (indexing.watch: false)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;dashboard' {
            [CompletionResult]::new('--port', '--port', [CompletionResultType]::ParameterName, 'Port to serve on (0 picks a free one)')
            [CompletionResult]::new('--host', '--host', [CompletionResultType]::ParameterName, 'Address to bind to')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--no-open', '--no-open', [CompletionResultType]::ParameterName, 'Do not open the browser; just print the address')
            [CompletionResult]::new('--no-watch', '--no-watch', [CompletionResultType]::ParameterName, 'Do not keep the served indexes fresh (indexing.watch: false)')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;model' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('download', 'download', [CompletionResultType]::ParameterValue, 'Download a built-in model into the user cache')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the built-in models: which are cached, their sizes and paths')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'cocosearch;model;download' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;model;list' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;model;help' {
            [CompletionResult]::new('download', 'download', [CompletionResultType]::ParameterValue, 'Download a built-in model into the user cache')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the built-in models: which are cached, their sizes and paths')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'cocosearch;model;help;download' {
            break
        }
        'cocosearch;model;help;list' {
            break
        }
        'cocosearch;model;help;help' {
            break
        }
        'cocosearch;completions' {
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;man' {
            [CompletionResult]::new('--dir', '--dir', [CompletionResultType]::ParameterName, 'Write cocosearch.1 and one page per subcommand into this directory')
            [CompletionResult]::new('--config', '--config', [CompletionResultType]::ParameterName, 'Use this config file instead of cocosearch.yaml')
            [CompletionResult]::new('--set', '--set', [CompletionResultType]::ParameterName, 'Set a config key (e.g. --set embedding.model=all-minilm)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to use colours. `auto` colours a terminal unless NO_COLOR is set')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'More output; repeat for more (-vv)')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print only errors; no progress bars')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'cocosearch;help' {
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Set a project up: its cocosearch.yaml, and the MCP server for AI agents')
            [CompletionResult]::new('index', 'index', [CompletionResultType]::ParameterValue, 'Index a codebase (incremental: only changed files are redone)')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Keep a project''s index fresh as files change, until Ctrl-C')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search an index with a question or an identifier')
            [CompletionResult]::new('grep', 'grep', [CompletionResultType]::ParameterValue, 'Every line matching a regular expression, as ripgrep finds it')
            [CompletionResult]::new('analyze', 'analyze', [CompletionResultType]::ParameterValue, 'Show how a search reads a query and ranks its answer')
            [CompletionResult]::new('symbol', 'symbol', [CompletionResultType]::ParameterValue, 'Find where a symbol is defined (exact, qualified or fuzzy)')
            [CompletionResult]::new('refs', 'refs', [CompletionResultType]::ParameterValue, 'Who uses a symbol: each reference with the calling function and line')
            [CompletionResult]::new('deps', 'deps', [CompletionResultType]::ParameterValue, 'What a file imports, resolved to project files, as a tree or a flat list')
            [CompletionResult]::new('impact', 'impact', [CompletionResultType]::ParameterValue, 'What depends on a file or a symbol, transitively, grouped by depth')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'The shortest chain from A to B: imports between two files, calls between two symbols')
            [CompletionResult]::new('outline', 'outline', [CompletionResultType]::ParameterValue, 'The classes, functions and imports of a file, with their lines')
            [CompletionResult]::new('stats', 'stats', [CompletionResultType]::ParameterValue, 'Show what is indexed, how fresh it is, and where parsing failed')
            [CompletionResult]::new('snapshots', 'snapshots', [CompletionResultType]::ParameterValue, 'List the snapshots of an index: branches, worktrees and versions it keeps')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the indexes in the database')
            [CompletionResult]::new('clear', 'clear', [CompletionResultType]::ParameterValue, 'Delete an index (or all of them)')
            [CompletionResult]::new('task', 'task', [CompletionResultType]::ParameterValue, 'Tasks linked to the code: what is planned, under way and done, with their branches, commits and planning documents')
            [CompletionResult]::new('languages', 'languages', [CompletionResultType]::ParameterValue, 'List the supported languages and what is extracted from each')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'Inspect and check the configuration')
            [CompletionResult]::new('mcp', 'mcp', [CompletionResultType]::ParameterValue, 'Serve the search engine to AI agents over the Model Context Protocol')
            [CompletionResult]::new('dashboard', 'dashboard', [CompletionResultType]::ParameterValue, 'Serve the web dashboard and open it in the browser')
            [CompletionResult]::new('model', 'model', [CompletionResultType]::ParameterValue, 'Download and list the built-in embedding models')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page, or write every page to a directory')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'cocosearch;help;init' {
            break
        }
        'cocosearch;help;index' {
            break
        }
        'cocosearch;help;watch' {
            break
        }
        'cocosearch;help;search' {
            break
        }
        'cocosearch;help;grep' {
            break
        }
        'cocosearch;help;analyze' {
            break
        }
        'cocosearch;help;symbol' {
            break
        }
        'cocosearch;help;refs' {
            break
        }
        'cocosearch;help;deps' {
            break
        }
        'cocosearch;help;impact' {
            break
        }
        'cocosearch;help;path' {
            break
        }
        'cocosearch;help;outline' {
            break
        }
        'cocosearch;help;stats' {
            break
        }
        'cocosearch;help;snapshots' {
            break
        }
        'cocosearch;help;list' {
            break
        }
        'cocosearch;help;clear' {
            break
        }
        'cocosearch;help;task' {
            [CompletionResult]::new('add', 'add', [CompletionResultType]::ParameterValue, 'Record a task (status: need to be done)')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List tasks, most recently changed first')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show a task and a summary of its commits'' changes (--full: every file, its symbols and its importers)')
            [CompletionResult]::new('update', 'update', [CompletionResultType]::ParameterValue, 'Change a task''s title, description, notes or status, or link a branch, a commit or a planning document')
            [CompletionResult]::new('done', 'done', [CompletionResultType]::ParameterValue, 'Mark a task complete (with --here: linked to the current branch and commit)')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'A task''s status history and links, oldest first')
            break
        }
        'cocosearch;help;task;add' {
            break
        }
        'cocosearch;help;task;list' {
            break
        }
        'cocosearch;help;task;show' {
            break
        }
        'cocosearch;help;task;update' {
            break
        }
        'cocosearch;help;task;done' {
            break
        }
        'cocosearch;help;task;log' {
            break
        }
        'cocosearch;help;languages' {
            break
        }
        'cocosearch;help;config' {
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Check that the store (and vector search) and the embedding model answer')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Print every setting, its value and where it came from')
            [CompletionResult]::new('path', 'path', [CompletionResultType]::ParameterValue, 'Print which configuration file is in force')
            [CompletionResult]::new('init', 'init', [CompletionResultType]::ParameterValue, 'Write a starter cocosearch.yaml in the project root')
            [CompletionResult]::new('trust', 'trust', [CompletionResultType]::ParameterValue, 'Trust this project''s own cocosearch.yaml as it is now')
            break
        }
        'cocosearch;help;config;check' {
            break
        }
        'cocosearch;help;config;show' {
            break
        }
        'cocosearch;help;config;path' {
            break
        }
        'cocosearch;help;config;init' {
            break
        }
        'cocosearch;help;config;trust' {
            break
        }
        'cocosearch;help;mcp' {
            break
        }
        'cocosearch;help;dashboard' {
            break
        }
        'cocosearch;help;model' {
            [CompletionResult]::new('download', 'download', [CompletionResultType]::ParameterValue, 'Download a built-in model into the user cache')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List the built-in models: which are cached, their sizes and paths')
            break
        }
        'cocosearch;help;model;download' {
            break
        }
        'cocosearch;help;model;list' {
            break
        }
        'cocosearch;help;completions' {
            break
        }
        'cocosearch;help;man' {
            break
        }
        'cocosearch;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
