/*
 * PackedGuid / NamedGuid conformance adapter in C99 (ISO C only, no POSIX).
 *
 * Build and try it by hand:
 *
 *     gcc -std=c99 -Wall -Wextra -pedantic -O2 -o adapter adapter.c
 *     echo "t1 decode packed_guid 0adead" | ./adapter
 *     t1 ok 00000000ad00de00 3
 *
 * The conformance runner starts this program and talks to it over pipes: one
 * request line on stdin, one response line on stdout, in order. It also works
 * when it gets a single line and then end of input (one-shot mode).
 *
 *   Requests                                   Responses
 *     <id> decode packed_guid <bytes>            <id> ok <guid> <consumed>
 *     <id> encode packed_guid <guid>             <id> ok <bytes>
 *     <id> decode named_guid <bytes>             <id> ok <guid> <consumed> [<name>]
 *     <id> encode named_guid <guid> [<name>]     <id> ok <bytes>
 *     <id> size packed_guid <guid>               <id> ok <size>
 *     <id> size named_guid <guid> [<name>]       <id> ok <size>
 *                                                <id> error <code>
 *                                                <id> unsupported
 *
 * Bytes are hex ("-" is the empty string), GUIDs exactly 16 hex digits, most
 * significant first. Error codes: eof, invalid_utf8, interior_nul,
 * name_without_guid, name_too_long, other.
 *
 * To test your own codec, copy this file and replace the functions under
 * "The codec" with calls into your implementation; the protocol half stays.
 * The two size functions (how many bytes the encoding takes) are optional:
 * without them, answer "unsupported" to `size` and the runner skips those
 * vectors.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The line buffer grows as needed up to this size, never without bound; a
 * longer line is answered with "error other" and the rest of it skipped. Real
 * requests are far shorter: a name is rarely more than a few hundred bytes. */
#ifndef MAX_LINE /* -DMAX_LINE=... to try the limit with small lines */
#define MAX_LINE (64u * 1024u * 1024u)
#endif

/* ------------------------------------------------------------------------ */
/* The codec. Each function prints the response after the id and a space.    */
/* ------------------------------------------------------------------------ */

static void print_bytes(const uint8_t *bytes, size_t len)
{
    size_t i;
    if (len == 0) {
        fputs("-", stdout);
        return;
    }
    for (i = 0; i < len; i++) {
        printf("%02x", (unsigned)bytes[i]);
    }
}

static void print_guid(uint64_t guid)
{
    /* printf's 64-bit conversions are not portable across C99 libraries
     * without <inttypes.h> macros; two 32-bit halves always work. */
    printf("%08lx%08lx", (unsigned long)(guid >> 32), (unsigned long)(guid & 0xffffffffu));
}

/* Strict UTF-8 (RFC 3629): no overlong forms, no surrogates (U+D800..DFFF),
 * nothing above U+10FFFF, no sequence cut short by the end of the data. */
static int is_utf8(const uint8_t *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        uint8_t b = s[i];
        size_t extra;
        uint8_t lo = 0x80, hi = 0xbf; /* allowed range of the first continuation byte */
        size_t k;
        if (b < 0x80) {
            i++;
            continue;
        } else if (b >= 0xc2 && b <= 0xdf) {
            extra = 1; /* C0 and C1 could only start overlong forms */
        } else if (b == 0xe0) {
            extra = 2;
            lo = 0xa0; /* below A0: overlong */
        } else if (b == 0xed) {
            extra = 2;
            hi = 0x9f; /* above 9F: a surrogate */
        } else if (b >= 0xe1 && b <= 0xef) {
            extra = 2;
        } else if (b == 0xf0) {
            extra = 3;
            lo = 0x90; /* below 90: overlong */
        } else if (b >= 0xf1 && b <= 0xf3) {
            extra = 3;
        } else if (b == 0xf4) {
            extra = 3;
            hi = 0x8f; /* above 8F: beyond U+10FFFF */
        } else {
            return 0; /* 80..C1 cannot start a sequence; F5..FF never appear */
        }
        if (len - i <= extra) {
            return 0; /* cut short */
        }
        if (s[i + 1] < lo || s[i + 1] > hi) {
            return 0;
        }
        for (k = 2; k <= extra; k++) {
            if (s[i + k] < 0x80 || s[i + k] > 0xbf) {
                return 0;
            }
        }
        i += extra + 1;
    }
    return 1;
}

