#!/usr/bin/env bash
# Runs the corpus against the adapter for the action's run step: the
# action's run step is this script and nothing else, and .ci/run runs it
# for each example workflow (examples/github-actions/) in a fresh directory
# exactly so (.ci/example-workflows.py).
#
# Environment (the action sets each from its inputs; run in the
# working directory):
#   ADAPTER         the adapter's command line, as shell words
#   STRICT_ERRORS   true or false
#   EXPECT_FAIL     an expected-failure list, or empty
#   JUNIT           where to write the JUnit report (its directory is made)
#   REPORT_JSON     where to write the JSON report (its directory is made)
#   ARGS            more options for `run`, as shell words
#   GITHUB_OUTPUT   the file the step's outputs are appended to
set -euo pipefail

wow-guid-conformance --version
options=(--junit "$JUNIT" --report-json "$REPORT_JSON")
case "$STRICT_ERRORS" in
  true) options+=(--strict-errors) ;;
  false) ;;
  *) echo "::error::strict-errors must be true or false, not '$STRICT_ERRORS'"; exit 2 ;;
esac
if [ -n "$EXPECT_FAIL" ]; then options+=(--expect-fail "$EXPECT_FAIL"); fi
echo "junit=$JUNIT" >> "$GITHUB_OUTPUT"
echo "report-json=$REPORT_JSON" >> "$GITHUB_OUTPUT"
# The adapter and the extra options are shell words written by the
# workflow's author: split them as the shell would.
extra_words=()
adapter_words=()
eval "extra_words=(${ARGS:-})"
eval "adapter_words=(${ADAPTER:?ADAPTER must name the adapter command})"
wow-guid-conformance run "${options[@]}" "${extra_words[@]}" -- "${adapter_words[@]}"
