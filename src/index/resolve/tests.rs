//! Tests of import resolution: one project tree per language family, and for each import
//! the exact answer (file or package directory, and how it was found).

use super::*;
use crate::chunk::ImportKind;

/// A resolver over `files`; `configs` gives the text of configuration files among them.
fn resolver(files: &[&str], configs: &[(&str, &str)]) -> Resolver {
    let read = |p: &str| configs.iter().find(|(path, _)| *path == p).map(|(_, text)| text.to_string());
    Resolver::new(files.iter().copied(), &read)
}

fn import(kind: ImportKind, spec: &str, name: Option<&str>) -> Import {
    Import { kind, spec: spec.into(), name: name.map(str::to_string), alias: None, line: 1 }
}

/// `target how` (`- external` when unresolved), for compact expectations.
#[track_caller]
fn check(r: &Resolver, from: &str, lang: Language, kind: ImportKind, spec: &str, name: Option<&str>, expect: &str) {
    let (target, how) = r.resolve(from, Some(lang), &import(kind, spec, name));
    let actual = format!("{} {}", target.as_deref().unwrap_or("-"), how.as_str());
    assert_eq!(actual, expect, "{from}: {kind:?} {spec} {name:?}");
}

#[test]
fn python_relative_absolute_and_package_roots() {
    let r = resolver(
        &[
            "requests/__init__.py",
            "requests/api.py",
            "requests/sessions.py",
            "requests/compat.py",
            "requests/packages/__init__.py",
            "tests/__init__.py",
            "tests/test_api.py",
            "tests/compat.py",
            "scripts/tool.py",
            "scripts/helper.py",
            "src/pkg/__init__.py",
            "src/pkg/core.py",
            "vendor/deep/thing/mod.py",
        ],
        &[],
    );
    let py = |from: &str, spec: &str, name: Option<&str>, expect: &str| {
        check(&r, from, Language::Python, ImportKind::Import, spec, name, expect)
    };
    py("requests/api.py", ".", Some("sessions"), "requests/sessions.py exact");
    py("requests/api.py", ".", Some("get"), "requests/__init__.py exact");
    py("requests/api.py", ".compat", Some("urlparse"), "requests/compat.py exact");
    py("requests/packages/__init__.py", "..", Some("compat"), "requests/compat.py exact");
    py("requests/api.py", "...", Some("x"), "- missing");
    py("requests/api.py", ".gone", Some("x"), "- missing");
    py("tests/test_api.py", "requests", None, "requests/__init__.py exact");
    py("tests/test_api.py", "requests.sessions", None, "requests/sessions.py exact");
    py("tests/test_api.py", "requests", Some("sessions"), "requests/sessions.py exact");
    py("tests/test_api.py", ".compat", Some("x"), "tests/compat.py exact");
    py("scripts/tool.py", "helper", None, "scripts/helper.py exact");
    py("scripts/tool.py", "pkg.core", None, "src/pkg/core.py exact");
    py("scripts/tool.py", "thing.mod", None, "vendor/deep/thing/mod.py heuristic");
    py("requests/api.py", "os.path", None, "- external");
    py("requests/api.py", "urllib3", Some("util"), "- external");
}

