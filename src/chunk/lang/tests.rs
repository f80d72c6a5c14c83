//! Tests of the registry and of the languages added as one module each (Elixir, Haskell,
//! Zig): detection, symbols, graph facts and import resolution.

use std::collections::HashSet;
use std::path::Path;

use super::project::TsConfig;
use super::*;
use crate::chunk::{ChunkOptions, Import, ImportKind, RefKind, chunk_source};

#[test]
fn every_spec_names_its_variant() {
    for &lang in Language::all() {
        let spec = lang.spec();
        assert!(!spec.name.is_empty(), "{lang:?} has a name");
        assert_eq!(Language::from_name(spec.name), Some(lang));
        assert_eq!(spec.grammar.is_some(), lang.grammar().is_some());
    }
}

#[test]
fn new_languages_are_detected() {
    let detect = |p: &str, head: &str| Language::detect(Path::new(p), head);
    assert_eq!(detect("lib/my_app/user.ex", ""), Some(Language::Elixir));
    assert_eq!(detect("test/user_test.exs", ""), Some(Language::Elixir));
    assert_eq!(detect("src/Data/Aeson.hs", ""), Some(Language::Haskell));
    assert_eq!(detect("build.zig", ""), Some(Language::Zig));
    assert_eq!(detect("build.zig.zon", ""), Some(Language::Zig));
    assert_eq!(detect("script", "#!/usr/bin/env elixir\n"), Some(Language::Elixir));
    assert_eq!(detect("script", "#!/usr/bin/env runghc\n"), Some(Language::Haskell));
    assert_eq!(Language::from_name("hs"), Some(Language::Haskell));
    assert_eq!(Language::from_name("exs"), Some(Language::Elixir));
}

#[test]
fn the_h_rule_stays_with_c() {
    assert_eq!(Language::detect(Path::new("a.h"), "int f(void);\n"), Some(Language::C));
    assert_eq!(Language::detect(Path::new("a.h"), "namespace x {}\n"), Some(Language::Cpp));
    assert_eq!(Language::detect(Path::new("a.c"), "namespace x {}\n"), Some(Language::C));
}

/// Kind and qualified name of every symbol of a file.
fn symbols(lang: Language, source: &str) -> Vec<String> {
    let file = chunk_source(Some(lang), source, &ChunkOptions::default());
    assert_eq!(file.parse_status, crate::chunk::ParseStatus::Ok, "{lang}: {:?}", file.errors);
    file.chunks.iter().flat_map(|c| &c.symbols).map(|s| format!("{} {}", s.kind, s.qualified_name)).collect()
}

fn graph(lang: Language, source: &str) -> crate::chunk::FileGraph {
    chunk_source(Some(lang), source, &ChunkOptions::default()).graph
}

const ELIXIR: &str = r#"defmodule MyApp.Accounts do
  alias MyApp.Repo
  alias MyApp.Accounts.{User, Team}
  import Ecto.Query, only: [from: 2]

  def get_user(id) do
    Repo.get(User, id)
  end

  defp normalize(name) when is_binary(name), do: String.trim(name)

  defmacro admin?(user) do
    quote do: unquote(user).role == :admin
  end

  defmodule Inner do
    def count, do: helper()
  end
end

defprotocol Greeter do
  def greet(thing)
end
"#;

#[test]
fn elixir_symbols() {
    assert_eq!(
        symbols(Language::Elixir, ELIXIR),
        [
            "module MyApp.Accounts",
            "function MyApp.Accounts.get_user",
            "function MyApp.Accounts.normalize",
            "function MyApp.Accounts.admin?",
            "module MyApp.Accounts.Inner",
            "function MyApp.Accounts.Inner.count",
            "interface Greeter",
            "method Greeter.greet",
        ]
    );
}

