//! The JSON report is what `report.schema.json` and `REPORT.md` say: the
//! schema names exactly the fields written at every level and requires them
//! all, outcomes are the schema's, `implementation` is the command as a
//! shell line, and the stderr tail is on failed results only.

use crate::common;

use common::{keys, run_against, same_fields, scratch};
use serde_json::Value as Json;

#[test]
fn the_report_is_what_its_schema_says() {
    let schema: Json = serde_json::from_str(include_str!("../report.schema.json"))
        .expect("report.schema.json is JSON");
    let list = scratch("report-json").join("expected-failures.txt");
    std::fs::write(&list, "packed.decode.doc-example # listed on purpose\n").expect("write");
    let list = list.display().to_string();
    let mut options = common::SMALL.to_vec();
    options.extend(["--expect-fail", &list]);
    let adapter = common::broken("crash");
    let env = [
        ("BROKEN_ON", common::BROKEN_ON),
        ("CRASH_STDERR", "about to crash\n"),
    ];
    let run = run_against("report-json-run", &options, &adapter, &env);
    assert_eq!(run.code, Some(1), "{}", run.describe());
    let report = &run.report;

    same_fields(&schema, report, "the run");
    same_fields(&schema["properties"]["counts"], &report["counts"], "counts");
    let results = run.results();
    for result in results {
        same_fields(&schema["$defs"]["result"], result, "a result");
    }
    assert_eq!(
        report["format_version"],
        schema["properties"]["format_version"]["const"]
    );
    let outcomes = schema["$defs"]["result"]["properties"]["outcome"]["enum"]
        .as_array()
        .expect("an enum of outcomes");
    assert_eq!(
        outcomes.len(),
        keys(&report["counts"]).len() - 1,
        "one count per outcome"
    );
    for result in results {
        assert!(outcomes.contains(&result["outcome"]), "{result}");
    }

    // The command as a shell line: no Markdown.
    let line = report["implementation"].as_str().unwrap_or_default();
    assert!(!line.contains('`'), "{line}");
    assert!(
        line.starts_with(&adapter[0]) && line.ends_with(" serve"),
        "{line}"
    );

    // The stderr tail on the crash, on nothing that passed or was stale.
    assert!(
        run.result(common::BROKEN_ON)["stderr_tail"]
            .as_str()
            .is_some_and(|t| t.contains("about to crash")),
        "{}",
        run.result(common::BROKEN_ON)
    );
    assert_eq!(run.result("packed.decode.doc-example")["outcome"], "stale");
    for result in results {
        if ["pass", "stale", "skip"].contains(&result["outcome"].as_str().unwrap_or_default()) {
            assert!(result["stderr_tail"].is_null(), "{result}");
        }
    }

    // An implementation that chats on stderr and passes: no tail anywhere.
    let chatty = run_against(
        "report-json-chatty",
        common::SMALL,
        &common::broken("chatty"),
        &[],
    );
    assert_eq!(chatty.code, Some(0), "{}", chatty.describe());
    for result in chatty.results() {
        assert!(result["stderr_tail"].is_null(), "{result}");
    }
}
