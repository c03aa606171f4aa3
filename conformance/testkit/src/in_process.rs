//! A [`Codec`] as the harness's [`Implementation`], in this process, so
//! that `run` (and its judge, its grouping and its report) takes it as it
//! takes a program behind the protocol.
//!
//! A panic in the codec is caught and becomes a crash of the request that
//! caused it, with the panic's message where a program's stderr would be:
//! the run goes on with the next request, as it would after restarting a
//! crashed program.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;

use wow_guid_harness::implementation::{
    Answer, Excerpt, Fault, HarnessError, Implementation, Query,
};

use crate::codec::{answer, Codec};

/// `codec` behind [`Implementation`]: every query answered by
/// [`answer`], panics caught.
#[derive(Clone, Copy, Debug)]
pub struct InProcess<C>(pub C);

/// A panic's payload as text.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".to_owned())
}

impl<C: Codec> Implementation for InProcess<C> {
    fn answer_all(&mut self, queries: &[Query<'_>]) -> Result<Vec<Answer>, HarnessError> {
        Ok(queries
            .iter()
            .map(
                |q| match panic::catch_unwind(AssertUnwindSafe(|| answer(&self.0, q.request))) {
                    Ok(response) => Answer::response(response),
                    Err(payload) => {
                        let message = panic_text(&*payload);
                        Answer {
                            stderr_tail: Some(Arc::from(format!("panicked: {message}"))),
                            ..Answer::fault(Fault::Exited {
                                status: "the codec panicked".to_owned(),
                                partial: Excerpt::default(),
                            })
                        }
                    }
                },
            )
            .collect())
    }
}