#[test]
fn javascript_relative_index_extensions_and_tsconfig_paths() {
    let r = resolver(
        &[
            "web/src/app.ts",
            "web/src/util.ts",
            "web/src/lib/index.tsx",
            "web/src/esm.ts",
            "web/src/data.json",
            "web/tsconfig.json",
            "web/tsconfig.base.json",
            "web/src/shared/log.ts",
            "web/types/api.d.ts",
            "other/main.js",
            "other/helper.mjs",
        ],
        &[
            (
                "web/tsconfig.json",
                r#"{ // comments are allowed
                "extends": "./tsconfig.base.json",
                "compilerOptions": { "paths": { "@/*": ["src/*"], "@shared/*": ["src/shared/*"], }, },
            }"#,
            ),
            ("web/tsconfig.base.json", r#"{"compilerOptions": {"baseUrl": "."}}"#),
        ],
    );
    let ts = |from: &str, spec: &str, expect: &str| {
        check(&r, from, Language::TypeScript, ImportKind::Import, spec, None, expect)
    };
    ts("web/src/app.ts", "./util", "web/src/util.ts exact");
    ts("web/src/app.ts", "./lib", "web/src/lib/index.tsx exact");
    ts("web/src/app.ts", "./esm.js", "web/src/esm.ts exact");
    ts("web/src/app.ts", "./data.json", "web/src/data.json exact");
    ts("web/src/app.ts", "../types/api", "web/types/api.d.ts exact");
    ts("web/src/app.ts", "./missing", "- missing");
    ts("web/src/app.ts", "@/util", "web/src/util.ts exact");
    ts("web/src/app.ts", "@shared/log", "web/src/shared/log.ts exact");
    ts("web/src/app.ts", "src/util", "web/src/util.ts exact");
    ts("web/src/app.ts", "react", "- external");
    check(&r, "other/main.js", Language::JavaScript, ImportKind::Import, "./helper", None, "other/helper.mjs exact");
    check(&r, "other/main.js", Language::JavaScript, ImportKind::Import, "@/util", None, "- external");
}

#[test]
fn go_module_paths_are_package_directories() {
    let r = resolver(
        &["go.mod", "main.go", "pkg/store/store.go", "pkg/store/cache.go", "vendor/github.com/x/y/y.go"],
        &[("go.mod", "module example.com/app\n\ngo 1.22\n")],
    );
    let go = |spec: &str, expect: &str| check(&r, "main.go", Language::Go, ImportKind::Import, spec, None, expect);
    go("example.com/app/pkg/store", "pkg/store/ exact");
    go("example.com/app/pkg/gone", "- missing");
    go("fmt", "- external");
    go("github.com/x/y", "vendor/github.com/x/y/ heuristic");
    go("github.com/other/z", "- external");
}

#[test]
fn rust_use_paths_mod_declarations_and_workspace_crates() {
    let r = resolver(
        &[
            "Cargo.toml",
            "src/lib.rs",
            "src/a.rs",
            "src/a/b.rs",
            "src/c/mod.rs",
            "tests/it.rs",
            "tests/support/mod.rs",
            "crates/util/Cargo.toml",
            "crates/util/src/lib.rs",
            "crates/util/src/fmt.rs",
        ],
        &[("Cargo.toml", "[package]\nname = \"app\"\n"), ("crates/util/Cargo.toml", "[package]\nname = \"my-util\"\n")],
    );
    let rs = |from: &str, spec: &str, name: Option<&str>, expect: &str| {
        check(&r, from, Language::Rust, ImportKind::Import, spec, name, expect)
    };
    rs("src/lib.rs", "crate::a::b", Some("Thing"), "src/a/b.rs exact");
    rs("src/lib.rs", "crate::a", Some("b"), "src/a/b.rs exact");
    rs("src/lib.rs", "crate::c", Some("Item"), "src/c/mod.rs exact");
    rs("src/a/b.rs", "super", Some("helper"), "src/a.rs exact");
    rs("src/a/b.rs", "super::super::c", Some("X"), "src/c/mod.rs exact");
    rs("src/a.rs", "self::b", Some("X"), "src/a/b.rs exact");
    rs("src/a.rs", "b", Some("X"), "src/a/b.rs exact");
    rs("src/a/b.rs", "c", Some("X"), "src/c/mod.rs exact");
    rs("src/lib.rs", "my_util::fmt", Some("pretty"), "crates/util/src/fmt.rs exact");
    rs("src/lib.rs", "std::collections", Some("HashMap"), "- external");
    rs("src/lib.rs", "serde", Some("Serialize"), "- external");
    let m = |from: &str, name: &str, expect: &str| check(&r, from, Language::Rust, ImportKind::Mod, name, None, expect);
    m("src/lib.rs", "a", "src/a.rs exact");
    m("src/a.rs", "b", "src/a/b.rs exact");
    m("src/lib.rs", "c", "src/c/mod.rs exact");
    m("tests/it.rs", "support", "tests/support/mod.rs exact");
    m("src/lib.rs", "gone", "- missing");
}