static void decode_packed_guid(const uint8_t *data, size_t len)
{
    uint8_t mask;
    size_t consumed = 1, cursor = 1;
    uint64_t guid = 0;
    unsigned i;
    if (len == 0) {
        fputs("error eof", stdout); /* not even the mask byte */
        return;
    }
    mask = data[0];
    /* The mask's *bits* say which GUID bytes follow, least significant
     * first; its numeric value is not a count. */
    for (i = 0; i < 8; i++) {
        if (mask & (1u << i)) {
            consumed++;
        }
    }
    if (len < consumed) {
        fputs("error eof", stdout);
        return;
    }
    for (i = 0; i < 8; i++) {
        if (mask & (1u << i)) {
            /* Widen before shifting: a plain `data[cursor] << (8 * i)` is an
             * int shift, which sign-extends at i = 3 and is undefined from
             * i = 4 on (the bug in the spec's own snippet). */
            guid |= (uint64_t)data[cursor] << (8 * i);
            cursor++;
        }
    }
    /* Bytes after `consumed` belong to the next field of the message. */
    fputs("ok ", stdout);
    print_guid(guid);
    printf(" %lu", (unsigned long)consumed);
}

static void encode_packed_guid(uint64_t guid)
{
    /* The shortest form: a mask bit and a byte exactly for each non-zero byte. */
    uint8_t out[9];
    size_t len = 1;
    unsigned i;
    out[0] = 0;
    for (i = 0; i < 8; i++) {
        uint8_t byte = (uint8_t)(guid >> (8 * i));
        if (byte != 0) {
            out[0] |= (uint8_t)(1u << i);
            out[len++] = byte;
        }
    }
    fputs("ok ", stdout);
    print_bytes(out, len);
}

static void decode_named_guid(const uint8_t *data, size_t len)
{
    uint64_t guid = 0;
    const uint8_t *nul;
    size_t name_len;
    int i;
    if (len < 8) {
        fputs("error eof", stdout);
        return;
    }
    for (i = 7; i >= 0; i--) {
        guid = guid << 8 | data[i]; /* little-endian */
    }
    if (guid == 0) {
        fputs("ok 0000000000000000 8", stdout); /* GUID 0 has no name on the wire */
        return;
    }
    nul = memchr(data + 8, 0, len - 8);
    if (nul == NULL) {
        fputs("error eof", stdout); /* the name runs into the end of the input */
        return;
    }
    name_len = (size_t)(nul - (data + 8));
    if (!is_utf8(data + 8, name_len)) {
        fputs("error invalid_utf8", stdout);
        return;
    }
    fputs("ok ", stdout);
    print_guid(guid);
    printf(" %lu ", (unsigned long)(8 + name_len + 1));
    print_bytes(data + 8, name_len);
}

/* `name` is NULL when the request has no name. */
static void encode_named_guid(uint64_t guid, const uint8_t *name, size_t name_len)
{
    uint8_t le[8];
    int i;
    /* Checked in this order so that a request breaking several rules gets the
     * one code vectors/NOTES.md gives it ("Two faults in one input"). */
    if (name != NULL && memchr(name, 0, name_len) != NULL) {
        fputs("error interior_nul", stdout);
        return;
    }
    if (name != NULL && !is_utf8(name, name_len)) {
        fputs("error invalid_utf8", stdout);
        return;
    }
    if (guid == 0 && name != NULL) {
        fputs("error name_without_guid", stdout);
        return;
    }
    if (guid != 0 && name == NULL) {
        fputs("error other", stdout); /* a non-zero GUID always carries a name */
        return;
    }
    for (i = 0; i < 8; i++) {
        le[i] = (uint8_t)(guid >> (8 * i));
    }
    fputs("ok ", stdout);
    print_bytes(le, 8);
    if (name != NULL) {
        /* The name and its NUL, continuing the same hex string ("-" is only
         * for an empty whole, and the 8 GUID bytes are never empty). */
        size_t k;
        for (k = 0; k < name_len; k++) {
            printf("%02x", (unsigned)name[k]);
        }
        fputs("00", stdout);
    }
}

