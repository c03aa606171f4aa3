//! PROTOCOL.md's table of what an adapter must do with each kind of request
//! says, in RFC 2119 words, what the corpus says with outcomes. The corpus
//! is the source of truth; this test holds the table to it, row by row, so
//! the two cannot drift apart again.

use std::collections::{BTreeMap, BTreeSet};

use wow_guid_vectors::{
    Corpus, Expectation, Flag, Op, Outcome, RequestKind, Vector, NAME_BOUND_FLOOR,
};

/// What a row covers: the vectors with a flag, or every vector of a kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Key {
    Flag(Flag),
    Kind(RequestKind),
}

impl Key {
    fn covers(self, v: &Vector) -> bool {
        match self {
            Key::Flag(flag) => v.flags.contains(&flag),
            Key::Kind(kind) => v.request.kind() == kind,
        }
    }
}

/// One row of the table.
#[derive(Debug)]
struct Row {
    key: Key,
    requirement: String,
    code: Option<String>,
    /// The code cell says "as `encode`": the code is whatever `encode`
    /// gives the same value, which the flags' rows name.
    code_as_encode: bool,
    outcomes: BTreeSet<Outcome>,
}

const HEADING: &str = "### What an adapter must do with each kind of request";

/// The words inside backticks in `cell`, in order.
fn quoted(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/PROTOCOL.md"))
        .expect("PROTOCOL.md reads");
    let section = &text[text
        .find(HEADING)
        .expect("PROTOCOL.md has the table's heading")..];
    let mut rows = Vec::new();
    for line in section.lines().skip(1) {
        if line.starts_with('#') {
            break;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        // `| a | b | c | d | e |` splits into seven cells, empty at both ends.
        if cells.len() != 7 || cells[1] == "flag" || cells[1].starts_with("---") {
            continue;
        }
        let word = quoted(cells[1])[0];
        let key = match word.parse() {
            Ok(flag) => Key::Flag(flag),
            Err(e) => Key::Kind(
                RequestKind::ALL
                    .into_iter()
                    .find(|kind| kind.to_string() == word)
                    .unwrap_or_else(|| panic!("row {line:?}: neither a request kind nor {e}")),
            ),
        };
        let outcomes = quoted(cells[5])
            .into_iter()
            .map(|w| w.parse().unwrap_or_else(|e| panic!("row {line:?}: {e}")))
            .collect();
        let code_as_encode = cells[4] == format!("as `{}`", Op::Encode);
        rows.push(Row {
            key,
            requirement: cells[3].to_owned(),
            code: quoted(cells[4])
                .first()
                .filter(|_| !code_as_encode)
                .map(|c| (*c).to_owned()),
            code_as_encode,
            outcomes,
        });
    }
    assert!(rows.len() >= 6, "the table has its rows: {rows:?}");
    rows
}

#[test]
fn each_requirement_word_names_its_corpus_outcome() {
    for row in rows() {
        let r = row.requirement.as_str();
        let expected: BTreeSet<Outcome> = if r == "MUST reject" {
            [Outcome::Invalid].into()
        } else if r.starts_with("MUST accept")
            || r.starts_with("MUST write")
            || r.starts_with("MUST answer the length")
        {
            [Outcome::Valid].into()
        } else if r.starts_with(&format!("MUST answer as `{}`", Op::Encode)) {
            // Whatever the encode of the value may answer.
            [Outcome::Valid, Outcome::Invalid, Outcome::Acceptable].into()
        } else if r.starts_with("MAY reject") {
            [Outcome::Acceptable].into()
        } else if r.starts_with("MUST answer") && r.contains("MAY reject") {
            // A value is owed, but a bound may refuse it: the value, or the
            // error the other faults of the input give.
            [Outcome::Valid, Outcome::Invalid].into()
        } else {
            panic!("a requirement this test does not know: {r:?}")
        };
        assert_eq!(row.outcomes, expected, "{row:?}");
        if row.outcomes.contains(&Outcome::Invalid) || row.requirement.contains("reject") {
            assert!(
                row.code.is_some() || row.code_as_encode,
                "a rejection names its code: {row:?}"
            );
        }
    }
}

#[test]
fn every_vector_follows_the_rows_of_its_flags() {
    let rows = rows();
    let corpus = Corpus::embedded().expect("the corpus loads");
    let mut seen: BTreeMap<(Key, Outcome), usize> = BTreeMap::new();
    let mut problems = Vec::new();
    for v in &corpus.vectors {
        let outcome = v.expect.outcome();
        // The codes the rows covering this vector name: an invalid
        // vector's code is one of them (two faults: the one that wins).
        let mut codes = BTreeSet::new();
        let mut by_key: BTreeMap<Key, Vec<&Row>> = BTreeMap::new();
        for row in rows.iter().filter(|r| r.key.covers(v)) {
            by_key.entry(row.key).or_default().push(row);
        }
        for (key, rows) in &by_key {
            codes.extend(rows.iter().filter_map(|r| r.code.clone()));
            if !rows.iter().any(|r| r.outcomes.contains(&outcome)) {
                problems.push(format!(
                    "{}: outcome `{outcome}`, but the rows of {key:?} allow {:?}",
                    v.id,
                    rows.iter().map(|r| &r.outcomes).collect::<Vec<_>>()
                ));
            }
            *seen.entry((*key, outcome)).or_default() += 1;
        }
        if let Expectation::Invalid(code) = &v.expect {
            if !codes.is_empty() && !codes.contains(code.as_str()) {
                problems.push(format!(
                    "{}: code `{code}`, but its flags' rows name {codes:?}",
                    v.id
                ));
            }
        }
        // The bound applies exactly to what the `long-name` row covers.
        if v.request.may_refuse_as_too_long() && !v.flags.contains(&Flag::LongName) {
            problems.push(format!(
                "{}: a name of {NAME_BOUND_FLOOR} bytes or more without the flag `long-name`",
                v.id
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    // And no row claims an outcome the corpus never shows.
    for row in &rows {
        for outcome in &row.outcomes {
            assert!(
                seen.contains_key(&(row.key, *outcome)),
                "the row of {:?} allows `{outcome}`, which no vector it covers has",
                row.key
            );
        }
    }
}

/// The numbers of the `long-name` row are the corpus's: the flag marks a
/// name of one byte under the floor or more, and the bound starts at the
/// floor.
#[test]
fn the_long_name_row_says_what_the_flag_and_the_floor_mean() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/PROTOCOL.md"))
        .expect("PROTOCOL.md reads");
    let row = text
        .lines()
        .find(|l| l.starts_with("| `long-name` |"))
        .expect("the table has a `long-name` row");
    let flagged = NAME_BOUND_FLOOR - 1;
    assert!(
        row.contains(&format!("a name of {flagged} bytes or more")),
        "{row}"
    );
    assert!(
        row.contains(&format!("from {NAME_BOUND_FLOOR} bytes on")),
        "{row}"
    );
    let corpus = Corpus::embedded().expect("the corpus loads");
    for v in &corpus.vectors {
        let long = v.request.name_len().is_some_and(|len| len >= flagged);
        assert_eq!(
            v.flags.contains(&Flag::LongName),
            long,
            "{}: the flag `long-name` marks exactly the names of {flagged} bytes or more",
            v.id
        );
    }
}

/// Every kind of request the table gives a row of its own is one whose
/// vectors all follow it, and the kinds of the `size` operation each have
/// one: an optional request is still held to what it must answer.
#[test]
fn every_size_kind_has_its_row() {
    let rows = rows();
    for kind in RequestKind::ALL
        .into_iter()
        .filter(|kind| kind.op() == Op::Size)
    {
        assert!(
            rows.iter().any(|row| row.key == Key::Kind(kind)),
            "PROTOCOL.md's table has no row for `{kind}`"
        );
    }
}
