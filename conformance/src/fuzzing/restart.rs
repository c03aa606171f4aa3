//! Keeping an implementation in play after the runner has given up on it.
//!
//! [`ProcessImplementation`](crate::process::ProcessImplementation) stops
//! starting a program that keeps failing before it answers anything, and
//! answers the rest of the batch with [`Fault::GaveUp`]. For `run` that is
//! the right call. The fuzzer, though, sends crashing inputs on purpose: the
//! probe's first request may crash an implementation that answers every
//! other request, and shrinking a crash sends little else. So the fuzzer
//! takes a fresh implementation and sends the given-up requests again. This
//! always makes progress, since a fresh implementation really sends at least
//! the first of them before it can give up; whether an implementation that
//! never answers is worth going on with is the caller's decision.

use crate::implementation::{Answer, Fault, HarnessError, Implementation, Query};

fn gave_up(answer: &Answer) -> bool {
    matches!(answer.reply, Err(Fault::GaveUp { .. }))
}

/// Answers `queries` with `current`, replacing it with a fresh one from
/// `launch` whenever it gives up, until every query has a real answer.
///
/// # Errors
/// [`HarnessError`] when an implementation cannot be run at all.
pub fn answer_restarting<I: Implementation>(
    current: &mut I,
    launch: &mut dyn FnMut() -> I,
    queries: &[Query<'_>],
) -> Result<Vec<Answer>, HarnessError> {
    let mut answers = current.answer_all(queries)?;
    while let Some(first) = answers.iter().position(gave_up) {
        *current = launch();
        let rest = current.answer_all(&queries[first..])?;
        if rest.first().is_none_or(gave_up) {
            // A fresh implementation that gives up before sending anything
            // would make this loop endless; it cannot happen with the
            // process implementation, but the trait does not promise it.
            answers.truncate(first);
            answers.extend(rest);
            break;
        }
        answers.truncate(first);
        answers.extend(rest);
    }
    Ok(answers)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::implementation::mock::Scripted;
    use crate::protocol::Response;
    use wow_guid_vectors::{ErrorCode, Request};

    #[test]
    fn given_up_queries_go_to_a_fresh_implementation() {
        let request = Request::DecodePacked { bytes: vec![] };
        let ids = ["a", "b", "c", "d"];
        let queries: Vec<Query<'_>> = ids
            .iter()
            .map(|id| Query {
                id,
                request: &request,
            })
            .collect();
        // Each implementation answers one query, then gives up.
        let mut launch = || {
            let mut answered = false;
            Scripted::new(move |_: &Query<'_>| {
                if answered {
                    Err(Fault::GaveUp { starts: 2 })
                } else {
                    answered = true;
                    Ok(Response::Error(ErrorCode::Eof))
                }
            })
        };
        let mut current = launch();
        let answers = answer_restarting(&mut current, &mut launch, &queries).unwrap();
        assert_eq!(answers.len(), 4);
        assert!(answers
            .iter()
            .all(|a| a.reply == Ok(Response::Error(ErrorCode::Eof))));
        assert_eq!(current.asked, ["d"]);
    }
}