static void size_packed_guid(uint64_t guid)
{
    /* The mask byte and one byte for each non-zero GUID byte. */
    unsigned long size = 1;
    unsigned i;
    for (i = 0; i < 8; i++) {
        if ((uint8_t)(guid >> (8 * i)) != 0) {
            size++;
        }
    }
    printf("ok %lu", size);
}

/* What encode_named_guid writes, counted without writing it; a value it
 * refuses is refused with the same code. `name` is NULL when the request has
 * no name. */
static void size_named_guid(uint64_t guid, const uint8_t *name, size_t name_len)
{
    const char *refusal =
        name != NULL && memchr(name, 0, name_len) != NULL ? "interior_nul"
        : name != NULL && !is_utf8(name, name_len)         ? "invalid_utf8"
        : guid == 0 && name != NULL                        ? "name_without_guid"
        : guid != 0 && name == NULL                        ? "other"
                                                           : NULL;
    if (refusal != NULL) {
        printf("error %s", refusal);
        return;
    }
    /* The GUID, then the name in bytes (never characters) and its NUL. */
    printf("ok %lu", (unsigned long)(guid == 0 ? 8 : 8 + name_len + 1));
}

/* ------------------------------------------------------------------------ */
/* The protocol.                                                             */
/* ------------------------------------------------------------------------ */

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes hex (or "-") in place: the bytes are never longer than their text.
 * Returns 0 and sets *len, or -1 for a malformed field. */
static int parse_bytes(char *field, size_t *len)
{
    size_t n = strlen(field), i;
    if (strcmp(field, "-") == 0) {
        *len = 0;
        return 0;
    }
    if (n == 0 || n % 2 != 0) {
        return -1;
    }
    for (i = 0; i < n; i += 2) {
        int hi = hex_value(field[i]), lo = hex_value(field[i + 1]);
        if (hi < 0 || lo < 0) {
            return -1;
        }
        ((uint8_t *)field)[i / 2] = (uint8_t)(hi << 4 | lo);
    }
    *len = n / 2;
    return 0;
}

static int parse_guid(const char *field, uint64_t *guid)
{
    size_t i;
    if (strlen(field) != 16) {
        return -1;
    }
    *guid = 0;
    for (i = 0; i < 16; i++) {
        int v = hex_value(field[i]);
        if (v < 0) {
            return -1;
        }
        *guid = *guid << 4 | (uint64_t)v;
    }
    return 0;
}

static void bad_request(const char *id, const char *why)
{
    /* Say what was wrong on stderr (the runner keeps its tail for the failure
     * report), and still answer so the conversation stays in step. */
    fprintf(stderr, "adapter.c: bad request %s: %s\n", id, why);
    fputs("error other", stdout);
}

/* Answers one request line (no line ending, NUL-terminated), which is split
 * and hex-decoded in place. */
