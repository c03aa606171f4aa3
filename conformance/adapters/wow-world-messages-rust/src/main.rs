//! Conformance adapter for the published crate `wow_world_messages` 0.3.0
//! (crates.io), Wrath (3.3.5) messages.
//!
//! The crate has no public PackedGuid or NamedGuid codec: its readers and
//! writers for both types are `pub(crate)`, reachable only through the
//! messages that carry them. So this adapter goes through messages and the
//! crate's public message API alone (`ServerOpcodeMessage::read_unencrypted`
//! and `ServerMessage::write_unencrypted_server`):
//!
//! | request | carrier message | where the value sits |
//! | --- | --- | --- |
//! | `decode packed_guid` | `SMSG_CALENDAR_EVENT_INVITE_ALERT` | `invite_sender`, the last field |
//! | `encode packed_guid` | `SMSG_BREAK_TARGET` | `guid`, the whole body |
//! | `decode named_guid` | `SMSG_MESSAGECHAT`, chat type `MONSTER_SAY` | `target1`, followed by `message` and `tag` |
//! | `encode named_guid` | `SMSG_MESSAGECHAT`, chat type `MONSTER_SAY` | `target1` |
//!
//! Decoding: the crate reads a message from a frame (a big-endian size, a
//! little-endian opcode, the body) and does not say how many bytes each
//! field took, nor complain about bytes left over at the end of a body. The
//! adapter finds the value's length the way any caller could: it embeds the
//! first `k` bytes of the request in a message body, followed by the
//! carrier's remaining fields (`tail`), for `k = 0, 1, 2, ...`. The crate
//! reads a body front to back, so the first `k` at which the message reads
//! back with the `tail` fields intact is exactly the number of bytes the
//! crate's reader took, and the value it read is the one it reads from the
//! whole request. When no `k` works, the answer is the crate's error for the
//! whole request followed by nothing: the value's own reader fails there,
//! because it would have succeeded at some `k` otherwise.
//!
//! The carriers were chosen so that the crate's own reader of the type
//! decides every answer: the bytes before the value (a padded string)
//! always lift the body above the message's minimum size, so the message's
//! size check never fires first, and for `decode packed_guid` the value is
//! the body's last field, so nothing needs to follow it.
//!
//! See README.md beside this file for every vector this crate fails and
//! where in its source that happens.

use std::error::Error as _;
use std::fmt;
use std::io::{self, BufRead, BufReader, Write};
use std::num::NonZeroU64;

use wow_world_messages::errors::ExpectedOpcodeError;
use wow_world_messages::wrath::opcodes::ServerOpcodeMessage;
use wow_world_messages::wrath::{
    Language, NamedGuid, PlayerChatTag, SMSG_MESSAGECHAT_ChatType, ServerMessage,
    SMSG_BREAK_TARGET, SMSG_CALENDAR_EVENT_INVITE_ALERT, SMSG_MESSAGECHAT,
};
use wow_world_messages::{DateTime, Guid, Month, Weekday};

// ---------------------------------------------------------------------------
// The package, through its messages.
// ---------------------------------------------------------------------------

/// A string in the fields before the value: long enough that the body is
/// never below the carrier's minimum size, whatever the value's length.
const PADDING: &str = "wow-guid-conformance";

/// The chat message after a NamedGuid: a text no shifted reading reproduces.
const SENTINEL: &str = "~sentinel~";

