//! The oracle judges every vector's request as `run` judges the vector.

use wow_guid_harness::implementation::Answer;
use wow_guid_harness::judge::JudgeOptions;
use wow_guid_harness::run::judge_vector;
use wow_guid_testkit::codec::answer;
use wow_guid_testkit::oracle::judge;
use wow_guid_testkit::{Codec, Reference};
use wow_guid_vectors::{Corpus, Request};

use crate::codecs::{Bounded, TopByteLost};

fn agrees_with_run(codec: &impl Codec) {
    let corpus = Corpus::embedded().expect("the embedded corpus loads");
    for strict_errors in [false, true] {
        let options = JudgeOptions { strict_errors };
        for v in &corpus.vectors {
            let run = judge_vector(
                v,
                Answer::response(answer(codec, &v.request)),
                options,
                None,
            );
            assert_eq!(
                judge(codec, &v.request, options).is_pass(),
                run.verdict.is_pass(),
                "{}",
                v.id
            );
        }
    }
}

#[test]
fn judges_every_vector_as_run_does() {
    agrees_with_run(&Reference);
    agrees_with_run(&Bounded);
    agrees_with_run(&TopByteLost);
}

#[test]
fn accepts_the_empty_name_for_a_guid_given_none() {
    struct EmptyName;
    impl Codec for EmptyName {
        fn decode_packed(
            &self,
            b: &[u8],
        ) -> Result<wow_guid_testkit::Packed, wow_guid_vectors::ErrorCode> {
            Reference.decode_packed(b)
        }
        fn encode_packed(&self, g: u64) -> Result<Vec<u8>, wow_guid_vectors::ErrorCode> {
            Reference.encode_packed(g)
        }
        fn decode_named(
            &self,
            b: &[u8],
        ) -> Result<wow_guid_testkit::Named, wow_guid_vectors::ErrorCode> {
            Reference.decode_named(b)
        }
        fn encode_named(
            &self,
            g: u64,
            n: Option<&[u8]>,
        ) -> Result<Vec<u8>, wow_guid_vectors::ErrorCode> {
            Reference.encode_named(g, Some(n.unwrap_or_default()))
        }
    }
    let request = Request::EncodeNamed {
        guid: 8,
        name: None,
    };
    assert!(judge(&EmptyName, &request, JudgeOptions::default()).is_pass());
    wow_guid_testkit::oracle::assert_agrees(&EmptyName, &request);
}
