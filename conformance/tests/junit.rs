//! The JUnit report is valid for the dashboards that read it: every report
//! the runner writes validates against `tests/data/junit.xsd` (the format as
//! Jenkins, GitLab and the like read it), with passes, a crash (`<error>`)
//! and a stale expected failure (`<failure>`) in it, and class names are
//! dotted paths without `.yaml`.
//!
//! The validator is `xmllint` (Debian's `libxml2-utils`), which `.ci/run`
//! installs; where it is missing the test says so and passes, unless
//! `WOW_GUID_REQUIRE_XMLLINT` is set, as CI sets it.

mod common;

use std::path::Path;
use std::process::Command;

use common::{run_against, scratch};

const SCHEMA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/junit.xsd");

/// `xmllint --schema` on `file`: `Ok` if it validates, else xmllint's words;
/// `None` when xmllint is not installed (and not required).
fn validate(file: &Path) -> Option<Result<(), String>> {
    let output = match Command::new("xmllint")
        .args(["--noout", "--schema", SCHEMA])
        .arg(file)
        .output()
    {
        Ok(output) => output,
        Err(error) => {
            assert!(
                std::env::var_os("WOW_GUID_REQUIRE_XMLLINT").is_none(),
                "xmllint is required here but cannot be run: {error}"
            );
            eprintln!("xmllint not found ({error}); install libxml2-utils to run this check");
            return None;
        }
    };
    Some(if output.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&output.stderr).into_owned())
    })
}

#[test]
fn junit_reports_validate_against_the_dashboards_schema() {
    let dir = scratch("junit");
    let junit = dir.join("junit.xml");
    let list = dir.join("expected-failures.txt");
    // A vector that passes, listed as an expected failure: stale.
    std::fs::write(&list, "packed.decode.doc-example # listed on purpose\n").expect("write");
    let env = [("BROKEN_ON", common::BROKEN_ON)];
    let mut options = common::SMALL.to_vec();
    let (junit_arg, list_arg) = (junit.display().to_string(), list.display().to_string());
    options.extend(["--junit", &junit_arg, "--expect-fail", &list_arg]);
    let run = run_against("junit-run", &options, &common::broken("crash"), &env);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let xml = std::fs::read_to_string(&junit).expect("the JUnit report was written");
    assert!(xml.contains("<error "), "{xml}");
    assert!(xml.contains("<failure "), "{xml}");
    assert!(
        xml.contains(r#"classname="packed_guid.doc-example""#),
        "{xml}"
    );
    for class in xml.split(r#"classname=""#).skip(1) {
        let class = class.split('"').next().unwrap_or_default();
        assert!(!class.contains(".yaml") && !class.contains('/'), "{class}");
    }

    let Some(verdict) = validate(&junit) else {
        return;
    };
    verdict.unwrap_or_else(|why| panic!("the report does not validate:\n{why}\n{xml}"));

    // The schema has teeth: a test case without a name does not validate.
    let broken = dir.join("broken.xml");
    std::fs::write(
        &broken,
        xml.replacen(
            r#"<testcase name="packed.decode.doc-example" "#,
            "<testcase ",
            1,
        ),
    )
    .expect("write");
    assert!(
        matches!(validate(&broken), Some(Err(_))),
        "a nameless test case validated"
    );
}