/// One request's answer, before it is written as a protocol line.
enum Answer {
    Packed {
        guid: u64,
        consumed: usize,
    },
    Named {
        guid: u64,
        consumed: usize,
        name: Option<Vec<u8>>,
    },
    Encoded(Vec<u8>),
    Error(&'static str),
}

/// The frame the crate reads a server message from (Wrath, unencrypted): a
/// big-endian u16 size counting the opcode and the body, then the u16
/// opcode, little-endian, then the body.
fn frame(opcode: u16, body: &[u8]) -> Vec<u8> {
    let size = u16::try_from(body.len() + 2).expect("bodies here are far below 32 KiB");
    let mut frame = Vec::with_capacity(body.len() + 4);
    frame.extend_from_slice(&size.to_be_bytes());
    frame.extend_from_slice(&opcode.to_le_bytes());
    frame.extend_from_slice(body);
    frame
}

/// A message as the crate writes it: its opcode and its body (the frame
/// without its four-byte header).
fn write(message: &impl ServerMessage) -> (u16, Vec<u8>) {
    let mut frame = Vec::new();
    message
        .write_unencrypted_server(&mut frame)
        .expect("writing into a Vec cannot fail");
    // Bodies here are small, so the header is the four-byte form (the
    // five-byte one has the top bit of the first byte set).
    assert!(
        frame.len() >= 4 && frame[0] & 0x80 == 0,
        "unexpected frame header"
    );
    let opcode = u16::from_le_bytes([frame[2], frame[3]]);
    (opcode, frame.split_off(4))
}

/// Maps a read error onto the protocol's codes through the public error
/// chain (`ParseError`'s kind is private, its `source()` is not): an
/// unexpected end of the body is `eof`, a name that is not UTF-8 is
/// `invalid_utf8`, anything else `other`.
fn error_code(error: &ExpectedOpcodeError) -> &'static str {
    let source = match error {
        ExpectedOpcodeError::Parse(parse) => parse.source(),
        ExpectedOpcodeError::Io(io) => Some(io as &(dyn std::error::Error + 'static)),
        ExpectedOpcodeError::Opcode { .. } => None,
    };
    match source {
        Some(e)
            if e.downcast_ref::<io::Error>().map(io::Error::kind)
                == Some(io::ErrorKind::UnexpectedEof) =>
        {
            "eof"
        }
        Some(e) if e.downcast_ref::<std::string::FromUtf8Error>().is_some() => "invalid_utf8",
        _ => "other",
    }
}

/// Reads one server message from `frame`.
fn read(frame: &[u8]) -> Result<ServerOpcodeMessage, ExpectedOpcodeError> {
    ServerOpcodeMessage::read_unencrypted(frame)
}

/// `SMSG_CALENDAR_EVENT_INVITE_ALERT` with `invite_sender` (a PackedGuid,
/// the last field) taken from the request.
struct PackedCarrier {
    opcode: u16,
    /// The body up to `invite_sender`, as the crate writes it.
    head: Vec<u8>,
}

impl PackedCarrier {
    fn new() -> Self {
        let message = SMSG_CALENDAR_EVENT_INVITE_ALERT {
            title: PADDING.to_owned(),
            // The default date (all zero) reads back as 2000-01-01 on a
            // Sunday, which the crate rejects: it was a Saturday.
            event_time: DateTime::new(0, Month::January, 0, Weekday::Saturday, 0, 0),
            invite_sender: Guid::zero(),
            ..Default::default()
        };
        let (opcode, mut head) = write(&message);
        // GUID 0 is written as the single mask byte 00.
        assert_eq!(head.pop(), Some(0), "invite_sender is the last field");
        Self { opcode, head }
    }

    fn decode(&self, input: &[u8]) -> Answer {
        let mut last_error = None;
        for k in 0..=input.len() {
            let mut body = self.head.clone();
            body.extend_from_slice(&input[..k]);
            match read(&frame(self.opcode, &body)) {
                Ok(ServerOpcodeMessage::SMSG_CALENDAR_EVENT_INVITE_ALERT(message)) => {
                    return Answer::Packed {
                        guid: message.invite_sender.guid(),
                        consumed: k,
                    }
                }
                Ok(other) => panic!("read a different message: {other:?}"),
                Err(error) => last_error = Some(error),
            }
        }
        let error = last_error.expect("k = input.len() was tried");
        eprintln!("wow_world_messages: {error}");
        Answer::Error(error_code(&error))
    }
}

fn encode_packed(guid: u64) -> Answer {
    Answer::Encoded(
        write(&SMSG_BREAK_TARGET {
            guid: Guid::new(guid),
        })
        .1,
    )
}

/// `SMSG_MESSAGECHAT` (chat type `MONSTER_SAY`) with `target1` (a
/// NamedGuid) taken from the request; `message` and `tag` follow it.
struct NamedCarrier {
    opcode: u16,
    /// The body up to `target1`.
    head: Vec<u8>,
    /// The body after `target1`: `message` (the sentinel) and `tag`.
    tail: Vec<u8>,
}

impl NamedCarrier {
    fn message(target1: NamedGuid) -> SMSG_MESSAGECHAT {
        SMSG_MESSAGECHAT {
            chat_type: SMSG_MESSAGECHAT_ChatType::MonsterSay {
                sender1: PADDING.to_owned(),
                target1,
            },
            language: Language::Universal,
            sender: Guid::new(0x0102_0304_0506_0708),
            flags: 0,
            message: SENTINEL.to_owned(),
            tag: PlayerChatTag::None,
        }
    }

    fn new() -> Self {
        let (opcode, body) = write(&Self::message(NamedGuid::zero()));
        // chat_type u8, language u32, sender u64, flags u32, then sender1
        // (a u32 length counting the NUL, the text, the NUL); target1 (GUID
        // 0 is eight 00 bytes) follows.
        let head_len = 1 + 4 + 8 + 4 + 4 + PADDING.len() + 1;
        assert_eq!(
            &body[head_len..head_len + 8],
            &[0; 8],
            "target1 follows sender1"
        );
        Self {
            opcode,
            head: body[..head_len].to_vec(),
            tail: body[head_len + 8..].to_vec(),
        }
    }

    /// The value in `message` if the fields after it read back intact.
    fn target(message: &SMSG_MESSAGECHAT) -> Option<&NamedGuid> {
        match &message.chat_type {
            SMSG_MESSAGECHAT_ChatType::MonsterSay { sender1, target1 }
                if sender1 == PADDING
                    && message.message == SENTINEL
                    && message.tag == PlayerChatTag::None =>
            {
                Some(target1)
            }
            _ => None,
        }
    }

    fn decode(&self, input: &[u8]) -> Answer {
        for k in 0..=input.len() {
            let mut body = self.head.clone();
            body.extend_from_slice(&input[..k]);
            body.extend_from_slice(&self.tail);
            if let Ok(ServerOpcodeMessage::SMSG_MESSAGECHAT(message)) =
                read(&frame(self.opcode, &body))
            {
                if let Some(target) = Self::target(&message) {
                    return Answer::Named {
                        guid: target.guid(),
                        consumed: k,
                        name: target.name().map(|name| name.as_bytes().to_vec()),
                    };
                }
            }
        }
        // No prefix of the input holds a value the crate reads: ask it to
        // read the whole input with nothing after it, so that its NamedGuid
        // reader meets the end of the body (or the bad name) itself.
        let mut body = self.head.clone();
        body.extend_from_slice(input);
        match read(&frame(self.opcode, &body)) {
            Ok(message) => panic!("read a message without its last fields: {message:?}"),
            Err(error) => {
                eprintln!("wow_world_messages: {error}");
                Answer::Error(error_code(&error))
            }
        }
    }

    fn encode(&self, guid: u64, name: Option<Vec<u8>>) -> Answer {
        // The crate's constructors: `NamedGuid::zero()`, and
        // `NamedGuid::new(NonZeroU64, String)`. A name is a `String`, so it
        // is UTF-8 by type; a name for GUID 0, or a non-zero GUID without
        // one, cannot be expressed at all. Each of those requests is
        // answered with the error the type forbids, in the order a caller
        // meets them: the name's conversion first, then the GUID.
        let value = match name {
            None if guid == 0 => NamedGuid::zero(),
            None => return Answer::Error("other"),
            Some(name) => {
                let Ok(name) = String::from_utf8(name) else {
                    return Answer::Error("invalid_utf8");
                };
                let Some(guid) = NonZeroU64::new(guid) else {
                    return Answer::Error("name_without_guid");
                };
                NamedGuid::new(guid, name)
            }
        };
        let (_, body) = write(&Self::message(value));
        if !body.starts_with(&self.head) || !body.ends_with(&self.tail) {
            panic!("the fields around target1 changed: {body:02x?}");
        }
        Answer::Encoded(body[self.head.len()..body.len() - self.tail.len()].to_vec())
    }
}

/// The two carriers, built once.
struct Package {
    packed: PackedCarrier,
    named: NamedCarrier,
}

// ---------------------------------------------------------------------------
// The protocol (as in ../rust/main.rs).
// ---------------------------------------------------------------------------

/// Why a request line could not be understood.
#[derive(Debug)]
enum BadRequest {
    TooFewFields,
    ArgumentCount {
        kind: &'static str,
        expected: &'static str,
        got: usize,
    },
    BadHex(String),
    BadGuid(String),
}

impl fmt::Display for BadRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooFewFields => f.write_str("expected '<id> <op> <type> [args...]'"),
            Self::ArgumentCount {
                kind,
                expected,
                got,
            } => write!(f, "{kind} takes {expected} argument(s), got {got}"),
            Self::BadHex(field) => write!(f, "expected hex bytes or '-', got {field:?}"),
            Self::BadGuid(field) => {
                write!(f, "expected a GUID of exactly 16 hex digits, got {field:?}")
            }
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Packed { guid, consumed } => write!(f, "ok {guid:016x} {consumed}"),
            Self::Named {
                guid,
                consumed,
                name,
            } => {
                write!(f, "ok {guid:016x} {consumed}")?;
                match name {
                    Some(name) => write!(f, " {}", format_bytes(name)),
                    None => Ok(()),
                }
            }
            Self::Encoded(bytes) => write!(f, "ok {}", format_bytes(bytes)),
            Self::Error(code) => write!(f, "error {code}"),
        }
    }
}

