//! The unit tests of `citation`, through the crate's API.

use wow_guid_vectors::citation::*;
use wow_guid_vectors::Vector;

#[test]
fn a_citation_splits_into_path_anchor_and_text() {
    assert_eq!(
        Citation::parse("NOTES.md#guid-0-is-one-byte: GUID 0 is 00: one byte"),
        Ok(Citation {
            path: "NOTES.md",
            anchor: Some("guid-0-is-one-byte"),
            text: "GUID 0 is 00: one byte",
        })
    );
    assert_eq!(
        Citation::parse("notes/packed.md: text"),
        Ok(Citation {
            path: "notes/packed.md",
            anchor: None,
            text: "text",
        })
    );
}

#[test]
fn sources_that_are_not_citations_say_why() {
    assert_eq!(
        Citation::parse("found by differential fuzzing, seed 1"),
        Err(NotACitation::NoColon)
    );
    assert_eq!(Citation::parse(": text"), Err(NotACitation::NoColon));
    assert!(matches!(
        Citation::parse("https://example.org/x: text"),
        Err(NotACitation::NoColon | NotACitation::BadPath(_))
    ));
    assert_eq!(
        Citation::parse("/etc/NOTES.md: text"),
        Err(NotACitation::LeavesRoot("/etc/NOTES.md".into()))
    );
    assert_eq!(
        Citation::parse("../NOTES.md: text"),
        Err(NotACitation::LeavesRoot("../NOTES.md".into()))
    );
    assert_eq!(
        Citation::parse("spec notes: text"),
        Err(NotACitation::BadPath("spec notes".into()))
    );
    assert_eq!(
        Citation::parse("NOTES.md#Truncated: text"),
        Err(NotACitation::BadAnchor("Truncated".into()))
    );
    assert_eq!(
        Citation::parse("NOTES.md#: text"),
        Err(NotACitation::BadAnchor(String::new()))
    );
}

#[test]
fn slugs_follow_the_renderers() {
    assert_eq!(
        slug("The spec's C snippet sign-extends"),
        "the-specs-c-snippet-sign-extends"
    );
    assert_eq!(
        slug("The GUID is a little-endian `u64`"),
        "the-guid-is-a-little-endian-u64"
    );
    assert_eq!(slug("  Names are strict UTF-8 "), "names-are-strict-utf-8");
    assert_eq!(slug("a_b (c)"), "a_b-c");
}

#[test]
fn anchors_skip_code_blocks_and_number_repeats() {
    let md = "# Title\n\n## Examples\n\n```sh\n# not a heading\n<a id=\"no\"></a>\n```\n\n### Examples\n#nospace\n####### seven\n<a id=\"packed.decode.x\"></a>\n## Last ##\n";
    assert_eq!(
        anchors(md),
        ["title", "examples", "examples-1", "packed.decode.x", "last"]
    );
}

#[test]
fn explicit_anchors_are_the_a_tags_outside_code() {
    let md = "<a id=\"one\"></a>\n\n## One\n\n```\n<a id=\"no\"></a>\n```\n## Two\n<a id=\"x.y\"></a> text\n";
    assert_eq!(explicit_anchors(md), ["one", "x.y"]);
}

#[test]
fn sections_pair_each_heading_with_its_explicit_anchor() {
    let md = "# Top\n\n<a id=\"old-name\"></a>\n<a id=\"alias\"></a>\n\n## New name\n\n```\n## not\n```\n### Bare `one`\n";
    assert_eq!(
        sections(md),
        [
            ("top".to_owned(), "Top".to_owned()),
            ("old-name".to_owned(), "New name".to_owned()),
            ("bare-one".to_owned(), "Bare `one`".to_owned()),
        ]
    );
}

fn vector(source: Option<&str>) -> Vector {
    let corpus = wow_guid_vectors::Corpus::embedded().expect("the checked-in corpus loads");
    let mut v = corpus.vectors[0].clone();
    v.source = source.map(Into::into);
    v
}

#[test]
fn check_reports_each_kind_of_broken_citation() {
    let dir = std::env::temp_dir().join(format!("citation-check-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("notes")).unwrap();
    std::fs::write(dir.join("notes/a.md"), "# A\n## Known heading\n").unwrap();
    std::fs::write(dir.join("plain.txt"), "text").unwrap();
    let cases = [
        (Some("notes/a.md#known-heading: ok"), None),
        (Some("plain.txt: ok"), None),
        (Some("notes/a.md: ok"), None),
        (None, None),
        (
            Some("just words"),
            Some(Problem::NotACitation(NotACitation::NoColon)),
        ),
        (
            Some("notes/b.md#x: text"),
            Some(Problem::NoSuchFile {
                path: "notes/b.md".into(),
            }),
        ),
        (
            Some("notes: text"),
            Some(Problem::NoSuchFile {
                path: "notes".into(),
            }),
        ),
        (
            Some("notes/a.md#unknown: text"),
            Some(Problem::NoSuchHeading {
                path: "notes/a.md".into(),
                anchor: "unknown".into(),
            }),
        ),
        (
            Some("plain.txt#a: text"),
            Some(Problem::AnchorOutsideMarkdown {
                path: "plain.txt".into(),
            }),
        ),
    ];
    for (source, expected) in cases {
        let vectors = [vector(source)];
        let found = check(&vectors, &dir);
        assert_eq!(
            found.first().map(|b| b.problem.clone()),
            expected,
            "source {source:?}"
        );
        if let Some(b) = found.first() {
            let message = b.to_string();
            assert!(message.contains(&vectors[0].id), "{message}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
