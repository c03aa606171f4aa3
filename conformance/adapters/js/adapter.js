#!/usr/bin/env node
// PackedGuid / NamedGuid conformance adapter in JavaScript (Node 20, no packages).
//
// The conformance runner starts this program and talks to it over pipes: one
// request line on stdin, one response line on stdout, in order. It also works
// when it gets a single line and then end of input (one-shot mode), so you
// can try it by hand:
//
//     echo "t1 decode packed_guid 0adead" | node adapter.js
//     t1 ok 00000000ad00de00 3
//
//   Requests                                   Responses
//     <id> decode packed_guid <bytes>            <id> ok <guid> <consumed>
//     <id> encode packed_guid <guid>             <id> ok <bytes>
//     <id> decode named_guid <bytes>             <id> ok <guid> <consumed> [<name>]
//     <id> encode named_guid <guid> [<name>]     <id> ok <bytes>
//     <id> size packed_guid <guid>               <id> ok <size>
//     <id> size named_guid <guid> [<name>]       <id> ok <size>
//                                                <id> error <code>
//                                                <id> unsupported
//
// Bytes are hex ("-" is the empty string), GUIDs exactly 16 hex digits, most
// significant first. Error codes: eof, invalid_utf8, interior_nul,
// name_without_guid, name_too_long, other.
//
// GUIDs are 64-bit, more than a JavaScript number holds exactly (2^53), so
// they are BigInts throughout.
//
// To test your own codec, copy this file and replace the functions under
// "The codec" with calls into your implementation; the protocol half stays.
// The two size functions (how many bytes the encoding takes) are optional:
// without them, leave them out of HANDLERS and the runner skips those
// vectors.
'use strict';

// ---------------------------------------------------------------------------
// The codec. Each function returns the response fields after the id.
// ---------------------------------------------------------------------------

function decodePackedGuid(data) {
  if (data.length === 0) return ['error', 'eof']; // not even the mask byte
  const mask = data[0];
  // The mask's *bits* say which GUID bytes follow, least significant first;
  // its numeric value is not a count.
  let consumed = 1;
  for (let i = 0; i < 8; i++) if (mask & (1 << i)) consumed++;
  if (data.length < consumed) return ['error', 'eof'];
  let guid = 0n;
  let cursor = 1;
  for (let i = 0; i < 8; i++) {
    if (mask & (1 << i)) {
      guid |= BigInt(data[cursor]) << BigInt(8 * i);
      cursor++;
    }
  }
  // Bytes after `consumed` belong to the next field of the message.
  return ['ok', formatGuid(guid), String(consumed)];
}

function encodePackedGuid(guid) {
  // The shortest form: a mask bit and a byte exactly for each non-zero byte.
  const out = [0];
  for (let i = 0; i < 8; i++) {
    const byte = Number((guid >> BigInt(8 * i)) & 0xffn);
    if (byte !== 0) {
      out[0] |= 1 << i;
      out.push(byte);
    }
  }
  return ['ok', formatBytes(Buffer.from(out))];
}

function decodeNamedGuid(data) {
  if (data.length < 8) return ['error', 'eof'];
  const guid = data.readBigUInt64LE(0);
  if (guid === 0n) return ['ok', formatGuid(0n), '8']; // GUID 0 has no name on the wire
  const nul = data.indexOf(0, 8);
  if (nul < 0) return ['error', 'eof']; // the name runs into the end of the input
  const name = data.subarray(8, nul);
  if (!isUtf8(name)) return ['error', 'invalid_utf8'];
  return ['ok', formatGuid(guid), String(nul + 1), formatBytes(name)];
}

// `name` is null when the request has none.
function encodeNamedGuid(guid, name) {
  // Checked in this order so that a request breaking several rules gets the
  // one code vectors/NOTES.md gives it ("Two faults in one input").
  if (name !== null && name.includes(0)) return ['error', 'interior_nul'];
  if (name !== null && !isUtf8(name)) return ['error', 'invalid_utf8'];
  if (guid === 0n && name !== null) return ['error', 'name_without_guid'];
  if (guid !== 0n && name === null) return ['error', 'other']; // a non-zero GUID always carries a name
  const out = Buffer.alloc(8);
  out.writeBigUInt64LE(guid);
  const parts = guid === 0n ? [out] : [out, name, Buffer.from([0])];
  return ['ok', formatBytes(Buffer.concat(parts))];
}

// Node's validator is strict: it rejects overlong forms, surrogates, code
// points above U+10FFFF and sequences cut short.
const { isUtf8 } = require('node:buffer');

function sizePackedGuid(guid) {
  // The mask byte and one byte for each non-zero GUID byte.
  let size = 1;
  for (let i = 0; i < 8; i++) if ((guid >> BigInt(8 * i)) & 0xffn) size++;
  return ['ok', String(size)];
}