#[test]
fn elixir_graph() {
    let g = graph(Language::Elixir, ELIXIR);
    let imports: Vec<&str> = g.imports.iter().map(|i| i.spec.as_str()).collect();
    assert_eq!(imports, ["MyApp.Repo", "MyApp.Accounts.User", "MyApp.Accounts.Team", "Ecto.Query"]);
    let calls: Vec<(String, Option<String>, Option<String>)> = g
        .refs
        .iter()
        .filter(|r| r.kind == RefKind::Call)
        .map(|r| (r.name.clone(), r.qualifier.clone(), r.caller.clone()))
        .collect();
    assert!(calls.contains(&("get".into(), Some("Repo".into()), Some("MyApp.Accounts.get_user".into()))), "{calls:?}");
    assert!(calls.contains(&("helper".into(), None, Some("MyApp.Accounts.Inner.count".into()))), "{calls:?}");
    assert!(!calls.iter().any(|c| c.0 == "get_user" || c.0 == "def" || c.0 == "normalize"), "{calls:?}");
}

const HASKELL: &str = r#"module Data.Shapes (Shape(..), area) where

import qualified Data.Map as Map
import Data.List (sortBy, foldl')

data Shape = Circle Double | Rect Double Double

newtype Name = Name String

type Table = Map.Map String Int

class Describe a where
  describe :: a -> String

instance Describe Shape where
  describe _ = "shape"

area :: Shape -> Double
area (Circle r) = pi * r * r
area (Rect w h) = w * h

total :: [Shape] -> Double
total shapes = foldl' (+) 0 (map area shapes)
"#;

#[test]
fn haskell_symbols() {
    assert_eq!(
        symbols(Language::Haskell, HASKELL),
        [
            "enum Shape",
            "struct Name",
            "type Table",
            "interface Describe",
            "method Describe.describe",
            "impl Describe Shape",
            "method Describe Shape.describe",
            "function area",
            "function area",
            "function total",
        ]
    );
}

#[test]
fn haskell_graph() {
    let g = graph(Language::Haskell, HASKELL);
    let imports: Vec<(&str, Option<&str>, Option<&str>)> =
        g.imports.iter().map(|i| (i.spec.as_str(), i.name.as_deref(), i.alias.as_deref())).collect();
    assert_eq!(
        imports,
        [("Data.Map", None, Some("Map")), ("Data.List", Some("sortBy"), None), ("Data.List", Some("foldl'"), None),]
    );
    let calls: Vec<(&str, Option<&str>)> =
        g.refs.iter().filter(|r| r.kind == RefKind::Call).map(|r| (r.name.as_str(), r.caller.as_deref())).collect();
    assert!(calls.contains(&("foldl'", Some("total"))), "{calls:?}");
    assert!(g.refs.iter().any(|r| r.kind == RefKind::Impl && r.name == "Describe"));
    assert!(g.refs.iter().any(|r| r.kind == RefKind::Type && r.name == "Shape"));
}

const ZIG: &str = r#"const std = @import("std");
const util = @import("util.zig");

pub const Point = struct {
    x: i32,

    pub fn add(self: Point, other: Point) Point {
        return .{ .x = self.x + other.x };
    }
};

const Color = enum { red, green };

var counter: u32 = 0;
const max_points = 16;

pub fn main() !void {
    const p = Point{ .x = 1 };
    _ = p.add(p);
    util.helper();
}

test "add points" {
    try std.testing.expect(true);
}
"#;

#[test]
fn zig_symbols() {
    assert_eq!(
        symbols(Language::Zig, ZIG),
        [
            "struct Point",
            "method Point.add",
            "enum Color",
            "variable counter",
            "constant max_points",
            "function main",
            "function add points",
        ]
    );
}

#[test]
fn zig_graph() {
    let g = graph(Language::Zig, ZIG);
    let imports: Vec<(&str, Option<&str>)> = g.imports.iter().map(|i| (i.spec.as_str(), i.alias.as_deref())).collect();
    assert_eq!(imports, [("std", Some("std")), ("util.zig", Some("util"))]);
    let calls: Vec<(&str, Option<&str>, Option<&str>)> = g
        .refs
        .iter()
        .filter(|r| r.kind == RefKind::Call)
        .map(|r| (r.name.as_str(), r.qualifier.as_deref(), r.caller.as_deref()))
        .collect();
    assert!(calls.contains(&("add", Some("p"), Some("main"))), "{calls:?}");
    assert!(calls.contains(&("helper", Some("util"), Some("main"))), "{calls:?}");
}

/// A project of a few files, for the import rules.
struct Files(HashSet<String>);

impl ProjectFiles for Files {
    fn exists(&self, path: &str) -> bool {
        self.0.contains(path)
    }
    fn is_dir(&self, dir: &str) -> bool {
        self.0.iter().any(|p| p.starts_with(&format!("{dir}/")))
    }
    fn holds_extension(&self, dir: &str, ext: &str) -> bool {
        self.0.iter().any(|p| dir_of(p) == dir && p.ends_with(&format!(".{ext}")))
    }
    fn suffix(&self, rel: &str) -> Option<String> {
        let mut found: Vec<&String> = self.0.iter().filter(|p| *p == rel || p.ends_with(&format!("/{rel}"))).collect();
        found.sort_by_key(|p| (p.len(), p.to_string()));
        found.first().map(|p| p.to_string())
    }
    fn suffix_count(&self, rel: &str) -> usize {
        self.0.iter().filter(|p| *p == rel || p.ends_with(&format!("/{rel}"))).count()
    }
    fn dir_suffix(&self, _rel: &str) -> Option<String> {
        None
    }
    fn go_modules(&self) -> &[(String, String)] {
        &[]
    }
    fn crates(&self) -> &[(String, String)] {
        &[]
    }
    fn ts_config(&self, _dir: &str) -> Option<&TsConfig> {
        None
    }
    fn psr4(&self) -> &[(String, String)] {
        &[]
    }
}

fn resolve(files: &[&str], lang: Language, from: &str, spec: &str) -> Resolved {
    let files = Files(files.iter().map(|f| f.to_string()).collect());
    let import = Import { kind: ImportKind::Import, spec: spec.into(), name: None, alias: None, line: 1 };
    let rule = lang.spec().resolve.expect("the language resolves imports");
    rule(&files, from, &import)
}

#[test]
fn new_languages_resolve_imports() {
    let elixir = ["lib/my_app/accounts/user.ex", "apps/web/lib/web/http_client.ex", "lib/my_app.ex"];
    assert_eq!(
        resolve(&elixir, Language::Elixir, "lib/my_app.ex", "MyApp.Accounts.User"),
        (Some("lib/my_app/accounts/user.ex".into()), Resolution::Exact)
    );
    assert_eq!(
        resolve(&elixir, Language::Elixir, "lib/my_app.ex", "Web.HTTPClient"),
        (Some("apps/web/lib/web/http_client.ex".into()), Resolution::Heuristic)
    );
    assert_eq!(resolve(&elixir, Language::Elixir, "lib/my_app.ex", "Ecto.Query"), (None, Resolution::External));

    let haskell = ["src/Data/Shapes.hs", "src/Data/Shapes/Internal.hs", "app/Main.hs"];
    assert_eq!(
        resolve(&haskell, Language::Haskell, "app/Main.hs", "Data.Shapes"),
        (Some("src/Data/Shapes.hs".into()), Resolution::Exact)
    );
    assert_eq!(
        resolve(&haskell, Language::Haskell, "src/Data/Shapes.hs", "Data.Shapes.Internal"),
        (Some("src/Data/Shapes/Internal.hs".into()), Resolution::Exact)
    );
    assert_eq!(resolve(&haskell, Language::Haskell, "app/Main.hs", "Data.Map"), (None, Resolution::External));

    let zig = ["src/main.zig", "src/util.zig", "build.zig"];
    assert_eq!(
        resolve(&zig, Language::Zig, "src/main.zig", "util.zig"),
        (Some("src/util.zig".into()), Resolution::Exact)
    );
    assert_eq!(resolve(&zig, Language::Zig, "src/main.zig", "gone.zig"), (None, Resolution::Missing));
    assert_eq!(resolve(&zig, Language::Zig, "src/main.zig", "std"), (None, Resolution::External));
}