#[test]
fn jvm_classes_wildcards_and_static_imports() {
    let r = resolver(
        &[
            "app/src/main/java/com/x/util/Helper.java",
            "app/src/main/java/com/x/Main.java",
            "lib/src/main/kotlin/com/k/Tools.kt",
            "lib/src/main/kotlin/com/k/ext/Strings.kt",
            "svc/src/main/scala/com/s/Service.scala",
        ],
        &[],
    );
    let from = "app/src/main/java/com/x/Main.java";
    check(
        &r,
        from,
        Language::Java,
        ImportKind::Import,
        "com.x.util.Helper",
        None,
        "app/src/main/java/com/x/util/Helper.java exact",
    );
    check(
        &r,
        from,
        Language::Java,
        ImportKind::Import,
        "com.x.util.Helper",
        Some("run"),
        "app/src/main/java/com/x/util/Helper.java exact",
    );
    check(
        &r,
        from,
        Language::Java,
        ImportKind::Import,
        "com.x.util",
        Some("*"),
        "app/src/main/java/com/x/util/ heuristic",
    );
    check(&r, from, Language::Java, ImportKind::Import, "java.util.List", None, "- external");
    let kt = "lib/src/main/kotlin/com/k/Tools.kt";
    check(
        &r,
        kt,
        Language::Kotlin,
        ImportKind::Import,
        "com.k.ext.capitalise",
        None,
        "lib/src/main/kotlin/com/k/ext/ heuristic",
    );
    check(
        &r,
        kt,
        Language::Kotlin,
        ImportKind::Import,
        "com.x.util.Helper",
        None,
        "app/src/main/java/com/x/util/Helper.java exact",
    );
    check(
        &r,
        kt,
        Language::Scala,
        ImportKind::Import,
        "com.s",
        Some("Service"),
        "svc/src/main/scala/com/s/Service.scala exact",
    );
}

