//! The unit tests of `report::rerun`, through the crate's API.

use std::num::NonZeroUsize;
use std::time::Duration;
use wow_guid_harness::options::{Conditions, CorpusSource};
use wow_guid_harness::process::Mode;

use wow_guid_harness::options::Target;
use wow_guid_harness::report::rerun::*;

fn conditions() -> Conditions {
    let mut c = Conditions::new(Target::Command(vec![
        "python3".into(),
        "my adapter.py".into(),
    ]));
    c.corpus = CorpusSource::Dir("my vectors".into());
    c.judge.strict_errors = true;
    c.timeout = Duration::from_millis(1500);
    c
}

#[test]
fn repro_lines_carry_every_condition_of_the_verdict() {
    let c = conditions();
    let rerun = Rerun {
        program: "wow-guid-conformance",
        conditions: &c,
        corpus: None,
    };
    assert_eq!(
        rerun.repro("packed.decode.doc-example"),
        "wow-guid-conformance repro packed.decode.doc-example --vectors 'my vectors' \
         --strict-errors --timeout 1.500s -- python3 'my adapter.py'"
    );
    let mut c = conditions();
    c.mode = Mode::Persistent {
        window: NonZeroUsize::MIN,
    };
    c.startup_timeout = Duration::from_secs(60);
    c.corpus = CorpusSource::Embedded;
    let rerun = Rerun {
        program: "runner",
        conditions: &c,
        corpus: None,
    };
    assert_eq!(
        rerun.line(&["fuzz", "--seed", "7", "--count", "1200"], false),
        "runner fuzz --seed 7 --count 1200 --strict-errors --window 1 --timeout 1.500s \
         --startup-timeout 60s -- python3 'my adapter.py'"
    );
    c.mode = Mode::OneShot;
    assert!(Rerun {
        program: "runner",
        conditions: &c,
        corpus: None,
    }
    .repro("x")
    .contains(" --one-shot "));
}

#[test]
fn the_built_in_reference_needs_no_command() {
    let c = Conditions::new(Target::BuiltIn {
        serve: vec!["/somewhere/runner".into(), "serve".into()],
    });
    let rerun = Rerun {
        program: "wow-guid-conformance",
        conditions: &c,
        corpus: None,
    };
    assert_eq!(rerun.repro("x"), "wow-guid-conformance repro x");
}