function sizeNamedGuid(guid, name) {
  // A value encodeNamedGuid refuses has no size: the same refusal.
  const answer = encodeNamedGuid(guid, name);
  if (answer[0] === 'error') return answer;
  // The GUID, then the name in bytes (never characters) and its NUL.
  return ['ok', String(guid === 0n ? 8 : 8 + name.length + 1)];
}

// ---------------------------------------------------------------------------
// The protocol.
// ---------------------------------------------------------------------------

// A request line that cannot be understood; the message says why.
class BadRequest extends Error {}

function parseBytes(field) {
  if (field === '-') return Buffer.alloc(0);
  // Buffer.from(..., 'hex') silently stops at the first bad digit, so check first.
  if (!/^(?:[0-9a-fA-F]{2})+$/.test(field)) {
    throw new BadRequest(`expected hex bytes or '-', got ${JSON.stringify(field)}`);
  }
  return Buffer.from(field, 'hex');
}

function parseGuid(field) {
  if (!/^[0-9a-fA-F]{16}$/.test(field)) {
    throw new BadRequest(`expected a GUID of exactly 16 hex digits, got ${JSON.stringify(field)}`);
  }
  return BigInt('0x' + field);
}

function formatBytes(bytes) {
  return bytes.length === 0 ? '-' : bytes.toString('hex');
}

function formatGuid(guid) {
  return guid.toString(16).padStart(16, '0');
}

// [op type]: [handler, fewest arguments, most arguments]
const HANDLERS = {
  'decode packed_guid': [(a) => decodePackedGuid(parseBytes(a[0])), 1, 1],
  'encode packed_guid': [(a) => encodePackedGuid(parseGuid(a[0])), 1, 1],
  'decode named_guid': [(a) => decodeNamedGuid(parseBytes(a[0])), 1, 1],
  'encode named_guid': [
    (a) => encodeNamedGuid(parseGuid(a[0]), a.length > 1 ? parseBytes(a[1]) : null),
    1,
    2,
  ],
  'size packed_guid': [(a) => sizePackedGuid(parseGuid(a[0])), 1, 1],
  'size named_guid': [
    (a) => sizeNamedGuid(parseGuid(a[0]), a.length > 1 ? parseBytes(a[1]) : null),
    1,
    2,
  ],
};

// Turns one request line (no line ending) into one response line.
function respond(line) {
  const [id, op, type, ...args] = line.split(' ');
  let answer;
  try {
    if (type === undefined) throw new BadRequest("expected '<id> <op> <type> [args...]'");
    const handler = HANDLERS[`${op} ${type}`];
    if (handler === undefined) {
      // A request kind this adapter does not know (a newer protocol, say):
      // the runner counts it as skipped, not failed.
      answer = ['unsupported'];
    } else {
      const [handle, min, max] = handler;
      if (args.length < min || args.length > max) {
        throw new BadRequest(`${op} ${type} takes ${min === max ? min : `${min} or ${max}`} argument(s), got ${args.length}`);
      }
      answer = handle(args);
    }
  } catch (problem) {
    if (!(problem instanceof BadRequest)) throw problem; // a bug here: crash loudly
    // Say what was wrong on stderr (the runner keeps its tail for the
    // failure report), and still answer so the conversation stays in step.
    process.stderr.write(`adapter.js: bad request ${JSON.stringify(line)}: ${problem.message}\n`);
    answer = ['error', 'other'];
  }
  return [id, ...answer].join(' ') + '\n';
}

// Answers every complete line of `text`; returns the unfinished rest.
function answerLines(text, atEnd) {
  const lines = text.split('\n');
  // The last piece has no newline yet, unless the input has ended (one-shot
  // mode may send a final line without one).
  const rest = atEnd ? '' : lines.pop();
  let out = '';
  for (let line of lines) {
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line === '') {
      if (!atEnd) process.stderr.write('adapter.js: ignoring an empty line\n');
      continue;
    }
    out += respond(line);
  }
  // One write per chunk of input: output goes out as soon as no more input
  // is waiting, and writes to a pipe are synchronous on Linux, so nothing is
  // left in a buffer.
  if (out !== '') process.stdout.write(out, 'latin1');
  return rest;
}

// 'latin1' maps every byte to one character, so any input (even invalid
// UTF-8 in an id) is read without error and echoed back byte for byte.
process.stdin.setEncoding('latin1');
let pending = '';
process.stdin.on('data', (chunk) => {
  pending = answerLines(pending + chunk, false);
});
process.stdin.on('end', () => {
  answerLines(pending, true);
});
// The runner closed our stdout: nobody is left to answer.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});
