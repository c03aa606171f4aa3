//! The unit tests of `implementation`, through the crate's API.

use wow_guid_harness::implementation::*;
use wow_guid_harness::protocol::{self};

#[test]
fn an_excerpt_keeps_a_bounded_head_and_the_whole_length() {
    let long = vec![b'x'; 3 * Excerpt::MAX];
    let excerpt = Excerpt::of(&long);
    assert_eq!(excerpt.head().len(), Excerpt::MAX);
    assert_eq!(excerpt.len(), long.len());
    assert!(excerpt.is_cut());
    assert_eq!(
        excerpt.printable(4),
        format!("xxxx… ({} bytes in all)", long.len())
    );

    let short = Excerpt::of(b"ab\x00");
    assert_eq!(
        (short.head(), short.len(), short.is_cut()),
        (&b"ab\x00"[..], 3, false)
    );
    assert_eq!(short.printable(120), "ab\\x00");
    assert!(Excerpt::default().is_empty());

    // A head longer than the length claimed still counts in full.
    assert_eq!(Excerpt::cut(b"abc", 1).len(), 3);
}

/// The evidence never holds on to the buffer it was cut from: a fault
/// from a megabyte line costs a few hundred bytes, whatever the
/// capacity of what it was read into.
#[test]
fn a_fault_from_a_megabyte_line_is_small() {
    let line = vec![b'y'; protocol::MAX_RESPONSE_LINE + 1];
    let fault = Fault::LineTooLong {
        limit: protocol::MAX_RESPONSE_LINE,
        prefix: Excerpt::cut(&line, line.len()),
    };
    drop(line);
    let Fault::LineTooLong { prefix, .. } = &fault else {
        unreachable!()
    };
    assert_eq!(prefix.head().len(), Excerpt::MAX);
    assert!(fault.to_string().contains(&format!(
        "it starts `{}… ({} bytes in all)`",
        "y".repeat(60),
        protocol::MAX_RESPONSE_LINE + 1
    )));
}
