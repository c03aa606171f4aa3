/*
 * Conformance adapter around the PackedGuid specification's own C snippet
 * (spec_snippet.c, unchanged): a worked example of the runner catching a
 * real bug.
 *
 * Build it exactly like this, so that the undefined behaviour in the snippet
 * behaves the way expected-failures.txt records (gcc 12, x86-64, no
 * optimisation; other compilers or -O levels may fail other vectors):
 *
 *     gcc -std=c99 -O0 -o spec-adapter adapter.c spec_snippet.c
 *
 * and run it:
 *
 *     wow-guid-conformance run --expect-fail expected-failures.txt -- ./spec-adapter
 *
 * The snippet only decodes packed GUIDs, so this adapter answers
 * "<id> decode packed_guid <bytes>" and says "unsupported" to every other
 * request (the runner counts those as skipped). Protocol details are as in
 * ../c/adapter.c; see ../README.md.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The function under test, in spec_snippet.c. */
uint64_t parse_packed_guid(uint8_t byte_mask, uint8_t *data);

#define MAX_LINE (64u * 1024u * 1024u)

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Decodes hex (or "-") in place. Returns 0 and sets *len, or -1. */
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

static void decode_packed_guid(uint8_t *data, size_t len)
{
    size_t consumed = 1;
    uint64_t guid;
    unsigned i;
    if (len == 0) {
        fputs("error eof", stdout);
        return;
    }
    for (i = 0; i < 8; i++) {
        if (data[0] & (1u << i)) {
            consumed++;
        }
    }
    /* The snippet reads one byte per set bit with no bounds check, so the
     * length must be checked before it is called: otherwise truncated input
     * would read past the buffer, a second bug that hides the first. */
    if (len < consumed) {
        fputs("error eof", stdout);
        return;
    }
    guid = parse_packed_guid(data[0], data + 1);
    printf("ok %08lx%08lx %lu", (unsigned long)(guid >> 32), (unsigned long)(guid & 0xffffffffu),
           (unsigned long)consumed);
}

/* Answers one request line (no line ending, NUL-terminated). */
static void respond(char *line)
{
    char *fields[5];
    size_t count = 0, len;
    char *p = line;
    fields[count++] = p;
    while ((p = strchr(p, ' ')) != NULL && count < 5) {
        *p++ = '\0';
        fields[count++] = p;
    }
    printf("%s ", fields[0]);
    if (count < 3) {
        fprintf(stderr, "spec-c adapter: bad request %s: expected '<id> <op> <type> [args...]'\n",
                fields[0]);
        fputs("error other", stdout);
    } else if (strcmp(fields[1], "decode") != 0 || strcmp(fields[2], "packed_guid") != 0) {
        fputs("unsupported", stdout); /* the snippet does nothing else */
    } else if (count != 4 || parse_bytes(fields[3], &len) != 0) {
        fprintf(stderr, "spec-c adapter: bad request %s: expected one argument, hex bytes or '-'\n",
                fields[0]);
        fputs("error other", stdout);
    } else {
        decode_packed_guid((uint8_t *)fields[3], len);
    }
    fputc('\n', stdout);
}

/* Reads one line into *buf (growing it), without the '\n'. Returns 0 at end
 * of input, 1 for a line, 2 for a line that is too long or contains a NUL
 * byte (its start is kept, for the id). */
static int read_line(char **buf, size_t *cap, size_t *len)
{
    int c, bad = 0;
    *len = 0;
    while ((c = getchar()) != EOF && c != '\n') {
        if (c == '\0' || *len >= MAX_LINE) {
            bad = 1;
        }
        if (*len >= MAX_LINE) {
            continue;
        }
        if (*len + 1 >= *cap) {
            char *grown = realloc(*buf, *cap * 2);
            if (grown == NULL) {
                fputs("spec-c adapter: out of memory growing the line buffer\n", stderr);
                exit(1);
            }
            *buf = grown;
            *cap *= 2;
        }
        (*buf)[(*len)++] = (char)c;
    }
    if (c == EOF && *len == 0 && !bad) {
        return 0;
    }
    (*buf)[*len] = '\0';
    return bad ? 2 : 1;
}

int main(void)
{
    size_t cap = 4096, len;
    char *line = malloc(cap);
    int status;
    if (line == NULL) {
        fputs("spec-c adapter: out of memory\n", stderr);
        return 1;
    }
    while ((status = read_line(&line, &cap, &len)) != 0) {
        if (len > 0 && line[len - 1] == '\r') {
            line[--len] = '\0'; /* CRLF line endings */
        }
        if (status == 2) {
            char *space = strchr(line, ' ');
            if (space != NULL) {
                *space = '\0'; /* keep only the id */
            }
            fprintf(stderr, "spec-c adapter: request %s is too long or contains a NUL byte\n",
                    line);
            printf("%s error other\n", line);
        } else if (len == 0) {
            fputs("spec-c adapter: ignoring an empty line\n", stderr);
            continue;
        } else {
            respond(line);
        }
        /* stdout is fully buffered on a pipe: flush, or the runner waits forever. */
        if (fflush(stdout) != 0) {
            fputs("spec-c adapter: cannot write the response; stopping\n", stderr);
            free(line);
            return 1;
        }
    }
    free(line);
    return 0;
}
