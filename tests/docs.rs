//! Facts the documentation states that the code can silently move away from: the tick's stage
//! list in docs/architecture.md against `World::step`, the module map against the simulation's
//! files, the test catalogue against the tests, and every picture and file the Markdown pages
//! link to against the repository (the project page showed broken images because `*.png` was
//! ignored, so the pictures were never committed).

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The simulation's source folder: `sim/src` once it is its own crate, `src/sim` before.
fn sim_dir() -> PathBuf {
    let crate_dir = root().join("sim/src");
    if crate_dir.join("world.rs").is_file() {
        crate_dir
    } else {
        root().join("src/sim")
    }
}

/// A path the docs write as the simulation crate's (`sim/src/X`) where it is on disk now.
fn on_disk(doc_path: &str) -> PathBuf {
    let Some(rest) = doc_path.strip_prefix("sim/src/") else {
        return root().join(doc_path);
    };
    let dir = sim_dir();
    if dir.ends_with("src/sim") && rest == "lib.rs" {
        dir.join("mod.rs")
    } else {
        dir.join(rest)
    }
}

/// The text of a function's body (between its outer braces), comments removed.
fn function_body(source: &str, signature: &str) -> String {
    let code: String = source
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let start = code
        .find(signature)
        .unwrap_or_else(|| panic!("`{signature}` not found"));
    let open = start + code[start..].find('{').expect("a body");
    let mut depth = 0;
    for (i, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return code[open + 1..open + i].to_owned();
                }
            }
            _ => {}
        }
    }
    panic!("`{signature}`: unbalanced braces");
}

