//! Tests of the graph facts: every language's imports, references with their callers, and
//! the parameters and bases given to definitions, through one `check` helper. Each sample
//! holds every construct the language's rules know; the expected lines are the whole truth
//! about it (nothing missing, nothing extra).

use crate::chunk::{ChunkOptions, Language, chunk_source};

/// One line per fact: imports (`L3 import ..compat :: urlparse`), then references in source
/// order (`L11 call self . n in A.m`), then definitions with parameters or bases
/// (`def A.m(self, x) : Base`).
fn render(lang: Language, source: &str) -> String {
    let file = chunk_source(Some(lang), source, &ChunkOptions::default());
    let mut out = Vec::new();
    for i in &file.graph.imports {
        let mut line = format!("L{} {} {}", i.line, i.kind.as_str(), i.spec);
        if let Some(name) = &i.name {
            line.push_str(&format!(" :: {name}"));
        }
        if let Some(alias) = &i.alias {
            line.push_str(&format!(" as {alias}"));
        }
        out.push(line);
    }
    for r in &file.graph.refs {
        let name = match &r.qualifier {
            Some(q) => format!("{q} . {}", r.name),
            None => r.name.clone(),
        };
        out.push(format!("L{} {} {name} in {}", r.line, r.kind.as_str(), r.caller.as_deref().unwrap_or("-")));
    }
    for s in file.chunks.iter().flat_map(|c| &c.symbols) {
        if !s.params.is_empty() || !s.bases.is_empty() {
            let line = format!("def {}({}) : {}", s.qualified_name, s.params.join(", "), s.bases.join(", "));
            out.push(line.trim_end().to_string());
        }
    }
    out.join("\n")
}

#[track_caller]
fn check(lang: Language, source: &str, expect: &str) {
    let actual = render(lang, source);
    let expect: Vec<&str> = expect.trim().lines().map(str::trim_end).collect();
    assert_eq!(actual, expect.join("\n"), "\nactual:\n{actual}\n");
}

#[test]
fn python() {
    check(
        Language::Python,
        r#"import os.path as osp, sys
from . import models, sessions as s
from ..compat import urlparse, str as text
from .x.y import *
import a.b.c

@app.route("/x")
@dataclass
class A(Base, mod.Mixin, metaclass=M):
    def m(self, x: int, y=2, *args, z: "Foo" = None, **kw) -> Bar:
        self.n(x)
        helper(x).go()
        return os.path.join(x)
"#,
        r#"
L1 import os.path as osp
L1 import sys
L2 import . :: models
L2 import . :: sessions as s
L3 import ..compat :: urlparse
L3 import ..compat :: str as text
L4 import .x.y :: *
L5 import a.b.c
L7 decorator app . route in A
L8 decorator dataclass in A
L9 inherit Base in A
L9 inherit mod . Mixin in A
L10 type int in A.m
L10 type Bar in A.m
L11 call self . n in A.m
L12 call helper in A.m
L12 call <expr> . go in A.m
L13 call os.path . join in A.m
def A() : Base, mod.Mixin
def A.m(self, x, y, *args, z, **kw) :
"#,
    );
}

#[test]
fn typescript() {
    check(
        Language::TypeScript,
        r#"import def, { a, b as c } from './util';
import * as ns from "../lib/x.js";
export { z } from './z';
const r = require('./req');
@Component({x: 1})
class K extends Base implements I, J<T> {
  m(a: number, b?: Foo, ...rest: Bar[]): Baz { this.n(a); helper(a); new Thing(); return obj.prop.call(1); }
}
function f(x, y = 2) { g(); }
"#,
        r#"
L1 import ./util :: default as def
L1 import ./util :: a
L1 import ./util :: b as c
L2 import ../lib/x.js :: * as ns
L3 import ./z :: z
L4 import ./req as r
L5 decorator Component in K
L6 inherit Base in K
L6 inherit I in K
L6 inherit J in K
L6 type T in K
L7 type Foo in K.m
L7 type Bar in K.m
L7 type Baz in K.m
L7 call this . n in K.m
L7 call helper in K.m
L7 call Thing in K.m
L7 call obj.prop . call in K.m
L9 call g in f
def K() : Base, I, J<T>
def K.m(a, b, rest) :
def f(x, y) :
"#,
    );
}

