//! `matrix` end to end: the real binary over a small implementations file
//! (the built-in reference, the Python adapter and three planted bugs),
//! then the page it writes in a real headless browser.
//!
//! The browser test needs Debian's `chromium`; `.ci/run` installs it. Where
//! it is missing the test says so and passes, except under CI (`CI` set),
//! where it fails.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use common::{python, scratch, RUNNER};
use serde_json::Value as Json;

fn manifest_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The implementations file of these tests, written beside the output.
fn implementations_file(dir: &Path) -> PathBuf {
    let adapters = manifest_dir().join("adapters");
    let buggy = manifest_dir().join("tests/buggy_adapters");
    let py = python();
    let text = format!(
        "implementations:
  - name: reference
    language: Rust
    version: \"0.1.0\"
    source: {{ repository: this repository }}
    builtin: reference
  - name: python
    language: Python
    version: \"0.1.0\"
    source: {{ path: conformance/adapters/python/adapter.py }}
    command: [{py}, \"{}\"]
  - name: sign-extend
    language: Python
    version: planted
    source: {{ path: sign_extend.py }}
    command: [{py}, \"{}\"]
    note: The spec's C snippet's sign extension.
  - name: name-cap
    language: Python
    version: planted
    source: {{ path: name_cap.py }}
    command: [{py}, \"{}\"]
  - name: crash-on-empty
    language: Python
    version: planted in a copy of the Python adapter that exits on an empty packed GUID input
    source: {{ path: crash_on_empty.py }}
    command: [{py}, ./crash_on_empty.py]
    window: 1
",
        adapters.join("python/adapter.py").display(),
        buggy.join("sign_extend.py").display(),
        buggy.join("name_cap.py").display(),
    );
    // The Python adapter, dying on an empty packed GUID input (one vector):
    // a crash without hundreds of restarts. `./` is relative to the file.
    std::fs::write(
        dir.join("crash_on_empty.py"),
        format!(
            "import sys\nsys.path.insert(0, {:?})\nimport adapter\n\
             decode = adapter.decode_packed_guid\n\
             def crashing(data):\n    if not data:\n        raise SystemExit(3)\n    return decode(data)\n\
             adapter.HANDLERS[(b'decode', b'packed_guid')] = (lambda a: crashing(adapter.parse_bytes(a[0])), 1, 1)\n\
             sys.exit(adapter.main())\n",
            adapters.join("python").display().to_string()
        ),
    )
    .unwrap();
    let path = dir.join("implementations.yaml");
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs `matrix` once for all the tests of this file; returns the output
/// directory.
fn built() -> &'static PathBuf {
    static OUT: OnceLock<PathBuf> = OnceLock::new();
    OUT.get_or_init(|| {
        let dir = scratch("matrix");
        let file = implementations_file(&dir);
        let out = dir.join("out");
        let output = Command::new(RUNNER)
            .args(["matrix", "--strict-errors", "--out"])
            .arg(&out)
            .arg(&file)
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        out
    })
}

fn json() -> Json {
    serde_json::from_slice(&std::fs::read(built().join("matrix.json")).unwrap()).unwrap()
}

#[test]
fn the_json_counts_every_cell_and_names_each_cause() {
    let doc = json();
    let vectors = doc["vectors"].as_array().unwrap();
    let implementations = doc["implementations"].as_array().unwrap();
    assert_eq!(implementations.len(), 5);
    assert_eq!(
        doc["corpus"]["vectors"].as_u64().unwrap() as usize,
        vectors.len()
    );
    for (i, imp) in implementations.iter().enumerate() {
        for (outcome, n) in imp["counts"].as_object().unwrap() {
            let cells = vectors
                .iter()
                .filter(|v| v["results"][i]["outcome"] == outcome.as_str())
                .count();
            assert_eq!(
                n.as_u64().unwrap() as usize,
                cells,
                "{} {outcome}",
                imp["name"]
            );
        }
    }
    let by_name = |name: &str| {
        implementations
            .iter()
            .find(|i| i["name"] == name)
            .unwrap()
            .clone()
    };
    for clean in ["reference", "python"] {
        assert_eq!(
            by_name(clean)["counts"]["pass"].as_u64().unwrap() as usize,
            vectors.len()
        );
        assert!(by_name(clean)["causes"].as_array().unwrap().is_empty());
    }
    // The sign extension is one cause (the fuzzer's signature: bits set in
    // the high half), shown by the two-byte vector.
    let sign = by_name("sign-extend");
    let causes = sign["causes"].as_array().unwrap();
    let extended = causes
        .iter()
        .find(|c| c["difference"] == "wrong GUID (high 32 bits, too large)")
        .unwrap_or_else(|| panic!("{causes:#?}"));
    assert_eq!(extended["kind"], "decode packed_guid");
    assert!(extended["example"]["request"]
        .as_str()
        .unwrap()
        .ends_with(" 0880"));
    // The name cap: its smallest vector is long, so the shrinker ran.
    let cap = by_name("name-cap");
    let cause = cap["causes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["difference"] == "wrong byte count (too few)")
        .expect("the cap reads the wrong number of bytes");
    assert!(
        cause["shrunk"].is_object() || cause["example"]["request"].as_str().unwrap().len() > 500
    );
    // A crash is its own outcome, and one vector each.
    let crash = by_name("crash-on-empty");
    assert!(crash["counts"]["crashed"].as_u64().unwrap() > 0);
    assert_eq!(crash["counts"]["fail"].as_u64().unwrap(), 0, "{crash}");
    assert_eq!(crash["causes"][0]["difference"], "crash");
    assert_eq!(
        crash["causes"][0]["example"]["request"],
        "packed.decode.empty decode packed_guid -"
    );
    // Disagreement: the row flags and the total agree.
    let disagree = vectors.iter().filter(|v| v["agree"] == false).count();
    assert_eq!(doc["disagreements"].as_u64().unwrap() as usize, disagree);
    assert!(disagree > 0);
    assert_eq!(
        std::fs::read_to_string(built().join("matrix.schema.json")).unwrap(),
        std::fs::read_to_string(manifest_dir().join("matrix.schema.json")).unwrap()
    );
}

#[test]
fn the_markdown_has_every_implementation_and_no_timing() {
    let md = std::fs::read_to_string(built().join("matrix.md")).unwrap();
    for name in [
        "reference",
        "python",
        "sign-extend",
        "name-cap",
        "crash-on-empty",
    ] {
        assert!(md.contains(&format!("| {name} |")), "{name}");
    }
    assert!(md.contains("decode packed_guid: wrong GUID"), "{md}");
    assert!(
        md.contains("decode named_guid: crash") || md.contains(": crash"),
        "{md}"
    );
    assert!(
        !md.contains(" ms"),
        "timings would make the file differ between runs"
    );
}

/// Runs `matrix --out DIR/out` on an implementations file in `dir` holding
/// `yaml`; returns the file's path and what the runner did.
fn matrix_of(dir: &Path, yaml: &str) -> (PathBuf, std::process::Output) {
    let file = dir.join("implementations.yaml");
    std::fs::write(&file, yaml).unwrap();
    let output = Command::new(RUNNER)
        .args(["matrix", "--out"])
        .arg(dir.join("out"))
        .arg(&file)
        .output()
        .unwrap();
    (file, output)
}

#[test]
fn untrusted_text_cannot_write_markdown_or_html_into_the_matrix() {
    let dir = scratch("matrix-injection");
    // Every text field of an entry tries to end its table row, start a
    // heading, or smuggle in HTML; the run itself is the reference's.
    let evil = "x\\n# All implementations pass\\n<img src=y onerror=alert(1)> <!-- <style> `|` **";
    let yaml = format!(
        "implementations:\n  - name: \"ref {evil}\"\n    language: \"C {evil}\"\n    version: \"1 {evil}\"\n    \
         source: {{ package: \"p {evil}\", repository: \"r {evil}\", path: \"q {evil}\" }}\n    \
         builtin: reference\n    note: \"n {evil}\"\n"
    );
    let (_, output) = matrix_of(&dir, &yaml);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let page = std::fs::read_to_string(dir.join("out/matrix.md")).unwrap();
    // Code spans show their text as it is, HTML included: what matters is
    // what stands outside them.
    let md = without_code_spans(&page);
    for line in md.lines() {
        assert!(!line.starts_with("# All"), "a heading got in: {line}");
    }
    for raw in ["<img", "<!--", "<style", "**"] {
        assert!(!md.contains(raw), "{raw} reached matrix.md:\n{md}");
    }
    // The text is still there, escaped, and each table row is one line.
    assert!(md.contains("&lt;img src=y onerror=alert(1)&gt;"), "{md}");
    let rows = md.lines().filter(|l| l.starts_with("| ref ")).count();
    assert!(rows >= 2, "one row in each table: {md}");
    // A code span's text cannot close its span early either.
    // (The path holds one backtick in a row, so its fence is two long.)
    assert!(page.contains("``q x # All implementations pass"), "{page}");
}

/// `text` without its inline code spans, found as CommonMark finds them: a
/// run of n backticks up to the next run of exactly n.
fn without_code_spans(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find('`') {
        out.push_str(&rest[..start]);
        let run = rest[start..].len() - rest[start..].trim_start_matches('`').len();
        let after = &rest[start + run..];
        let mut search = 0;
        let close = loop {
            let Some(at) = after[search..].find('`') else {
                break None;
            };
            let at = search + at;
            let len = after[at..].len() - after[at..].trim_start_matches('`').len();
            if len == run {
                break Some(at);
            }
            search = at + len;
        };
        match close {
            Some(at) => rest = &after[at + run..],
            None => {
                out.push_str(&rest[start..start + run]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

#[test]
fn a_bad_implementations_file_is_a_located_error_and_exit_2() {
    let dir = scratch("matrix-bad");
    let (file, output) = matrix_of(
        &dir,
        "implementations:\n  - name: a\n    language: C\n    version: \"1\"\n    source: { path: x }\n    comand: [x]\n",
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(&format!("{}:6:5: unknown field `comand`", file.display())),
        "{stderr}"
    );
    assert!(!dir.join("out").exists(), "nothing is written");
}

#[test]
fn an_implementation_that_never_answers_is_exit_2() {
    let dir = scratch("matrix-missing");
    let (_, output) = matrix_of(
        &dir,
        "implementations:\n  - name: gone\n    language: C\n    version: \"1\"\n    source: { path: x }\n    command: [./no-such-program]\n",
    );
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stderr).contains("gone"));
}

/// An entry for the built-in reference under `name` (YAML, double-quoted).
fn reference_entry(name: &str) -> String {
    format!(
        "  - name: \"{name}\"\n    language: Rust\n    version: \"1\"\n    \
         source: {{ path: x }}\n    builtin: reference\n"
    )
}

#[test]
fn names_reach_the_terminal_with_their_controls_spelled_out() {
    let dir = scratch("matrix-terminal");
    // A window title, a clipboard write and a cleared screen, as YAML escapes.
    let yaml = format!(
        "implementations:\n{}",
        reference_entry(r"ref\e]0;pwned\a\e]52;c;aGk=\a\e[2J")
    );
    let file = dir.join("implementations.yaml");
    std::fs::write(&file, yaml).unwrap();
    // Styles forced on, as on a terminal: nothing strips what got through.
    let output = Command::new(RUNNER)
        .args(["matrix", "--out"])
        .arg(dir.join("out"))
        .arg(&file)
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        !stdout.contains('\x07') && !stdout.contains("\x1b]"),
        "{stdout:?}"
    );
    assert!(stdout.contains(r"ref\x1b]0;pwned\x07"), "{stdout}");
}

#[test]
fn the_console_table_stays_in_line_with_a_long_name_and_version() {
    let dir = scratch("matrix-console-table");
    let entry = |name: &str, version: &str| {
        format!(
            "  - name: \"{name}\"\n    language: Rust\n    version: \"{version}\"\n    \
             source: {{ path: x }}\n    builtin: reference\n"
        )
    };
    let yaml = format!(
        "implementations:\n{}{}{}",
        entry("ref", "1"),
        entry("reference with a name longer than the usual column", "1"),
        entry("ref2", "2.0.0-rc.1+build.20261126.a-very-long-tag"),
    );
    let (_, output) = matrix_of(&dir, &yaml);
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let rows: Vec<&str> = stdout.lines().filter(|l| l.contains(" pass")).collect();
    assert_eq!(rows.len(), 3, "{stdout}");
    // The counts start in one column on every row.
    let counts: Vec<Option<usize>> = rows
        .iter()
        .map(|r| r.find(" pass").and_then(|end| r[..end].rfind(' ')))
        .collect();
    assert!(
        counts.iter().all(|c| *c == counts[0] && c.is_some()),
        "{stdout}"
    );
}

#[test]
fn a_duplicate_name_error_spells_out_controls_even_off_a_terminal() {
    let dir = scratch("matrix-duplicate-escape");
    let evil = r"x\e]0;pwned\a\e[2J";
    let (_, output) = matrix_of(
        &dir,
        &format!(
            "implementations:\n{}{}",
            reference_entry(evil),
            reference_entry(evil)
        ),
    );
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("already used"), "{stderr}");
    assert!(
        !stderr.contains('\x1b') && !stderr.contains('\x07'),
        "{stderr:?}"
    );
}

/// A cell's hover says why as well as what: the vector's description and
/// source; beside its id, links to its REFERENCE.md row and to its note.
#[test]
fn hover_texts_give_the_description_and_the_row_links_to_reference_and_note() {
    let dir = scratch("matrix-why");
    let (_, output) = matrix_of(&dir, &format!("implementations:\n{}", reference_entry("a")));
    assert_eq!(output.status.code(), Some(0));
    let page = std::fs::read_to_string(dir.join("out/index.html")).unwrap();
    let row = page
        .split("<tr class=\"vector\" id=\"v-packed.decode.doc-example\"")
        .nth(1)
        .and_then(|rest| rest.split("</tr>").next())
        .expect("the doc example's row");
    let repository = env!("CARGO_PKG_REPOSITORY");
    for expected in [
        "title=\"a: passed\nvector: The spec&#39;s worked example, mask 0a with bytes de and ad.\n\
         source: NOTES.md#the-worked-example: the spec&#39;s Examples section",
        &format!(
            "<a class=\"ref\" href=\"{repository}/blob/main/vectors/REFERENCE.md#packed.decode.doc-example\""
        ),
        &format!(
            "<a class=\"ref\" href=\"{repository}/blob/main/vectors/NOTES.md#the-worked-example\""
        ),
        "data-description=\"The spec&#39;s worked example",
    ] {
        assert!(row.contains(expected), "no `{expected}` in\n{row}");
    }
}

#[test]
fn hover_texts_do_not_repeat_a_long_name_in_every_cell() {
    let dir = scratch("matrix-long-name");
    let name = "n".repeat(20_000);
    let (_, output) = matrix_of(
        &dir,
        &format!("implementations:\n{}", reference_entry(&name)),
    );
    assert_eq!(output.status.code(), Some(0));
    let page = std::fs::read_to_string(dir.join("out/index.html")).unwrap();
    // The same page for a one-letter name: the long name may add a few
    // copies of itself, never one per cell (20 KB times every vector).
    let short_dir = scratch("matrix-short-name");
    let (_, short) = matrix_of(
        &short_dir,
        &format!("implementations:\n{}", reference_entry("n")),
    );
    assert_eq!(short.status.code(), Some(0));
    let baseline = std::fs::metadata(short_dir.join("out/index.html"))
        .unwrap()
        .len() as usize;
    // Each cell may carry the name cut to 160 characters (about 200 bytes
    // with its markup), and the page a few whole copies.
    let cells = wow_guid_vectors::Corpus::embedded().unwrap().vectors.len();
    assert!(
        page.len() < baseline + 200 * cells + 5 * name.len(),
        "{} bytes, {baseline} with a one-letter name, {cells} cells",
        page.len()
    );
    assert!(
        occurrences(&page, &name) <= 4,
        "{}",
        occurrences(&page, &name)
    );
}

#[test]
fn a_command_that_cannot_start_is_reported_before_anything_runs() {
    let dir = scratch("matrix-cannot-start");
    let started = std::time::Instant::now();
    // The first implementation never answers: running it alone would take
    // the start-up allowance and the liveness probes, many seconds.
    let (_, output) = matrix_of(
        &dir,
        "implementations:\n  - name: silent\n    language: sh\n    version: \"1\"\n    \
         source: { path: x }\n    command: [sleep, \"60\"]\n\
         \x20 - name: gone\n    language: C\n    version: \"1\"\n    source: { path: x }\n    \
         command: [./no-such-program]\n",
    );
    let elapsed = started.elapsed();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("implementation `gone`") && stderr.contains("no-such-program"),
        "{stderr}"
    );
    assert!(
        elapsed < std::time::Duration::from_secs(5),
        "took {elapsed:?}"
    );
    assert!(!dir.join("out/matrix.json").exists());
}

#[test]
fn the_files_are_written_as_one_set_or_not_at_all() {
    let dir = scratch("matrix-one-set");
    // index.html cannot be replaced: nothing of the set may be written.
    std::fs::create_dir_all(dir.join("out/index.html")).unwrap();
    let (_, output) = matrix_of(&dir, &format!("implementations:\n{}", reference_entry("a")));
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    for name in ["matrix.json", "matrix.md", "matrix.schema.json"] {
        assert!(
            !dir.join("out").join(name).exists(),
            "{name} written without index.html"
        );
    }
    std::fs::remove_dir(dir.join("out/index.html")).unwrap();

    // Two runs into one directory at once leave one run's whole set.
    for round in 0..3 {
        let out = dir.join(format!("shared-{round}"));
        let runs: Vec<_> = ["alpha-impl", "omega-impl"]
            .iter()
            .map(|name| {
                let file = dir.join(format!("{name}.yaml"));
                std::fs::write(
                    &file,
                    format!("implementations:\n{}", reference_entry(name)),
                )
                .unwrap();
                Command::new(RUNNER)
                    .args(["matrix", "--out"])
                    .arg(&out)
                    .arg(&file)
                    .spawn()
                    .unwrap()
            })
            .collect();
        for mut run in runs {
            assert!(run.wait().unwrap().success());
        }
        let json = std::fs::read_to_string(out.join("matrix.json")).unwrap();
        let md = std::fs::read_to_string(out.join("matrix.md")).unwrap();
        let html = std::fs::read_to_string(out.join("index.html")).unwrap();
        let winner = if json.contains("\"alpha-impl\"") {
            "alpha-impl"
        } else {
            "omega-impl"
        };
        let loser = if winner == "alpha-impl" {
            "omega-impl"
        } else {
            "alpha-impl"
        };
        for (what, text) in [("matrix.md", &md), ("index.html", &html)] {
            assert!(
                text.contains(winner) && !text.contains(loser),
                "{what} is from another run"
            );
        }
        let left: Vec<_> = std::fs::read_dir(&out)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(left.len(), 4, "{left:?}");
    }
}

// ---------------------------------------------------------------------------
// The page, in a real browser.
// ---------------------------------------------------------------------------

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser"].into_iter().find(|name| {
        Command::new(name)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Whether Chromium is here to run a page test; without it the test says
/// so and passes, except under CI, where it fails.
fn browser_here() -> bool {
    if chromium().is_some() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "chromium is missing, and CI must run the page test (apt-get install chromium)"
    );
    eprintln!("SKIPPED: chromium is missing (on Debian: apt-get install chromium)");
    false
}

/// Chromium, headless and isolated (a fresh profile, nothing fetched), with
/// `extra` arguments and the page at `fragment`.
fn headless(extra: &[&str], fragment: &str) -> String {
    headless_page(&built().join("index.html"), extra, fragment)
}

/// [`headless`] on the page at `page`.
fn headless_page(page: &Path, extra: &[&str], fragment: &str) -> String {
    let browser = chromium().expect("checked by the caller");
    let profile = scratch(&format!(
        "chromium-{}-{}",
        fragment.len() + extra.len(),
        extra.concat().len()
    ));
    let output = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(format!("file://{}{fragment}", page.display()))
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

fn occurrences(text: &str, needle: &str) -> usize {
    text.matches(needle).count()
}

/// The number in `data-visible="N"` of the "Showing N of M" line.
fn visible(dom: &str) -> usize {
    let at = dom.find("id=\"shown\"").expect("the count line");
    let rest = &dom[at..];
    let start = rest.find("data-visible=\"").unwrap() + "data-visible=\"".len();
    rest[start..].split('"').next().unwrap().parse().unwrap()
}

#[test]
fn the_page_renders_in_headless_chromium() {
    if !browser_here() {
        return;
    }
    let doc = json();
    let vectors = doc["vectors"].as_array().unwrap().len();
    let implementations = doc["implementations"].as_array().unwrap().len();
    let disagreements = doc["disagreements"].as_u64().unwrap() as usize;

    // Rows and columns, as the browser built them, with the script run.
    let dom = headless(&["--dump-dom"], "");
    assert_eq!(occurrences(&dom, "<tr class=\"vector\""), vectors);
    assert_eq!(occurrences(&dom, "<th class=\"impl\""), implementations);
    assert_eq!(
        occurrences(&dom, "data-outcome="),
        vectors * implementations
    );
    assert_eq!(visible(&dom), vectors, "nothing is filtered at first");
    assert!(
        !dom.contains("<nav id=\"filters\" hidden"),
        "the script shows the filters"
    );

    // The disagreement filter: exactly the agreeing rows are hidden, as laid
    // out by the browser (the count comes from offsetParent).
    let dom = headless(&["--dump-dom"], "#disagree");
    assert_eq!(visible(&dom), disagreements);
    let hidden = dom
        .split("<tr class=\"vector\"")
        .skip(1)
        .filter(|row| row.split('>').next().unwrap().contains(" hidden"))
        .count();
    assert_eq!(hidden, vectors - disagreements);
    assert!(dom.split("<tr class=\"vector\"").skip(1).all(|row| {
        let tag = row.split('>').next().unwrap();
        tag.contains("data-agree=\"1\"") == tag.contains(" hidden")
    }));

    // One request kind only.
    let dom = headless(&["--dump-dom"], "#kinds=encode-packed_guid");
    let encodes = doc["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|v| v["kind"] == "encode packed_guid")
        .count();
    assert_eq!(visible(&dom), encodes);

    // A cell's details, opened as a click opens them.
    let first = &doc["vectors"][0];
    let dom = headless(
        &["--dump-dom"],
        &format!("#show={}@2", first["id"].as_str().unwrap()),
    );
    assert!(
        dom.contains("<aside id=\"detail\"><button"),
        "the panel is shown"
    );
    assert!(dom.contains(first["request"].as_str().unwrap()));

    // Without scripts the page is its source: every row is there and shown,
    // and the filters (which need the script) stay hidden. (Headless
    // Chromium writes neither a DOM dump nor a screenshot with scripts
    // off, so the source is what is checked.)
    let source = std::fs::read_to_string(built().join("index.html")).unwrap();
    assert_eq!(occurrences(&source, "<tr class=\"vector\""), vectors);
    assert!(!source.split("<tr class=\"vector\"").skip(1).any(|row| row
        .split('>')
        .next()
        .unwrap()
        .contains(" hidden")));
    assert!(source.contains("<nav id=\"filters\" hidden>"));
    assert!(
        !source.contains("src=") && !source.contains("<link"),
        "nothing is loaded"
    );

    // A screenshot, kept as an artefact beside the build output.
    let shot = std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| manifest_dir().join("../target"), PathBuf::from)
        .join("matrix-page.png");
    let _ = std::fs::remove_file(&shot);
    headless(
        &[
            &format!("--screenshot={}", shot.display()),
            "--window-size=1400,1000",
            "--hide-scrollbars",
        ],
        "#disagree",
    );
    let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{} bytes",
        png.len()
    );
    eprintln!("screenshot: {}", shot.display());
}

/// The matrix page's classes are the outcomes' report names: `page.css`
/// styles every outcome a cell can have, under the name JSON uses for it.
#[test]
fn the_page_styles_every_cell_outcome_by_its_report_name() {
    let css = include_str!("../src/matrix/page.css");
    for outcome in wow_guid_conformance::matrix::model::CELL_OUTCOMES {
        let rule = format!(".{} {{", outcome.as_str());
        assert!(css.contains(&rule), "page.css lacks `{rule}`");
    }
}

/// What the probe script measures in the laid-out page, once it has loaded
/// (its scripts run, the address's fragment applied).
const PROBE: &str = r#"<script>
window.addEventListener("load", function () {
  function box(el) { var r = el.getBoundingClientRect(); return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; }
  var heads = Array.prototype.map.call(document.querySelectorAll("thead th.impl"), function (th) {
    return {th: box(th), name: box(th.querySelector(".name"))};
  });
  var causes = Array.prototype.map.call(document.querySelectorAll("details.causes"), function (d) {
    return {name: d.getAttribute("data-name"), causes: d.querySelectorAll("li.cause").length};
  });
  var out = {
    scrollY: window.scrollY, height: window.innerHeight, width: window.innerWidth,
    h1: box(document.querySelector("h1")), summary: box(document.getElementById("summary")),
    filters: box(document.getElementById("filters")), table: box(document.querySelector("table.matrix")),
    heads: heads, causes: causes,
    visible: Number(document.getElementById("shown").getAttribute("data-visible"))
  };
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"#;

/// The matrix page with [`PROBE`] added, at `width` by `height`, opened at
/// `fragment`: the probe's measurements.
fn measured(width: u32, height: u32, fragment: &str) -> Json {
    let source = std::fs::read_to_string(built().join("index.html")).unwrap();
    let page = built().join(format!("probe-{width}x{height}.html"));
    std::fs::write(&page, source.replace("</body>", &format!("{PROBE}</body>"))).unwrap();
    let dom = headless_page(
        &page,
        &["--dump-dom", &format!("--window-size={width},{height}")],
        fragment,
    );
    let at = dom.find("<pre id=\"probe\">").expect("the probe ran") + "<pre id=\"probe\">".len();
    let text = &dom[at..at + dom[at..].find("</pre>").unwrap()];
    serde_json::from_str(&text.replace("&quot;", "\"").replace("&amp;", "&")).unwrap()
}

/// The page as laid out at two window sizes: opened at `#disagree` it
/// starts at the top (the summary on the first screen, not a blank one),
/// no rotated implementation name spills out of its heading over the text
/// above the table, and the failure causes of every implementation are on
/// the page, as many as `matrix.json` has. A screenshot of each size is
/// kept beside the build output as an artefact.
#[test]
fn the_page_is_laid_out_at_two_window_sizes() {
    if !browser_here() {
        return;
    }
    let doc = json();
    let implementations = doc["implementations"].as_array().unwrap();
    let failing: Vec<(&str, usize)> = implementations
        .iter()
        .map(|i| {
            (
                i["name"].as_str().unwrap(),
                i["causes"].as_array().unwrap().len(),
            )
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    assert!(failing.len() >= 3, "{failing:?}");
    let px = |v: &Json| v.as_f64().unwrap();
    for (width, height) in [(1400, 1000), (800, 600)] {
        let size = format!("{width}x{height}");
        let m = measured(width, height, "#disagree");
        assert_eq!(px(&m["width"]), f64::from(width), "{size}: {m}");
        assert_eq!(
            m["visible"], doc["disagreements"],
            "{size}: the filter is on"
        );
        // The first screen is the page's top.
        assert_eq!(px(&m["scrollY"]), 0.0, "{size}: {m}");
        assert!(px(&m["h1"]["top"]) >= 0.0, "{size}: {m}");
        assert!(
            px(&m["summary"]["bottom"]) <= px(&m["height"]),
            "{size}: {m}"
        );
        // Headings stay inside their cells, below the filters.
        let heads = m["heads"].as_array().unwrap();
        assert_eq!(heads.len(), implementations.len());
        for head in heads {
            let (th, name) = (&head["th"], &head["name"]);
            assert!(
                px(&th["top"]) >= px(&m["filters"]["bottom"]) - 0.5,
                "{size}: {head}"
            );
            assert!(
                px(&name["top"]) >= px(&th["top"]) - 0.5,
                "{size}: spills up: {head}"
            );
            assert!(
                px(&name["bottom"]) <= px(&th["bottom"]) + 0.5,
                "{size}: {head}"
            );
            assert!(px(&name["left"]) >= px(&th["left"]) - 0.5, "{size}: {head}");
            assert!(
                px(&name["right"]) <= px(&th["right"]) + 0.5,
                "{size}: {head}"
            );
        }
        // Every failing implementation's causes, as many as in the JSON.
        let causes: Vec<(&str, usize)> = m["causes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap(),
                    c["causes"].as_u64().unwrap() as usize,
                )
            })
            .collect();
        assert_eq!(causes, failing, "{size}");

        let shot = std::env::var_os("CARGO_TARGET_DIR")
            .map_or_else(|| manifest_dir().join("../target"), PathBuf::from)
            .join(format!("matrix-page-{size}.png"));
        let _ = std::fs::remove_file(&shot);
        headless(
            &[
                &format!("--screenshot={}", shot.display()),
                &format!("--window-size={width},{height}"),
                "--hide-scrollbars",
            ],
            "#disagree",
        );
        let png = std::fs::read(&shot).expect("chromium wrote the screenshot");
        assert!(png.starts_with(b"\x89PNG"), "{}", shot.display());
        eprintln!("screenshot: {}", shot.display());
    }
}

/// Characters neither XML 1.0 nor HTML allows in a document (U+FFFE,
/// U+FFFF, controls) in an entry's text are spelled out on the page, never
/// written as they are: the page stays a document any parser reads.
#[test]
fn the_page_holds_no_character_a_parser_rejects() {
    let dir = scratch("matrix-noncharacters");
    let odd = r"x \uFFFE \uFFFF \x01 \x0C \u0085 y";
    let yaml = format!(
        "implementations:\n  - name: \"ref {odd}\"\n    language: \"C {odd}\"\n    version: \"1\"\n    \
         source: {{ package: \"p {odd}\", repository: \"r\", path: \"q\" }}\n    \
         builtin: reference\n    note: \"n {odd}\"\n"
    );
    let (_, output) = matrix_of(&dir, &yaml);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let page = std::fs::read_to_string(dir.join("out/index.html")).unwrap();
    let allowed = |c: char| {
        matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{7e}' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fdcf}' | '\u{fdf0}'..='\u{fffd}')
            || (c >= '\u{10000}' && u32::from(c) & 0xfffe != 0xfffe)
    };
    let bad: Vec<char> = page.chars().filter(|&c| !allowed(c)).collect();
    assert_eq!(bad, Vec::<char>::new(), "{page}");
    assert!(
        page.contains(r"x \u{fffe} \u{ffff} \x01 \x0c \u{85} y"),
        "{page}"
    );
}