static void respond(char *line)
{
    char *fields[5];
    size_t count = 0;
    char *p = line;
    const char *id;
    /* Split on single spaces; a sixth field makes count 5, which no request
     * kind accepts. */
    fields[count++] = p;
    while ((p = strchr(p, ' ')) != NULL && count < 5) {
        *p++ = '\0';
        fields[count++] = p;
    }
    id = fields[0];
    fputs(id, stdout);
    fputc(' ', stdout);
    if (count < 3) {
        bad_request(id, "expected '<id> <op> <type> [args...]'");
    } else {
        const char *op = fields[1], *kind = fields[2];
        size_t nargs = count - 3;
        int sizing = strcmp(op, "size") == 0;
        int known_op = strcmp(op, "decode") == 0 || strcmp(op, "encode") == 0 || sizing;
        int known_kind = strcmp(kind, "packed_guid") == 0 || strcmp(kind, "named_guid") == 0;
        int named = strcmp(kind, "named_guid") == 0;
        size_t len, name_len = 0;
        uint64_t guid;
        if (!known_op || !known_kind) {
            /* A request kind this adapter does not know (a newer protocol,
             * say): the runner counts it as skipped, not failed. */
            fputs("unsupported", stdout);
        } else if (op[0] == 'd') {
            if (nargs != 1) {
                bad_request(id, "decode takes exactly 1 argument");
            } else if (parse_bytes(fields[3], &len) != 0) {
                bad_request(id, "expected hex bytes or '-'");
            } else if (named) {
                decode_named_guid((const uint8_t *)fields[3], len);
            } else {
                decode_packed_guid((const uint8_t *)fields[3], len);
            }
        } else if (nargs < 1 || nargs > (named ? 2u : 1u)) {
            bad_request(id, named ? "encode and size named_guid take 1 or 2 arguments"
                                  : "encode and size packed_guid take exactly 1 argument");
        } else if (parse_guid(fields[3], &guid) != 0) {
            bad_request(id, "expected a GUID of exactly 16 hex digits");
        } else if (!named) {
            (sizing ? size_packed_guid : encode_packed_guid)(guid);
        } else if (nargs == 1) {
            (sizing ? size_named_guid : encode_named_guid)(guid, NULL, 0);
        } else if (parse_bytes(fields[4], &name_len) != 0) {
            bad_request(id, "expected hex bytes or '-' for the name");
        } else {
            (sizing ? size_named_guid : encode_named_guid)(guid, (const uint8_t *)fields[4],
                                                           name_len);
        }
    }
    fputc('\n', stdout);
}

enum line_status { LINE_END_OF_INPUT, LINE_OK, LINE_TOO_LONG, LINE_HAS_NUL };

/* Reads one line into *buf (growing it), without the '\n'. A line longer
 * than MAX_LINE keeps its first MAX_LINE bytes and skips the rest. */
static enum line_status read_line(char **buf, size_t *cap, size_t *len)
{
    int c;
    enum line_status status = LINE_OK;
    *len = 0;
    while ((c = getchar()) != EOF && c != '\n') {
        if (c == '\0' && status == LINE_OK) {
            /* The line is handled as a C string, which would end here. */
            status = LINE_HAS_NUL;
        }
        if (*len >= MAX_LINE) {
            status = LINE_TOO_LONG;
            continue;
        }
        if (*len + 1 >= *cap) {
            size_t new_cap = *cap * 2;
            char *grown = realloc(*buf, new_cap);
            if (grown == NULL) {
                fprintf(stderr, "adapter.c: out of memory growing the line buffer to %lu bytes\n",
                        (unsigned long)new_cap);
                exit(1);
            }
            *buf = grown;
            *cap = new_cap;
        }
        (*buf)[(*len)++] = (char)c;
    }
    if (c == EOF && *len == 0 && status == LINE_OK) {
        return LINE_END_OF_INPUT;
    }
    (*buf)[*len] = '\0';
    return status;
}

int main(void)
{
    size_t cap = 4096, len;
    char *line = malloc(cap);
    enum line_status status;
    if (line == NULL) {
        fputs("adapter.c: out of memory\n", stderr);
        return 1;
    }
    while ((status = read_line(&line, &cap, &len)) != LINE_END_OF_INPUT) {
        if (len > 0 && line[len - 1] == '\r') {
            line[--len] = '\0'; /* CRLF line endings */
        }
        if (status != LINE_OK) {
            char *space = strchr(line, ' ');
            if (space != NULL) {
                *space = '\0'; /* keep only the id */
            }
            if (status == LINE_TOO_LONG) {
                fprintf(stderr, "adapter.c: request %s is longer than %lu bytes\n", line,
                        (unsigned long)MAX_LINE);
            } else {
                fprintf(stderr, "adapter.c: request %s contains a NUL byte\n", line);
            }
            printf("%s error other\n", line);
        } else if (len == 0) {
            fputs("adapter.c: ignoring an empty line\n", stderr);
            continue;
        } else {
            respond(line);
        }
        /* stdout is fully buffered on a pipe: without this the runner would
         * wait forever for an answer sitting in our buffer. (Flushing only
         * when no more input is waiting would save writes, but ISO C has no
         * way to ask, and one write per request is cheap.) */
        if (fflush(stdout) != 0) {
            fputs("adapter.c: cannot write the response; stopping\n", stderr);
            free(line);
            return 1;
        }
    }
    free(line);
    return 0;
}