#[test]
fn go() {
    check(
        Language::Go,
        r#"package main
import (
  "fmt"
  m "github.com/x/y/pkg"
)
import "os"
type S struct { Base; *pkg.Other; name string }
func (s *S) M(a int, b, c string) error { fmt.Println(a); helper(); s.other(); return pkg.Do(x) }
"#,
        r#"
L3 import fmt
L4 import github.com/x/y/pkg as m
L6 import os
L7 inherit Base in S
L7 inherit pkg . Other in S
L7 type string in S
L8 type S in S.M
L8 type int in S.M
L8 type string in S.M
L8 type error in S.M
L8 call fmt . Println in S.M
L8 call helper in S.M
L8 call s . other in S.M
L8 call pkg . Do in S.M
def S() : Base, pkg.Other
def S.M(a, b, c) :
"#,
    );
}

#[test]
fn rust() {
    check(
        Language::Rust,
        r#"use crate::a::b::{C, d::E as F};
use super::x;
use std::fmt;
mod sub;
mod inline { fn q() {} }
impl fmt::Display for Foo<T> { fn fmt(&self, f: &mut Formatter) -> Result { helper(1); self.go(); Foo::new(); x::y::z(); println!("a"); } }
impl Foo { fn bar(a: u8, (b, c): (u8, u8)) {} }
trait T: Clone + fmt::Debug {}
"#,
        r#"
L1 import crate::a::b :: C
L1 import crate::a::b::d :: E as F
L2 import super :: x
L3 import std :: fmt
L4 mod sub
L6 impl fmt . Display in Foo
L6 type Foo in Foo
L6 type T in Foo
L6 type Formatter in Foo::fmt
L6 type Result in Foo::fmt
L6 call helper in Foo::fmt
L6 call self . go in Foo::fmt
L6 call Foo . new in Foo::fmt
L6 call x::y . z in Foo::fmt
L7 type Foo in Foo
L8 inherit Clone in T
L8 inherit fmt . Debug in T
def Foo() : fmt::Display
def Foo::fmt(self, f) :
def Foo::bar(a, (b, c)) :
def T() : Clone, fmt::Debug
"#,
    );
}

#[test]
fn java() {
    check(
        Language::Java,
        r#"package com.x;
import com.x.util.Helper;
import static com.x.util.Helper.run;
import java.util.*;
@Service
public class A extends B implements C, D<E> {
  @Override
  public void m(int a, Foo b) { Helper.run(a); go(); this.x.y(); new Thing(a); }
}
"#,
        r#"
L2 import com.x.util.Helper
L3 import com.x.util.Helper :: run
L4 import java.util :: *
L5 decorator Service in A
L6 inherit B in A
L6 inherit C in A
L6 inherit D in A
L6 type E in A
L7 decorator Override in A.m
L8 type Foo in A.m
L8 call Helper . run in A.m
L8 call go in A.m
L8 call this.x . y in A.m
L8 call Thing in A.m
def A() : B, C, D<E>
def A.m(a, b) :
"#,
    );
}

#[test]
fn c() {
    check(
        Language::C,
        r#"#include "util.h"
#include <stdio.h>
int f(int a, char *b) { g(a); s->h(); return printf("x"); }
"#,
        r#"
L1 include util.h
L2 include <stdio.h>
L3 call g in f
L3 call s . h in f
L3 call printf in f
def f(a, b) :
"#,
    );
}

#[test]
fn cpp() {
    check(
        Language::Cpp,
        r#"#include "a/b.hpp"
class A : public Base, private ns::Other { void m(int x); };
void A::m(int x) { ns::f(x); obj.g(); ptr->h(); helper(); }
"#,
        r#"
L1 include a/b.hpp
L2 inherit Base in A
L2 inherit ns . Other in A
L3 call ns . f in A::m
L3 call obj . g in A::m
L3 call ptr . h in A::m
L3 call helper in A::m
def A() : Base, ns::Other
def A::m(x) :
"#,
    );
}