fn answer(package: &Package, op: &[u8], kind: &[u8], args: &[&[u8]]) -> Result<String, BadRequest> {
    let answer = match (op, kind) {
        (b"decode", b"packed_guid") => {
            let [bytes] = exact_args("decode packed_guid", args)?;
            package.packed.decode(&parse_bytes(bytes)?)
        }
        (b"encode", b"packed_guid") => {
            let [guid] = exact_args("encode packed_guid", args)?;
            encode_packed(parse_guid(guid)?)
        }
        (b"decode", b"named_guid") => {
            let [bytes] = exact_args("decode named_guid", args)?;
            package.named.decode(&parse_bytes(bytes)?)
        }
        (b"encode", b"named_guid") => {
            let (guid, name) = match args {
                [guid] => (parse_guid(guid)?, None),
                [guid, name] => (parse_guid(guid)?, Some(parse_bytes(name)?)),
                _ => {
                    return Err(BadRequest::ArgumentCount {
                        kind: "encode named_guid",
                        expected: "1 or 2",
                        got: args.len(),
                    })
                }
            };
            package.named.encode(guid, name)
        }
        _ => return Ok("unsupported".to_owned()),
    };
    Ok(answer.to_string())
}

fn exact_args<'a>(kind: &'static str, args: &[&'a [u8]]) -> Result<[&'a [u8]; 1], BadRequest> {
    match args {
        [one] => Ok([one]),
        _ => Err(BadRequest::ArgumentCount {
            kind,
            expected: "1",
            got: args.len(),
        }),
    }
}

