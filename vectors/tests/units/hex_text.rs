//! The unit tests of `hex_text`, through the crate's API.

use wow_guid_vectors::hex_text::*;

#[test]
fn formats_protocol_and_yaml_forms() {
    assert_eq!(format(&[]), "-");
    assert_eq!(format(&[0x0a, 0xde, 0xad]), "0adead");
    assert_eq!(format_spaced(&[]), "");
    assert_eq!(format_spaced(&[0x0a, 0xde, 0xad]), "0a de ad");
    assert_eq!(format_guid(0xad00de00), "00000000ad00de00");
}

#[test]
fn parses_any_spacing_between_bytes_and_either_case() {
    assert_eq!(parse("0a de ad"), Ok(vec![0x0a, 0xde, 0xad]));
    assert_eq!(parse("0ADEad"), Ok(vec![0x0a, 0xde, 0xad]));
    assert_eq!(parse(" 0a\n\tde  ad "), Ok(vec![0x0a, 0xde, 0xad]));
    assert_eq!(parse(""), Ok(vec![]));
    assert_eq!(parse("-"), Ok(vec![]));
    assert_eq!(parse("   "), Ok(vec![]));
}

#[test]
fn rejects_split_bytes_and_odd_digits_with_offsets() {
    assert_eq!(
        parse("0a d ead"),
        Err(HexError::OddDigits {
            offset: 3,
            digits: 1
        })
    );
    assert_eq!(
        parse("0a dea"),
        Err(HexError::OddDigits {
            offset: 5,
            digits: 3
        })
    );
    assert_eq!(
        parse("0a zz"),
        Err(HexError::InvalidChar { offset: 3, ch: 'z' })
    );
    assert_eq!(
        parse("0x0a"),
        Err(HexError::InvalidChar { offset: 1, ch: 'x' })
    );
    assert_eq!(
        parse("0é"),
        Err(HexError::InvalidChar {
            offset: 1, ch: 'é'
        })
    );
    assert_eq!(parse("-0a").unwrap_err().offset(), 0);
    // A bad character left over after the pairs of a group is named as
    // such, not as an odd length.
    assert_eq!(
        parse("0a dez"),
        Err(HexError::InvalidChar { offset: 5, ch: 'z' })
    );
    assert_eq!(
        parse("0a d\u{e9}"),
        Err(HexError::InvalidChar {
            offset: 4,
            ch: '\u{e9}'
        })
    );
    assert_eq!(
        parse("0a\u{3000}abc"),
        Err(HexError::OddDigits {
            offset: 7,
            digits: 3
        })
    );
}

#[test]
fn any_unicode_whitespace_separates_bytes() {
    assert_eq!(parse("0a\u{3000}de\u{a0}ad"), Ok(vec![0x0a, 0xde, 0xad]));
}

#[test]
fn guid_is_exactly_sixteen_digits() {
    assert_eq!(parse_guid("00000000AD00de00"), Ok(0xad00de00));
    assert_eq!(parse_guid("ffffffffffffffff"), Ok(u64::MAX));
    assert_eq!(
        parse_guid("ad00de00"),
        Err(GuidTextError::WrongLength { digits: 8 })
    );
    assert_eq!(
        parse_guid("0x00000000ad00de00"),
        Err(GuidTextError::InvalidChar { offset: 1, ch: 'x' })
    );
    assert_eq!(
        parse_guid("00000000 ad00de00"),
        Err(GuidTextError::InvalidChar { offset: 8, ch: ' ' })
    );
    assert_eq!(
        parse_guid("+0000000ad00de00"),
        Err(GuidTextError::InvalidChar { offset: 0, ch: '+' })
    );
    assert_eq!(
        parse_guid(""),
        Err(GuidTextError::WrongLength { digits: 0 })
    );
    // A bad character is named before a wrong length.
    assert_eq!(
        parse_guid("00000000000000\u{e9}0"),
        Err(GuidTextError::InvalidChar {
            offset: 14,
            ch: '\u{e9}'
        })
    );
    assert_eq!(
        parse_guid("abc-"),
        Err(GuidTextError::InvalidChar { offset: 3, ch: '-' })
    );
}