#[test]
fn csharp() {
    check(
        Language::CSharp,
        r#"using System.Text;
using App.Models;
namespace App { [Serializable] class A : B, IC { void M(int a, Foo b) { Helper.Run(a); Go(); new Thing(); } } }
"#,
        r#"
L1 import System.Text
L2 import App.Models
L3 decorator Serializable in A
L3 inherit B in A
L3 inherit IC in A
L3 type Foo in A.M
L3 call Helper . Run in A.M
L3 call Go in A.M
L3 call Thing in A.M
def A() : B, IC
def A.M(a, b) :
"#,
    );
}

#[test]
fn ruby() {
    check(
        Language::Ruby,
        r#"require 'json'
require_relative 'lib/helper'
class A < Base
  include Mixin
  def m(a, b = 1, *c, d:, **e)
    helper(a)
    obj.call(1)
    Foo.new
    bare
  end
end
"#,
        r#"
L1 import json
L2 import ./lib/helper
L3 inherit Base in A
L4 inherit Mixin in A
L6 call helper in A.m
L7 call obj . call in A.m
L8 type Foo in A.m
L8 call Foo . new in A.m
def A() : Base
def A.m(a, b, *c, d, **e) :
"#,
    );
}

#[test]
fn php() {
    check(
        Language::Php,
        r#"<?php
namespace App;
use App\Models\User;
use App\Other as O;
require_once __DIR__ . '/lib.php';
include 'x.php';
class A extends B implements C { function m($a, Foo $b) { helper($a); $this->go(); User::find(1); new Thing(); } }
"#,
        r#"
L3 import App\Models\User
L4 import App\Other as O
L5 import ./lib.php
L6 import x.php
L7 inherit B in A
L7 inherit C in A
L7 type Foo in A.m
L7 call helper in A.m
L7 call $this . go in A.m
L7 call User . find in A.m
L7 call Thing in A.m
def A() : B, C
def A.m(a, b) :
"#,
    );
}

#[test]
fn kotlin() {
    check(
        Language::Kotlin,
        r#"package com.x
import com.x.util.Helper
import com.y.*
import com.z.Thing as T
class A(val p: Int) : Base(), I {
  fun m(a: Int, b: Foo): Bar { helper(a); obj.go(1); Helper.run(); return Bar() }
}
"#,
        r#"
L2 import com.x.util.Helper
L3 import com.y :: *
L4 import com.z.Thing as T
L5 type Int in A
L5 inherit Base in A
L5 inherit I in A
L6 type Int in A.m
L6 type Foo in A.m
L6 type Bar in A.m
L6 call helper in A.m
L6 call obj . go in A.m
L6 call Helper . run in A.m
L6 call Bar in A.m
def A() : Base, I
def A.m(a, b) :
"#,
    );
}

#[test]
fn scala() {
    check(
        Language::Scala,
        r#"package com.x
import com.x.util.Helper
import com.y.{A, B => C}
class K(p: Int) extends Base with Mixin {
  def m(a: Int, b: Foo): Bar = { helper(a); obj.go(1); Helper.run() }
}
"#,
        r#"
L2 import com.x.util.Helper
L3 import com.y :: A
L3 import com.y :: B as C
L4 type Int in K
L4 inherit Base in K
L4 inherit Mixin in K
L5 type Int in K.m
L5 type Foo in K.m
L5 type Bar in K.m
L5 call helper in K.m
L5 call obj . go in K.m
L5 call Helper . run in K.m
def K() : Base, Mixin
def K.m(a, b) :
"#,
    );
}

#[test]
fn bash() {
    check(
        Language::Bash,
        r#"source ./lib.sh
. "$(dirname "$0")/other.sh"
f() { helper 1; echo x; }
f
"#,
        r#"
L1 source ./lib.sh
L2 source $(dirname "$0")/other.sh
L3 call helper in f
L4 call f in -
"#,
    );
}