#[test]
fn includes_namespaces_and_scripts() {
    let r = resolver(
        &[
            "src/main.c",
            "src/util.h",
            "include/lib/api.h",
            "App/Models/User.cs",
            "App/Program.cs",
            "lib/helper.rb",
            "app/models/user.rb",
            "app/main.rb",
            "composer.json",
            "src/Models/Post.php",
            "web/index.php",
            "web/lib.php",
            "scripts/run.sh",
            "scripts/common.sh",
            "lua/a/b.lua",
            "lua/main.lua",
        ],
        &[("composer.json", r#"{"autoload": {"psr-4": {"Blog\\": "src/"}}}"#)],
    );
    check(&r, "src/main.c", Language::C, ImportKind::Include, "util.h", None, "src/util.h exact");
    check(&r, "src/main.c", Language::C, ImportKind::Include, "lib/api.h", None, "include/lib/api.h heuristic");
    check(&r, "src/main.c", Language::C, ImportKind::Include, "<stdio.h>", None, "- external");
    check(&r, "src/main.c", Language::C, ImportKind::Include, "gone.h", None, "- missing");
    check(&r, "App/Program.cs", Language::CSharp, ImportKind::Import, "App.Models", None, "App/Models/ heuristic");
    check(&r, "App/Program.cs", Language::CSharp, ImportKind::Import, "System.Text", None, "- external");
    check(&r, "app/main.rb", Language::Ruby, ImportKind::Import, "./models/user", None, "app/models/user.rb exact");
    check(&r, "app/main.rb", Language::Ruby, ImportKind::Import, "helper", None, "lib/helper.rb exact");
    check(&r, "app/main.rb", Language::Ruby, ImportKind::Import, "json", None, "- external");
    check(&r, "web/index.php", Language::Php, ImportKind::Import, "./lib.php", None, "web/lib.php exact");
    check(
        &r,
        "web/index.php",
        Language::Php,
        ImportKind::Import,
        "Blog\\Models\\Post",
        None,
        "src/Models/Post.php exact",
    );
    check(&r, "web/index.php", Language::Php, ImportKind::Import, "Vendor\\Thing", None, "- external");
    check(&r, "scripts/run.sh", Language::Bash, ImportKind::Source, "./common.sh", None, "scripts/common.sh exact");
    check(
        &r,
        "scripts/run.sh",
        Language::Bash,
        ImportKind::Source,
        "$(dirname \"$0\")/common.sh",
        None,
        "scripts/common.sh heuristic",
    );
    check(&r, "scripts/run.sh", Language::Bash, ImportKind::Source, "/etc/profile", None, "- external");
    check(&r, "lua/main.lua", Language::Lua, ImportKind::Import, "a.b", None, "lua/a/b.lua exact");
}

#[test]
fn configuration_and_documentation_files() {
    let r = resolver(
        &[
            "infra/main.tf",
            "infra/modules/vpc/main.tf",
            "compose.yml",
            "common.yml",
            ".github/workflows/ci.yml",
            ".github/workflows/reuse.yml",
            ".github/actions/setup/action.yml",
            "README.md",
            "docs/guide.md",
            "docs/img/a b.png",
        ],
        &[],
    );
    check(&r, "infra/main.tf", Language::Hcl, ImportKind::Module, "./modules/vpc", None, "infra/modules/vpc/ exact");
    check(&r, "infra/main.tf", Language::Hcl, ImportKind::Module, "./modules/gone", None, "- missing");
    check(&r, "infra/main.tf", Language::Hcl, ImportKind::Module, "terraform-aws-modules/vpc/aws", None, "- external");
    check(&r, "compose.yml", Language::Yaml, ImportKind::Extends, "common.yml", Some("base"), "common.yml exact");
    let ci = ".github/workflows/ci.yml";
    check(
        &r,
        ci,
        Language::Yaml,
        ImportKind::Uses,
        "./.github/workflows/reuse.yml",
        None,
        ".github/workflows/reuse.yml exact",
    );
    check(
        &r,
        ci,
        Language::Yaml,
        ImportKind::Uses,
        "./.github/actions/setup",
        None,
        ".github/actions/setup/action.yml exact",
    );
    check(&r, ci, Language::Yaml, ImportKind::Uses, "actions/checkout@v4", None, "- external");
    check(&r, "Dockerfile", Language::Dockerfile, ImportKind::Image, "python:3.12", None, "- external");
    check(&r, "README.md", Language::Markdown, ImportKind::Link, "docs/guide.md", None, "docs/guide.md exact");
    check(&r, "docs/guide.md", Language::Markdown, ImportKind::Link, "img/a b.png", None, "docs/img/a b.png exact");
    check(&r, "docs/guide.md", Language::Markdown, ImportKind::Link, "/README.md", None, "README.md exact");
    check(&r, "README.md", Language::Markdown, ImportKind::Link, "docs", None, "docs/ exact");
    check(&r, "README.md", Language::Markdown, ImportKind::Link, "docs/gone.md", None, "- missing");
    check(&r, "README.md", Language::Markdown, ImportKind::Link, "../outside.md", None, "- missing");
}

#[test]
fn a_file_never_imports_itself_and_order_does_not_matter() {
    let files = ["a/__init__.py", "a/x.py", "b/x.py"];
    let forward = resolver(&files, &[]);
    let mut reversed = files;
    reversed.reverse();
    let backward = resolver(&reversed, &[]);
    let i = import(ImportKind::Import, "x", None);
    assert_eq!(
        forward.resolve("c.py", Some(Language::Python), &i),
        backward.resolve("c.py", Some(Language::Python), &i)
    );
    assert_eq!(forward.resolve("c.py", Some(Language::Python), &i), (Some("a/x.py".into()), Resolution::Heuristic));
    let own = import(ImportKind::Link, "README.md", None);
    let r = resolver(&["README.md"], &[]);
    assert_eq!(r.resolve("README.md", Some(Language::Markdown), &own), (None, Resolution::External));
}
