# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_cocosearch_global_optspecs
    string join \n config= set= v/verbose q/quiet color= h/help V/version
end

function __fish_cocosearch_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_cocosearch_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_cocosearch_using_subcommand
    set -l cmd (__fish_cocosearch_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c cocosearch -n "__fish_cocosearch_needs_command" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_needs_command" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_needs_command" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_needs_command" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "init" -d 'Set a project up: its cocosearch.yaml, and the MCP server for AI agents'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "index" -d 'Index a codebase (incremental: only changed files are redone)'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "watch" -d 'Keep a project\'s index fresh as files change, until Ctrl-C'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "search" -d 'Search an index with a question or an identifier'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "grep" -d 'Every line matching a regular expression, as ripgrep finds it'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "analyze" -d 'Show how a search reads a query and ranks its answer'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "symbol" -d 'Find where a symbol is defined (exact, qualified or fuzzy)'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "refs" -d 'Who uses a symbol: each reference with the calling function and line'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "deps" -d 'What a file imports, resolved to project files, as a tree or a flat list'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "impact" -d 'What depends on a file or a symbol, transitively, grouped by depth'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "path" -d 'The shortest chain from A to B: imports between two files, calls between two symbols'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "outline" -d 'The classes, functions and imports of a file, with their lines'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "stats" -d 'Show what is indexed, how fresh it is, and where parsing failed'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "snapshots" -d 'List the snapshots of an index: branches, worktrees and versions it keeps'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "list" -d 'List the indexes in the database'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "clear" -d 'Delete an index (or all of them)'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "task" -d 'Tasks linked to the code: what is planned, under way and done, with their branches, commits and planning documents'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "languages" -d 'List the supported languages and what is extracted from each'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "config" -d 'Inspect and check the configuration'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "mcp" -d 'Serve the search engine to AI agents over the Model Context Protocol'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "dashboard" -d 'Serve the web dashboard and open it in the browser'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "model" -d 'Download and list the built-in embedding models'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "completions" -d 'Print a shell completion script'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "man" -d 'Print the man page, or write every page to a directory'
complete -c cocosearch -n "__fish_cocosearch_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand init" -l agent -d 'Set up this agent (repeatable)' -r -f -a "claude\t'Claude Code: .mcp.json and CLAUDE.md'
cursor\t'Cursor: .cursor/mcp.json and .cursor/rules/cocosearch.mdc'
codex\t'Codex: .codex/config.toml (read in trusted projects) and AGENTS.md'
opencode\t'opencode: opencode.json and AGENTS.md'
gemini\t'Gemini CLI: .gemini/settings.json and GEMINI.md'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand init" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand init" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand init" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand init" -l dry-run -d 'Print what would change; write nothing'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand init" -s f -l force -d 'Replace cocosearch.yaml and a differing cocosearch server'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand init" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand init" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand init" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -s n -l index -d 'Name of the index (default: indexName, else the directory\'s name)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l name -d '`--name`, the old spelling of `--index` (works, with a note)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l include -d 'Index only files matching GLOB (repeatable)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -s i -d '`-i`, the old short spelling of `--include` (works, with a note: `-i` is rg\'s `--ignore-case`)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l exclude -d 'Leave out files matching GLOB (repeatable)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -s e -d '`-e`, the old short spelling of `--exclude` (works, with a note: `-e` is rg\'s `--regexp`)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l max-file-size -d 'Skip files larger than this many bytes (default 1 MiB)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l snapshot -d 'Record the tree as snapshot NAME (a release, an experiment)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l no-gitignore -d 'Do not apply .gitignore, .git/info/exclude or the global gitignore'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l fresh -d 'Delete the index and rebuild it from nothing'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l no-embed -d 'Skip embeddings (keyword search works; vectors come later)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l json -d 'Print the summary as JSON'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -l allow-any-dir -d 'Index a system, home or credentials directory anyway'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand index" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -s n -l index -d 'Name of the index (default: indexName, else the directory\'s name)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -l name -d '`--name`, the old spelling of `--index` (works, with a note)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -l debounce -d 'Milliseconds of quiet before a batch is indexed (default: indexing.watchDebounceMs, 200)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -l no-embed -d 'Keep the index keyword-only: compute no vectors in the background'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -l json -d 'Print one JSON object per event on stdout (JSON lines)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -l allow-any-dir -d 'Watch a system, home or credentials directory anyway (see `cocosearch index --help`)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand watch" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l at -d 'Read a snapshot instead of the working tree: a snapshot\'s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l indexes -d 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -s m -l limit -d 'Number of results (default: search.resultLimit, 10)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l max-tokens -d 'Token budget of the whole answer (cl100k_base tokens, at least 200; agents get 4000 unless they say): results past it are left for the next page, and the answer says so' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l offset -d 'Skip this many results: the next page (the answer before gives page.next_offset)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l min-score -d 'Drop hits scoring below this (0..1)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l mode -d 'How to rank: auto (by what the query looks like), hybrid, vector or keyword' -r -f -a "auto\t'Both, weighted by what the query looks like (the default)'
hybrid\t'Both, equally weighted'
vector\t'Nearest vectors only'
keyword\t'Keywords only (no embedding needed)'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l lang -d 'Only these languages (comma list; aliases such as ts, py, tf work)' -r -f -a "python\t''
javascript\t''
typescript\t''
tsx\t''
go\t''
rust\t''
java\t''
c\t''
cpp\t''
csharp\t''
ruby\t''
php\t''
kotlin\t''
scala\t''
swift\t''
lua\t''
elixir\t''
haskell\t''
zig\t''
bash\t''
hcl\t''
dockerfile\t''
sql\t''
yaml\t''
json\t''
toml\t''
markdown\t''
html\t''
css\t''
makefile\t''
groovy\t''
ini\t''
rst\t''
xml\t''
text\t''"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l path -d 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l symbol-type -d 'Only chunks defining these kinds of symbol (comma list: function, method, class, ...)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l symbol-name -d 'Only chunks whose symbol name matches this glob, case-insensitive (get*User, *Handler)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -s B -l before-context -d 'Lines to show before each hit, read from the file' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -s A -l after-context -d 'Lines to show after each hit, read from the file' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -s C -l context -d 'Lines to show before and after each hit' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l max-lines -d 'Cap on the lines of each hit; longer hits are cut and say so' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l definitions -d 'Also list the N functions and methods most likely meant, from the top files (1-100)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l hybrid -d 'Always fuse vector and keyword results (--mode hybrid)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l no-hybrid -d 'Vector search only (--mode vector)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l keyword -d 'Keyword search only, no embedding needed (--mode keyword)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l no-smart -d 'Do not expand hits to their enclosing function or class'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l no-rewrite -d 'Search the query as typed, even when controller.enabled rewrites queries'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l no-cache -d 'Embed the query again instead of using the cached vector (and replace it)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l compact -d 'One line per hit: path:line, the symbol and the score'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -s l -l files -d 'Only the paths of the files with hits, best first, one per line (rg\'s `-l`)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l interactive -d 'Interactive search loop'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -s i -d '`-i`, the old short spelling of `--interactive` (works, with a note: `-i` is rg\'s `--ignore-case`)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -l json -d 'JSON output. Without it the output is text, on a terminal or piped (as rg\'s is)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand search" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s e -l regexp -d 'A pattern to search for (repeatable; PATTERN is then a path)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l indexes -d 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s g -l glob -d 'Globs: `*.py` keeps matching files only, `!tests/**` leaves them out (repeatable)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s t -l type -l lang -d 'Only these languages (comma list; the names of search\'s --lang)' -r -f -a "python\t''
javascript\t''
typescript\t''
tsx\t''
go\t''
rust\t''
java\t''
c\t''
cpp\t''
csharp\t''
ruby\t''
php\t''
kotlin\t''
scala\t''
swift\t''
lua\t''
elixir\t''
haskell\t''
zig\t''
bash\t''
hcl\t''
dockerfile\t''
sql\t''
yaml\t''
json\t''
toml\t''
markdown\t''
html\t''
css\t''
makefile\t''
groovy\t''
ini\t''
rst\t''
xml\t''
text\t''"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s B -l before-context -d 'Lines of context before each match' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s A -l after-context -d 'Lines of context after each match' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s C -l context -d 'Lines of context before and after each match' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s m -l max-count -d 'At most N matching lines per file (rg -m)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l at -d 'Read a snapshot instead of the working tree: a snapshot\'s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s r -l replace -d 'Show each match replaced by TEXT; the files are not changed (rg -r)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l sort -d 'Sort the files: path (the default), modified, accessed, created or none (rg --sort)' -r -f -a "path\t'By path'
modified\t'By modification time'
accessed\t'By access time'
created\t'By creation time'
none\t'No order asked for (path order, here)'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l sortr -d 'Sort the files the other way round: the newest or the last path first (rg --sortr)' -r -f -a "path\t'By path'
modified\t'By modification time'
accessed\t'By access time'
created\t'By creation time'
none\t'No order asked for (path order, here)'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s F -l fixed-strings -d 'The pattern is literal text: no character is special (rg -F)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s i -l ignore-case -d 'Match case-insensitively (rg -i)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s S -l smart-case -d 'Case-insensitive unless the pattern has an upper-case letter (rg -S)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s w -l word-regexp -d 'Only whole words (rg -w)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s U -l multiline -d 'A match may span lines: `\\n` in the pattern matches a line break (rg -U)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l invert-match -d 'Lines that do not match (rg -v)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s l -l files-with-matches -d 'Only the paths of the files with a match (rg -l), no lines'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s c -l count -d 'Only the number of matching lines of each file (rg -c)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l heading -d 'Group matches under a heading per file (the default on a terminal)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l no-heading -d 'One `path:line:column:text` per match (the default when piped)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l symbols -d 'Name the definition each match lies in, from the project\'s index'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l files -d 'List the files that would be searched, and search nothing'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l json -d 'JSON output: one document, the matches with the field names of `search --json`'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s n -l line-number -d 'Line numbers are always shown (rg\'s -n, accepted)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s N -l no-line-number -d 'Show no line or column numbers (rg -N)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l column -d 'Columns are always shown (rg\'s --column, accepted)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l no-column -d 'Show no column numbers (rg --no-column)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s H -l with-filename -d 'File names are always shown (rg\'s -H, accepted)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l hidden -d 'Hidden files are searched already, as the index holds them (rg\'s --hidden, accepted)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s o -l only-matching -d 'Only the matched parts, each on its own line with its column (rg -o)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -l vimgrep -d 'Each match on its own `path:line:column:text` line, for an editor\'s list (rg --vimgrep)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s P -l pcre2 -d 'Refused: no PCRE2 here (look-around and backreferences); rg -P has it'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand grep" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l at -d 'Read a snapshot instead of the working tree: a snapshot\'s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l indexes -d 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -s m -l limit -d 'Number of results (default: search.resultLimit, 10)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l max-tokens -d 'Token budget of the whole answer (cl100k_base tokens, at least 200; agents get 4000 unless they say): results past it are left for the next page, and the answer says so' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l offset -d 'Skip this many results: the next page (the answer before gives page.next_offset)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l min-score -d 'Drop hits scoring below this (0..1)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l mode -d 'How to rank: auto (by what the query looks like), hybrid, vector or keyword' -r -f -a "auto\t'Both, weighted by what the query looks like (the default)'
hybrid\t'Both, equally weighted'
vector\t'Nearest vectors only'
keyword\t'Keywords only (no embedding needed)'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l lang -d 'Only these languages (comma list; aliases such as ts, py, tf work)' -r -f -a "python\t''
javascript\t''
typescript\t''
tsx\t''
go\t''
rust\t''
java\t''
c\t''
cpp\t''
csharp\t''
ruby\t''
php\t''
kotlin\t''
scala\t''
swift\t''
lua\t''
elixir\t''
haskell\t''
zig\t''
bash\t''
hcl\t''
dockerfile\t''
sql\t''
yaml\t''
json\t''
toml\t''
markdown\t''
html\t''
css\t''
makefile\t''
groovy\t''
ini\t''
rst\t''
xml\t''
text\t''"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l path -d 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l symbol-type -d 'Only chunks defining these kinds of symbol (comma list: function, method, class, ...)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l symbol-name -d 'Only chunks whose symbol name matches this glob, case-insensitive (get*User, *Handler)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -s B -l before-context -d 'Lines to show before each hit, read from the file' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -s A -l after-context -d 'Lines to show after each hit, read from the file' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -s C -l context -d 'Lines to show before and after each hit' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l max-lines -d 'Cap on the lines of each hit; longer hits are cut and say so' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l definitions -d 'Also list the N functions and methods most likely meant, from the top files (1-100)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l hybrid -d 'Always fuse vector and keyword results (--mode hybrid)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l no-hybrid -d 'Vector search only (--mode vector)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l keyword -d 'Keyword search only, no embedding needed (--mode keyword)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l no-smart -d 'Do not expand hits to their enclosing function or class'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l no-rewrite -d 'Search the query as typed, even when controller.enabled rewrites queries'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l no-cache -d 'Embed the query again instead of using the cached vector (and replace it)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l compact -d 'One line per hit: path:line, the symbol and the score'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -s l -l files -d 'Only the paths of the files with hits, best first, one per line (rg\'s `-l`)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l interactive -d 'Interactive search loop'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -s i -d '`-i`, the old short spelling of `--interactive` (works, with a note: `-i` is rg\'s `--ignore-case`)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -l json -d 'JSON output. Without it the output is text, on a terminal or piped (as rg\'s is)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand analyze" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -l kind -d 'Only definitions of these kinds (comma list: function, method, class, struct, ...)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -l indexes -d 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -l at -d 'Read a snapshot instead of the working tree: a snapshot\'s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -l lang -d 'Only these languages (comma list; aliases such as ts, py, tf work)' -r -f -a "python\t''
javascript\t''
typescript\t''
tsx\t''
go\t''
rust\t''
java\t''
c\t''
cpp\t''
csharp\t''
ruby\t''
php\t''
kotlin\t''
scala\t''
swift\t''
lua\t''
elixir\t''
haskell\t''
zig\t''
bash\t''
hcl\t''
dockerfile\t''
sql\t''
yaml\t''
json\t''
toml\t''
markdown\t''
html\t''
css\t''
makefile\t''
groovy\t''
ini\t''
rst\t''
xml\t''
text\t''"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -l path -d 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -s m -l limit -d 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -l json -d 'JSON output. Without it the output is text, on a terminal or piped (as rg\'s is)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand symbol" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -l indexes -d 'Read several indexes at once (@all: every index; @NAME: a group of indexGroups)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -l at -d 'Read a snapshot instead of the working tree: a snapshot\'s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -l lang -d 'Only these languages (comma list; aliases such as ts, py, tf work)' -r -f -a "python\t''
javascript\t''
typescript\t''
tsx\t''
go\t''
rust\t''
java\t''
c\t''
cpp\t''
csharp\t''
ruby\t''
php\t''
kotlin\t''
scala\t''
swift\t''
lua\t''
elixir\t''
haskell\t''
zig\t''
bash\t''
hcl\t''
dockerfile\t''
sql\t''
yaml\t''
json\t''
toml\t''
markdown\t''
html\t''
css\t''
makefile\t''
groovy\t''
ini\t''
rst\t''
xml\t''
text\t''"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -l path -d 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -s m -l limit -d 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -l exact -d 'Only references tied to the definition by the language\'s rules (no heuristic ones)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -l json -d 'JSON output. Without it the output is text, on a terminal or piped (as rg\'s is)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand refs" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -s d -l depth -d 'Follow imports this many levels deep (default 1)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -l at -d 'Read a snapshot instead of the working tree: a snapshot\'s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -l lang -d 'Only these languages (comma list; aliases such as ts, py, tf work)' -r -f -a "python\t''
javascript\t''
typescript\t''
tsx\t''
go\t''
rust\t''
java\t''
c\t''
cpp\t''
csharp\t''
ruby\t''
php\t''
kotlin\t''
scala\t''
swift\t''
lua\t''
elixir\t''
haskell\t''
zig\t''
bash\t''
hcl\t''
dockerfile\t''
sql\t''
yaml\t''
json\t''
toml\t''
markdown\t''
html\t''
css\t''
makefile\t''
groovy\t''
ini\t''
rst\t''
xml\t''
text\t''"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -l path -d 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -s m -l limit -d 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -l flat -d 'A flat list of the files reached, with their depth, instead of a tree'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -l json -d 'JSON output. Without it the output is text, on a terminal or piped (as rg\'s is)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand deps" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -s d -l depth -d 'Stop after this many levels (default: all for a file, 3 for a symbol)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -l at -d 'Read a snapshot instead of the working tree: a snapshot\'s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -l lang -d 'Only these languages (comma list; aliases such as ts, py, tf work)' -r -f -a "python\t''
javascript\t''
typescript\t''
tsx\t''
go\t''
rust\t''
java\t''
c\t''
cpp\t''
csharp\t''
ruby\t''
php\t''
kotlin\t''
scala\t''
swift\t''
lua\t''
elixir\t''
haskell\t''
zig\t''
bash\t''
hcl\t''
dockerfile\t''
sql\t''
yaml\t''
json\t''
toml\t''
markdown\t''
html\t''
css\t''
makefile\t''
groovy\t''
ini\t''
rst\t''
xml\t''
text\t''"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -l path -d 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -s m -l limit -d 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -l json -d 'JSON output. Without it the output is text, on a terminal or piped (as rg\'s is)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand impact" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -l max-depth -d 'The longest chain looked for (default 10)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -l at -d 'Read a snapshot instead of the working tree: a snapshot\'s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -l lang -d 'Only these languages (comma list; aliases such as ts, py, tf work)' -r -f -a "python\t''
javascript\t''
typescript\t''
tsx\t''
go\t''
rust\t''
java\t''
c\t''
cpp\t''
csharp\t''
ruby\t''
php\t''
kotlin\t''
scala\t''
swift\t''
lua\t''
elixir\t''
haskell\t''
zig\t''
bash\t''
hcl\t''
dockerfile\t''
sql\t''
yaml\t''
json\t''
toml\t''
markdown\t''
html\t''
css\t''
makefile\t''
groovy\t''
ini\t''
rst\t''
xml\t''
text\t''"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -l path -d 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -s m -l limit -d 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -l json -d 'JSON output. Without it the output is text, on a terminal or piped (as rg\'s is)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand path" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -l at -d 'Read a snapshot instead of the working tree: a snapshot\'s name, or a branch, tag or commit that was indexed (`cocosearch snapshots` lists them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -l lang -d 'Only these languages (comma list; aliases such as ts, py, tf work)' -r -f -a "python\t''
javascript\t''
typescript\t''
tsx\t''
go\t''
rust\t''
java\t''
c\t''
cpp\t''
csharp\t''
ruby\t''
php\t''
kotlin\t''
scala\t''
swift\t''
lua\t''
elixir\t''
haskell\t''
zig\t''
bash\t''
hcl\t''
dockerfile\t''
sql\t''
yaml\t''
json\t''
toml\t''
markdown\t''
html\t''
css\t''
makefile\t''
groovy\t''
ini\t''
rst\t''
xml\t''
text\t''"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -l path -d 'Only files whose path matches this glob, relative to the project root (`*.py`, `src/**`)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -s m -l limit -d 'Most results (default 50; 0 = up to 1000); a cut answer says `truncated`' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -l json -d 'JSON output. Without it the output is text, on a terminal or piped (as rg\'s is)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand outline" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -l staleness-threshold -d 'Warn when the last run is older than this many days' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -l at -d 'Count a snapshot: a snapshot\'s name, a branch, a tag or a commit that was indexed (without a scan of the disk, which holds the working tree)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -l all -d 'Every index in the database'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -l show-failures -d 'List each file whose chunks failed to parse, with error positions'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -l json -d 'Print JSON'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand stats" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand snapshots" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand snapshots" -l delete -d 'Delete a snapshot (a name, a branch, a tag or a commit, as `--at` reads it; repeatable)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand snapshots" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand snapshots" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand snapshots" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand snapshots" -l json -d 'Print JSON'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand snapshots" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand snapshots" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand snapshots" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand snapshots" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand list" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand list" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand list" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand list" -l json -d 'Print JSON'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand list" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand list" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand list" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand clear" -l tasks -d 'What becomes of the deleted indexes\' projects\' tasks: keep them (default) or delete them too' -r -f -a "keep\t'Keep them: a new index of the project finds them again'
delete\t'Delete them with the index'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand clear" -s n -l index -d 'The index to delete (as NAME)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand clear" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand clear" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand clear" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand clear" -l all -d 'Delete every index'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand clear" -s f -s y -l force -l yes -d 'Do not ask for confirmation'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand clear" -l json -d 'Print JSON'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand clear" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand clear" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand clear" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand clear" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -f -a "add" -d 'Record a task (status: need to be done)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -f -a "list" -d 'List tasks, most recently changed first'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -f -a "show" -d 'Show a task and a summary of its commits\' changes (--full: every file, its symbols and its importers)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -f -a "update" -d 'Change a task\'s title, description, notes or status, or link a branch, a commit or a planning document'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -f -a "done" -d 'Mark a task complete (with --here: linked to the current branch and commit)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -f -a "log" -d 'A task\'s status history and links, oldest first'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and not __fish_seen_subcommand_from add list show update done log help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -s d -l description -d 'What is to be done, and why' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -l notes -d 'Notes' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -l plan -d 'A spec or plan document inside the project (repeatable)' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -l branch -d 'Link the task to this git branch' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -l commit -d 'Link the task to this commit (its full 40-digit SHA-1)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -l here -d 'Link the current git branch, and HEAD as a commit of the task\'s'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -l json -d 'JSON output'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from add" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -s s -l status -d 'Only tasks with this status: need-to-be-done (todo), in-progress (doing), complete (done)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -s b -l branch -d 'Only tasks linked to this branch' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -l search -d 'Only tasks whose title, description or notes hold every word of TEXT' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -s m -l limit -d 'Show at most N tasks, 1 to 100 (default 50)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -l here -d 'Only tasks linked to the current git branch'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -l json -d 'JSON output'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from show" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from show" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from show" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from show" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from show" -l full -d 'Every changed file with its definitions and importers, not a summary'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from show" -l json -d 'JSON output'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -l title -d 'A new title' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -s d -l description -d 'A new description' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -l notes -d 'New notes (they replace the old ones)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -s s -l status -d 'A new status: need-to-be-done (todo), in-progress (doing), complete (done)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -l plan -d 'Link a spec or plan document inside the project (repeatable)' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -l branch -d 'Link the task to this git branch' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -l commit -d 'Link the task to this commit (its full 40-digit SHA-1)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -l here -d 'Link the current git branch, and HEAD as a commit of the task\'s'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -l json -d 'JSON output'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from update" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -l notes -d 'New notes (they replace the old ones)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -l branch -d 'Link the task to this git branch' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -l commit -d 'Link the task to this commit (its full 40-digit SHA-1)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -l here -d 'Link the current git branch, and HEAD as a commit of the task\'s'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -l json -d 'JSON output'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from done" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from log" -s n -l index -d 'Read this index instead of the project\'s own (`cocosearch list` shows them)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from log" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from log" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from log" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from log" -l json -d 'JSON output'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from log" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from log" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from log" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from log" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from help" -f -a "add" -d 'Record a task (status: need to be done)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from help" -f -a "list" -d 'List tasks, most recently changed first'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show a task and a summary of its commits\' changes (--full: every file, its symbols and its importers)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from help" -f -a "update" -d 'Change a task\'s title, description, notes or status, or link a branch, a commit or a planning document'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from help" -f -a "done" -d 'Mark a task complete (with --here: linked to the current branch and commit)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from help" -f -a "log" -d 'A task\'s status history and links, oldest first'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand task; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand languages" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand languages" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand languages" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand languages" -l json -d 'Print JSON'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand languages" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand languages" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand languages" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand languages" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -f -a "check" -d 'Check that the store (and vector search) and the embedding model answer'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -f -a "show" -d 'Print every setting, its value and where it came from'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -f -a "path" -d 'Print which configuration file is in force'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -f -a "init" -d 'Write a starter cocosearch.yaml in the project root'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -f -a "trust" -d 'Trust this project\'s own cocosearch.yaml as it is now'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and not __fish_seen_subcommand_from check show path init trust help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from check" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from check" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from check" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from check" -l json -d 'Print JSON'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from check" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from check" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from check" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from show" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from show" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from show" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from show" -l json -d 'Print JSON'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from show" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from show" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from path" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from path" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from path" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from path" -l json -d 'Print JSON'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from path" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from path" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from path" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from path" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from init" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from init" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from init" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from init" -s f -l force -d 'Overwrite an existing file'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from init" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from init" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from init" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from init" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from trust" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from trust" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from trust" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from trust" -l json -d 'Print JSON'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from trust" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from trust" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from trust" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from trust" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "check" -d 'Check that the store (and vector search) and the embedding model answer'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "show" -d 'Print every setting, its value and where it came from'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "path" -d 'Print which configuration file is in force'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "init" -d 'Write a starter cocosearch.yaml in the project root'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "trust" -d 'Trust this project\'s own cocosearch.yaml as it is now'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand mcp" -l transport -d 'stdio for local agents (default), http for streamable HTTP at /mcp' -r -f -a "stdio\t'JSON-RPC over stdin/stdout'
http\t'Streamable HTTP'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand mcp" -l host -d 'Address to bind the HTTP transport to (default 127.0.0.1)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand mcp" -l port -d 'Port of the HTTP transport (default 3000)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand mcp" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand mcp" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand mcp" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand mcp" -l project-from-cwd -d 'Default project: the working directory\'s git root'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand mcp" -l no-watch -d 'Do not keep the served indexes fresh (indexing.watch: false)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand mcp" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand mcp" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand mcp" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand mcp" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand dashboard" -l port -d 'Port to serve on (0 picks a free one)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand dashboard" -l host -d 'Address to bind to' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand dashboard" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand dashboard" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand dashboard" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand dashboard" -l no-open -d 'Do not open the browser; just print the address'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand dashboard" -l no-watch -d 'Do not keep the served indexes fresh (indexing.watch: false)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand dashboard" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand dashboard" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand dashboard" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand dashboard" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and not __fish_seen_subcommand_from download list help" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and not __fish_seen_subcommand_from download list help" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and not __fish_seen_subcommand_from download list help" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and not __fish_seen_subcommand_from download list help" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and not __fish_seen_subcommand_from download list help" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and not __fish_seen_subcommand_from download list help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and not __fish_seen_subcommand_from download list help" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and not __fish_seen_subcommand_from download list help" -f -a "download" -d 'Download a built-in model into the user cache'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and not __fish_seen_subcommand_from download list help" -f -a "list" -d 'List the built-in models: which are cached, their sizes and paths'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and not __fish_seen_subcommand_from download list help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from download" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from download" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from download" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from download" -l json -d 'Print JSON'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from download" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from download" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from download" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from download" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from list" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from list" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from list" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from list" -l json -d 'Print JSON'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from list" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from list" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from help" -f -a "download" -d 'Download a built-in model into the user cache'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from help" -f -a "list" -d 'List the built-in models: which are cached, their sizes and paths'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand model; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand completions" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand completions" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand completions" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand completions" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand completions" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand completions" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand man" -l dir -d 'Write cocosearch.1 and one page per subcommand into this directory' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand man" -l config -d 'Use this config file instead of cocosearch.yaml' -r -F
complete -c cocosearch -n "__fish_cocosearch_using_subcommand man" -l set -d 'Set a config key (e.g. --set embedding.model=all-minilm)' -r
complete -c cocosearch -n "__fish_cocosearch_using_subcommand man" -l color -d 'When to use colours. `auto` colours a terminal unless NO_COLOR is set' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Always colour'
never\t'Never colour'"
complete -c cocosearch -n "__fish_cocosearch_using_subcommand man" -s v -l verbose -d 'More output; repeat for more (-vv)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand man" -s q -l quiet -d 'Print only errors; no progress bars'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand man" -s V -l version -d 'Print version'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "init" -d 'Set a project up: its cocosearch.yaml, and the MCP server for AI agents'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "index" -d 'Index a codebase (incremental: only changed files are redone)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "watch" -d 'Keep a project\'s index fresh as files change, until Ctrl-C'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "search" -d 'Search an index with a question or an identifier'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "grep" -d 'Every line matching a regular expression, as ripgrep finds it'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "analyze" -d 'Show how a search reads a query and ranks its answer'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "symbol" -d 'Find where a symbol is defined (exact, qualified or fuzzy)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "refs" -d 'Who uses a symbol: each reference with the calling function and line'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "deps" -d 'What a file imports, resolved to project files, as a tree or a flat list'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "impact" -d 'What depends on a file or a symbol, transitively, grouped by depth'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "path" -d 'The shortest chain from A to B: imports between two files, calls between two symbols'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "outline" -d 'The classes, functions and imports of a file, with their lines'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "stats" -d 'Show what is indexed, how fresh it is, and where parsing failed'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "snapshots" -d 'List the snapshots of an index: branches, worktrees and versions it keeps'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "list" -d 'List the indexes in the database'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "clear" -d 'Delete an index (or all of them)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "task" -d 'Tasks linked to the code: what is planned, under way and done, with their branches, commits and planning documents'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "languages" -d 'List the supported languages and what is extracted from each'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "config" -d 'Inspect and check the configuration'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "mcp" -d 'Serve the search engine to AI agents over the Model Context Protocol'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "dashboard" -d 'Serve the web dashboard and open it in the browser'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "model" -d 'Download and list the built-in embedding models'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "completions" -d 'Print a shell completion script'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "man" -d 'Print the man page, or write every page to a directory'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and not __fish_seen_subcommand_from init index watch search grep analyze symbol refs deps impact path outline stats snapshots list clear task languages config mcp dashboard model completions man help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from task" -f -a "add" -d 'Record a task (status: need to be done)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from task" -f -a "list" -d 'List tasks, most recently changed first'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from task" -f -a "show" -d 'Show a task and a summary of its commits\' changes (--full: every file, its symbols and its importers)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from task" -f -a "update" -d 'Change a task\'s title, description, notes or status, or link a branch, a commit or a planning document'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from task" -f -a "done" -d 'Mark a task complete (with --here: linked to the current branch and commit)'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from task" -f -a "log" -d 'A task\'s status history and links, oldest first'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "check" -d 'Check that the store (and vector search) and the embedding model answer'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "show" -d 'Print every setting, its value and where it came from'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "path" -d 'Print which configuration file is in force'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "init" -d 'Write a starter cocosearch.yaml in the project root'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "trust" -d 'Trust this project\'s own cocosearch.yaml as it is now'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from model" -f -a "download" -d 'Download a built-in model into the user cache'
complete -c cocosearch -n "__fish_cocosearch_using_subcommand help; and __fish_seen_subcommand_from model" -f -a "list" -d 'List the built-in models: which are cached, their sizes and paths'