/// The body's top-level statements, whitespace collapsed (`self.player\n.x()` reads `self.player.x()`).
fn statements(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut depth = 0;
    for c in body.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
        if depth == 0 && c == ';' {
            out.push(std::mem::take(&mut current));
            continue;
        }
        current.push(c);
        // A block statement (`if .. { .. }`) ends at its closing brace.
        if depth == 0 && c == '}' {
            out.push(std::mem::take(&mut current));
        }
    }
    out.push(current);
    out.iter()
        .map(|s| {
            s.split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace(" .", ".")
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// The stage a statement runs, if it is one: a call of a function of the world's own handed the
/// fields it needs (`step_vines(&mut vines, ..)`, its result kept or not), of a method of a
/// field (`hook.advance(..)`, `let intent = player.update_jump(..)`) or of the world itself
/// (`self.x(..)`, `self.hook.x(..)`); not a constructor (`Vec::new()`), a value looked up from a
/// field (`player.ground_body.map(..)`) or a call on something that is not the world's
/// (`meter.credit(..)`). `fields` are `World`'s field names.
fn stage_of(statement: &str, fields: &[String]) -> Option<String> {
    let (expr, bound) = match statement.strip_prefix("let ") {
        // Splitting the world into its parts (`let Parts { .. } = self.split()`) is no stage.
        Some(rest) if rest.starts_with(|c: char| c.is_ascii_uppercase()) => return None,
        Some(rest) => (rest.split_once(" = ")?.1, true),
        None => (statement, false),
    };
    let path = &expr[..expr.find('(')?];
    let is_path = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == ':';
    if path.is_empty() || !path.chars().all(is_path) {
        return None;
    }
    let segments: Vec<&str> = path.split('.').collect();
    let name = segments.last()?.rsplit("::").next()?;
    let accepted = match segments.as_slice() {
        ["self", receiver @ .., _] => !bound || receiver.is_empty() || receiver == ["player"],
        [function] => !bound || !function.contains("::"),
        [field, _] => fields.iter().any(|f| f == field),
        _ => false,
    };
    accepted.then(|| name.to_owned())
}

/// The names of `World`'s fields, from its definition in world.rs.
fn world_fields(world_source: &str) -> Vec<String> {
    function_body(world_source, "pub struct World")
        .lines()
        .filter_map(|line| line.trim().strip_prefix("pub(crate) "))
        .filter_map(|field| Some(field.split_once(':')?.0.trim().to_owned()))
        .collect()
}

fn stages_in_world_step() -> Vec<String> {
    let world = read(&sim_dir().join("world.rs"));
    let fields = world_fields(&world);
    assert!(
        fields.len() >= 10,
        "too few fields found in World: {fields:?}"
    );
    let body = function_body(&world, "fn step(&mut self");
    statements(&body)
        .iter()
        .filter_map(|s| stage_of(s, &fields))
        .collect()
}

/// The numbered list under docs/architecture.md's "## One tick" heading: `1. \`name\` — ...`.
fn stages_in_architecture_doc() -> Vec<String> {
    let doc = read(&root().join("docs/architecture.md"));
    let section = doc
        .split("\n## ")
        .find(|s| s.starts_with("One tick"))
        .expect("docs/architecture.md has a \"## One tick\" section");
    section
        .lines()
        .filter_map(|line| {
            let (number, rest) = line.split_once(". `")?;
            number.parse::<u32>().ok()?;
            Some(rest.split('`').next()?.to_owned())
        })
        .collect()
}

#[test]
fn the_documented_tick_order_is_world_steps() {
    let code = stages_in_world_step();
    let doc = stages_in_architecture_doc();
    assert!(
        code.len() >= 5,
        "too few stages found in World::step: {code:?}"
    );
    assert_eq!(
        doc, code,
        "docs/architecture.md's \"One tick\" list (left) differs from the calls in World::step \
         (right): update the list"
    );
}

#[test]
fn the_stage_parser_reads_calls_and_skips_the_rest() {
    let body = "
        let mut events = Vec::new();
        if self.is_completed() { return events; }
        let Parts { player, hook, vines, .. } = self.split();
        let tuning = Arc::clone(&self.tuning);
        let ground = self.player.ground_body.map(|b| self.pose(b));
        let before = player.ground_body.map(|b| scene.pose(b));
        self.step_objects(); // a comment
        self.tick += 1;
        let intent = self.player
            .update_jump(input, &tuning.player, &mut events);
        step_vines(&mut self.vines, &self.geometry);
        let upper = held_vine_upper(hook);
        let mut log = TickLog::start(player);
        log.meter.credit(player, Credit::Jump);
        player.settle(&geometry);
        let landed = player.land(&geometry);
        self.hook.advance(&mut events);
        events";
    let fields = ["player", "hook", "vines"].map(String::from);
    let stages: Vec<String> = statements(body)
        .iter()
        .filter_map(|s| stage_of(s, &fields))
        .collect();
    assert_eq!(
        stages,
        [
            "step_objects",
            "update_jump",
            "step_vines",
            "held_vine_upper",
            "settle",
            "land",
            "advance"
        ]
    );
}

#[test]
fn world_fields_are_read_from_its_definition() {
    let source = "
        /// Everything.
        pub struct World {
            pub(crate) level: Arc<LevelDef>,
            /// Colliders.
            pub(crate) geometry: Geometry,
            pub(crate) vines: Vec<VineState>,
        }
        impl World { fn step(&mut self) {} }";
    assert_eq!(world_fields(source), ["level", "geometry", "vines"]);
}

/// Backticked names in a Markdown text: `` `a` `` → "a".
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

#[test]
fn every_path_the_module_map_names_exists() {
    let doc = read(&root().join("docs/architecture.md"));
    let mut missing = Vec::new();
    for name in backticked(&doc) {
        let looks_like_path = (name.starts_with("src/") || name.starts_with("sim/src/"))
            && !name.contains(' ')
            && (name.ends_with(".rs") || name.ends_with('/'));
        if looks_like_path && !on_disk(name).exists() {
            missing.push(name);
        }
    }
    assert!(
        missing.is_empty(),
        "docs/architecture.md names files that do not exist: {missing:?}"
    );
}

#[test]
fn the_module_map_names_every_simulation_file() {
    let doc = read(&root().join("docs/architecture.md"));
    let named = backticked(&doc);
    let dir = sim_dir();
    let files = files_under(&dir, "rs");
    assert!(files.len() > 10, "{}: too few files", dir.display());
    let mut unnamed = Vec::new();
    for file in files {
        let rel = file
            .strip_prefix(&dir)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        let rel = if rel == "mod.rs" {
            "lib.rs".to_owned()
        } else {
            rel
        };
        let base = rel.rsplit('/').next().unwrap().to_owned();
        // A file is named by its path in the crate, or by its name where the doc lists a
        // folder's files (the object kinds); a nested `mod.rs` only by its path.
        let found = named.iter().any(|n| {
            *n == rel || *n == format!("sim/src/{rel}") || (base != "mod.rs" && *n == base)
        });
        if !found {
            unnamed.push(rel);
        }
    }
    assert!(
        unnamed.is_empty(),
        "docs/architecture.md's module map leaves out these simulation files: {unnamed:?}"
    );
}

/// Every picture a Markdown text shows: `![alt](path "title")` and `<img src="path">`.
fn image_links(markdown: &str) -> Vec<String> {
    let mut links = Vec::new();
    for (i, _) in markdown.match_indices("![") {
        let rest = &markdown[i..];
        if let Some(close) = rest.find("](") {
            links.extend(all_links(&rest[close..]).into_iter().take(1));
        }
    }
    for (i, _) in markdown.match_indices("<img") {
        let tag = &markdown[i..];
        let tag = &tag[..tag.find('>').unwrap_or(tag.len())];
        let Some(at) = tag.find("src=") else { continue };
        let value = &tag[at + 4..];
        let quote = value.chars().next().unwrap_or(' ');
        let value = if quote == '"' || quote == '\'' {
            value[1..].split(quote).next().unwrap_or("")
        } else {
            value.split_whitespace().next().unwrap_or("")
        };
        links.push(value.to_owned());
    }
    links
}

/// The files below `dir` whose names end in `.ext`, at any depth, in a stable order.
fn files_under(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for path in entries.flatten().map(|entry| entry.path()) {
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == ext) {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn markdown_pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md")];
    for dir in ["docs", "levels", "tests"] {
        pages.extend(files_under(&root().join(dir), "md"));
    }
    pages
}

/// Whether git would leave `path` out of a commit (`.gitignore`); `None` without git.
fn git_ignores(path: &Path) -> Option<bool> {
    let status = Command::new("git")
        .arg("-C")
        .arg(root())
        .args(["check-ignore", "-q"])
        .arg(path)
        .status()
        .ok()?;
    match status.code() {
        Some(0) => Some(true),
        Some(1) => Some(false),
        _ => None,
    }
}

/// Every target a Markdown text links to, pictures included: `[text](path#anchor)`.
fn all_links(markdown: &str) -> Vec<String> {
    markdown
        .match_indices("](")
        .filter_map(|(i, _)| {
            let target = &markdown[i + 2..];
            match target.strip_prefix('<') {
                Some(inside) => inside.split('>').next(),
                None => target.split([')', ' ', '\n']).next(),
            }
        })
        .map(str::to_owned)
        .collect()
}

/// What is wrong with `link` on `page` as a path in the repository, if anything: web
/// addresses and anchors within the page are not paths and pass.
fn problem_with(page: &Path, link: &str, must_be_file: bool) -> Option<String> {
    let web = ["http://", "https://", "mailto:", "data:", "#"];
    if web.iter().any(|w| link.starts_with(w)) {
        return None;
    }
    let root = root().canonicalize().unwrap();
    let page_name = page.strip_prefix(root.as_path()).unwrap_or(page).display();
    let file = link.split(['#', '?']).next().unwrap_or("");
    let problem = match page.parent().unwrap().join(file).canonicalize() {
        Err(_) => "does not exist",
        Ok(p) if !p.starts_with(&root) => "is outside the repository",
        Ok(p) if must_be_file && !p.is_file() => "is not a file",
        Ok(p) if git_ignores(&p) == Some(true) => "is ignored by .gitignore, so never committed",
        Ok(_) => return None,
    };
    Some(format!("{page_name}: {link} {problem}"))
}

/// Checks every link `links_of` finds in every Markdown page; `what` names them in the failure.
fn check_pages(links_of: fn(&str) -> Vec<String>, must_be_file: bool, what: &str) {
    let mut problems = Vec::new();
    let mut seen = 0;
    for page in markdown_pages() {
        for link in links_of(&read(&page)) {
            seen += 1;
            problems.extend(problem_with(&page, &link, must_be_file));
        }
    }
    assert!(
        seen > 0,
        "no links found in the Markdown pages: is the parser broken?"
    );
    assert!(problems.is_empty(), "{what}:\n{}", problems.join("\n"));
}

#[test]
fn every_picture_the_docs_show_is_in_the_repository() {
    check_pages(image_links, true, "pictures the repository lacks");
}

#[test]
fn every_file_the_docs_link_to_is_in_the_repository() {
    check_pages(all_links, false, "links to files the repository lacks");
}

#[test]
fn the_image_link_parser_finds_both_forms() {
    let text =
        "![a](docs/a.png) text ![b](<b c.png> \"title\") <img alt=\"x\" src=\"d/e.png\" width=9>\n\
                | ![f](levels/f.png) |";
    assert_eq!(
        image_links(text),
        ["docs/a.png", "b c.png", "levels/f.png", "d/e.png"]
    );
    let text = "[a](a.md#x) and ![b](b.png) [web](https://x.org) [c](<c d.md>)";
    assert_eq!(
        all_links(text),
        ["a.md#x", "b.png", "https://x.org", "c d.md"]
    );
}

#[test]
fn the_test_catalogue_names_every_test_and_only_tests_that_exist() {
    let catalogue = read(&root().join("tests/README.md"));
    let named = backticked(&catalogue);
    let mut problems = Vec::new();
    for (dir, is_test) in [
        ("tests", (|n: &str| n.ends_with(".rs")) as fn(&str) -> bool),
        ("scripts", |n: &str| n.contains("_test.")),
    ] {
        for entry in std::fs::read_dir(root().join(dir))
            .expect("readable dir")
            .flatten()
        {
            let name = entry.file_name().to_string_lossy().into_owned();
            let written = if dir == "tests" {
                name.clone()
            } else {
                format!("scripts/{name}")
            };
            if entry.path().is_file() && is_test(&name) && !named.contains(&written.as_str()) {
                problems.push(format!("{written} is not in tests/README.md"));
            }
        }
    }
    for name in &named {
        let path = if name.starts_with("scripts/") {
            root().join(name)
        } else if name.ends_with(".rs") && !name.contains(['/', ' ']) {
            root().join("tests").join(name)
        } else {
            continue;
        };
        if !path.is_file() {
            problems.push(format!(
                "tests/README.md names {name}, which does not exist"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