#[test]
fn terraform() {
    check(
        Language::Hcl,
        r#"module "vpc" {
  source = "./modules/vpc"
  cidr = var.cidr
}
resource "aws_instance" "web" {
  subnet = module.vpc.subnet_id
  ami = data.aws_ami.ubuntu.id
  tags = { n = local.name, b = aws_s3_bucket.logs.arn }
}
"#,
        r#"
L2 module ./modules/vpc
L3 use var . cidr in module.vpc
L6 use module . vpc in resource.aws_instance.web
L7 use data . aws_ami.ubuntu in resource.aws_instance.web
L8 use local . name in resource.aws_instance.web
L8 use resource . aws_s3_bucket.logs in resource.aws_instance.web
"#,
    );
}

#[test]
fn dockerfile() {
    check(
        Language::Dockerfile,
        r#"FROM golang:1.22 AS build
COPY . .
FROM build AS test
FROM alpine
COPY --from=build /out /out
COPY --from=nginx:latest /etc/nginx /etc/nginx
"#,
        r#"
L1 image golang:1.22
L4 image alpine
L6 image nginx:latest
L3 stage build in test
L5 stage build in alpine
"#,
    );
}

#[test]
fn docker_compose() {
    check(
        Language::Yaml,
        r#"services:
  web:
    build: .
    depends_on:
      - db
      - cache
    extends:
      file: common.yml
      service: base
  db:
    image: postgres
    depends_on:
      cache:
        condition: service_started
  cache:
    extends: web
"#,
        r#"
L8 extends common.yml :: base
L5 depends_on db in web
L6 depends_on cache in web
L13 depends_on cache in db
L16 extends web in cache
"#,
    );
}

#[test]
fn github_actions() {
    check(
        Language::Yaml,
        r#"on: push
jobs:
  build:
    uses: ./.github/workflows/reuse.yml
  test:
    steps:
      - uses: actions/checkout@v4
      - uses: ./.github/actions/setup
"#,
        r#"
L4 uses ./.github/workflows/reuse.yml
L7 uses actions/checkout@v4
L8 uses ./.github/actions/setup
"#,
    );
}

#[test]
fn markdown() {
    check(
        Language::Markdown,
        r#"# Title
See [the guide](docs/guide.md#install) and [site](https://x.org).
[ref]: ../other.md
- item [x](./a.py)
```
[not](code.md)
```
"#,
        r#"
L2 link docs/guide.md
L3 link ../other.md
L4 link ./a.py
"#,
    );
}

#[test]
fn lua() {
    check(
        Language::Lua,
        r#"local m = require("a.b")
local function f(x) helper(x); obj:method(1); m.g() end
"#,
        r#"
L1 import a.b
L2 call helper in f
L2 call obj . method in f
L2 call m . g in f
def f(x) :
"#,
    );
}

#[test]
fn unparsed_files_have_no_graph() {
    let text = chunk_source(None, "import os\nfrom . import x\n", &ChunkOptions::default());
    assert_eq!(text.graph, crate::chunk::FileGraph::default());
    let too_big = ChunkOptions { max_parse_bytes: 4, ..ChunkOptions::default() };
    let fallback = chunk_source(Some(Language::Python), "import os\n", &too_big);
    assert_eq!(fallback.graph, crate::chunk::FileGraph::default());
}

#[test]
fn syntax_errors_keep_what_parsed() {
    check(
        Language::Python,
        "import os\n\ndef f(:\n    pass\n\ndef g():\n    os.getcwd()\n",
        "
L1 import os
L7 call os . getcwd in g
",
    );
}

#[test]
fn markdown_code_is_not_linked() {
    check(
        Language::Markdown,
        "Use `[x](not.md)` and [y](yes.md \"title\") and [z](<with space.md>).\n\n    [indented](code.md)\n\n![img](pics/a%20b.png)\n",
        "
L1 link yes.md
L1 link with space.md
L5 link pics/a b.png
",
    );
}

#[test]
fn deep_yaml_is_bounded() {
    let mut doc = String::from("services:\n  web:\n    depends_on: [db]\n    x: ");
    doc.push_str(&"[".repeat(300));
    doc.push_str(&"]".repeat(300));
    doc.push('\n');
    check(Language::Yaml, &doc, "L3 depends_on db in web");
}