fn parse_bytes(field: &[u8]) -> Result<Vec<u8>, BadRequest> {
    let bad = || BadRequest::BadHex(String::from_utf8_lossy(field).into_owned());
    match field {
        b"-" => Ok(Vec::new()),
        // hex would read nothing as no bytes; the protocol spells that `-`.
        b"" => Err(bad()),
        _ => hex::decode(field).map_err(|_| bad()),
    }
}

fn parse_guid(field: &[u8]) -> Result<u64, BadRequest> {
    let mut be = [0u8; 8];
    hex::decode_to_slice(field, &mut be)
        .map_err(|_| BadRequest::BadGuid(String::from_utf8_lossy(field).into_owned()))?;
    Ok(u64::from_be_bytes(be))
}

fn format_bytes(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "-".to_owned();
    }
    hex::encode(bytes)
}

fn respond(package: &Package, line: &[u8], out: &mut impl Write) -> io::Result<()> {
    let fields: Vec<&[u8]> = line.split(|&b| b == b' ').collect();
    let result = match fields.as_slice() {
        [_id, op, kind, args @ ..] => answer(package, op, kind, args),
        _ => Err(BadRequest::TooFewFields),
    };
    let response = result.unwrap_or_else(|problem| {
        eprintln!(
            "adapter: bad request {:?}: {problem}",
            String::from_utf8_lossy(line)
        );
        "error other".to_owned()
    });
    out.write_all(fields[0])?;
    writeln!(out, " {response}")
}

fn run() -> io::Result<()> {
    let package = Package {
        packed: PackedCarrier::new(),
        named: NamedCarrier::new(),
    };
    let mut input = BufReader::new(io::stdin().lock());
    let mut output = io::BufWriter::new(io::stdout().lock());
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line)? == 0 {
            return output.flush();
        }
        while let Some(b'\n' | b'\r') = line.last() {
            line.pop();
        }
        if line.is_empty() {
            eprintln!("adapter: ignoring an empty line");
        } else {
            respond(&package, &line, &mut output)?;
        }
        // Flush whenever no complete line is already waiting (PROTOCOL.md §7).
        if !input.buffer().contains(&b'\n') {
            output.flush()?;
        }
    }
}

fn main() {
    match run() {
        Ok(()) => {}
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => {}
        Err(error) => {
            eprintln!("adapter: {error}");
            std::process::exit(1);
        }
    }
}
