"""The project's own mutator for the C, C++, Java, C# and Go codecs.

No registry tool mutates these five languages alike and then lets a command
of ours judge each mutant, so this one works on tokens: it reads the source,
finds the bodies of the functions it is told to mutate, and proposes one
small change at a time inside them. The operators are listed in OPERATORS
(and in README.md); each is a pure function of the token list, so the same
source always gives the same mutants in the same order.
"""

import re
from dataclasses import dataclass

# One token: its kind, its text, where it starts in the source, and whether a
# newline stands between it and the token before (Go ends statements there).
TOKEN = re.compile(
    r"""
    (?P<space>[ \t\r\f\v]+)
  | (?P<newline>\n)
  | (?P<comment>//[^\n]*|/\*.*?\*/|\#[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`[^`]*`)
  | (?P<number>0[xX][0-9a-fA-F_]+[uUlL]*|[0-9][0-9_]*[uUlLfF]*)
  | (?P<ident>[A-Za-z_$][A-Za-z_0-9$]*)
  | (?P<op>>>>=|<<=|>>=|>>>|&&|\|\||==|!=|<=|>=|<<|>>|\+\+|--|\+=|-=|\*=|/=|%=|&=|\|=|\^=|->|::|:=|&\^
          |[-+*/%&|^!~<>=?:;,.()\[\]{}@])
    """,
    re.VERBOSE | re.DOTALL,
)

# Words that start statements or are values, never a type or a variable.
KEYWORDS = {
    "return", "break", "continue", "throw", "if", "else", "for", "while", "do",
    "switch", "case", "default", "new", "goto", "func", "var", "const", "final",
    "static", "inline", "constexpr", "auto", "true", "false", "null", "nil",
    "nullptr", "sizeof", "typeof", "defer", "go", "range", "static_cast",
    "reinterpret_cast", "const_cast",
}
# Type names before which a `*` or `&` declares a pointer or a reference.
TYPE_WORDS = {"char", "int", "void", "unsigned", "long", "short", "byte", "auto", "string", "uint8_t"}
ASSIGNMENTS = {"=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", ">>>=", "&^="}


@dataclass(frozen=True)
class Token:
    kind: str
    text: str
    start: int
    newline_before: bool

    @property
    def end(self):
        return self.start + len(self.text)


@dataclass(frozen=True)
class Mutation:
    """One change: replace source[start:end] with `replacement`."""

    function: str
    operator: str
    start: int
    end: int
    replacement: str


def tokenize(source):
    """The significant tokens of `source` (no spaces, no comments)."""
    tokens, pos, newline = [], 0, False
    while pos < len(source):
        match = TOKEN.match(source, pos)
        if match is None:
            raise ValueError("cannot read the source at offset %d: %r" % (pos, source[pos:pos + 20]))
        kind = match.lastgroup
        if kind == "newline" or (kind == "comment" and "\n" in match.group()):
            newline = True
        elif kind not in ("space", "comment"):
            tokens.append(Token(kind, match.group(), pos, newline))
            newline = False
        pos = match.end()
    return tokens


def matching(tokens, index):
    """The index of the bracket that closes the one at `index`."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    opening, closing, depth = tokens[index].text, pairs[tokens[index].text], 0
    for i in range(index, len(tokens)):
        if tokens[i].kind == "op" and tokens[i].text == opening:
            depth += 1
        elif tokens[i].kind == "op" and tokens[i].text == closing:
            depth -= 1
            if depth == 0:
                return i
    raise ValueError("unbalanced %r at offset %d" % (opening, tokens[index].start))


def function_body(tokens, name):
    """(first, last): the token indexes of the braces around `name`'s body.

    A definition is the name followed by its parameter list, after a type or
    `func` (not after an operator or `return`, as a call is), then the body's
    `{` before any `;` or `=`.
    """
    for i, token in enumerate(tokens):
        if token.kind != "ident" or token.text != name or i == 0:
            continue
        if i + 1 >= len(tokens) or tokens[i + 1].text != "(":
            continue
        before = tokens[i - 1]
        if not (before.kind == "ident" and before.text not in KEYWORDS - {"func", "static", "inline"}
                or before.text in ("*", "&", ">", "]", ")")):
            continue
        j = matching(tokens, i + 1) + 1
        while j < len(tokens) and tokens[j].text not in ("{", ";", "="):
            j += 1
        if j < len(tokens) and tokens[j].text == "{":
            return j, matching(tokens, j)
    raise ValueError("no definition of %s found" % name)


def is_operand_end(token):
    """True when `token` can end an operand, so an operator after it is binary."""
    if token.kind in ("number", "string"):
        return True
    if token.kind == "ident":
        return token.text not in KEYWORDS or token.text in ("true", "false", "null", "nil", "nullptr")
    return token.text in (")", "]", "++", "--")


def declares(tokens, i):
    """True when the `*` or `&` at i declares a pointer or reference type."""
    before = tokens[i - 1]
    if before.text == ">":
        return True
    if before.kind != "ident":
        return False
    word = before.text
    return word in TYPE_WORDS or word.endswith("_t") or word[:1].isupper() and tokens[i + 1].kind == "ident"


def generic_close(tokens, i):
    """The index of the `>` that closes the template or generic argument list
    opened by the `<` at i (`static_cast<std::uint8_t>`), or None when that
    `<` is an operator."""
    if tokens[i - 1].kind != "ident" or tokens[i - 1].end != tokens[i].start:
        return None
    for j in range(i + 1, min(i + 12, len(tokens))):
        if tokens[j].text == ">":
            return j
        if not (tokens[j].kind == "ident" or tokens[j].text in ("::", ",", ".", "*")):
            return None
    return None


def generic_brackets(tokens, first, last):
    """The indexes of every template or generic bracket in a body."""
    found = set()
    for i in range(first + 1, last):
        close = generic_close(tokens, i) if tokens[i].text == "<" else None
        if close is not None:
            found.update((i, close))
    return found


SWAPS = {
    "relational": {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="},
    "arithmetic": {"+": "-", "-": "+", "*": "/", "/": "*", "%": "*", "+=": "-=", "-=": "+="},
    "increment": {"++": "--", "--": "++"},
    "bitwise": {"&": "|", "|": "&", "^": "|", "&=": "|=", "|=": "&=", "^=": "|=", "&^": "&"},
    "shift": {"<<": ">>", ">>": "<<", ">>>": ">>", "<<=": ">>=", ">>=": "<<=", ">>>=": ">>="},
    "logical": {"&&": "||", "||": "&&", "true": "false", "false": "true"},
}
BINARY_ONLY = {"+", "-", "*", "&"}


def operator_swaps(tokens, first, last):
    brackets = generic_brackets(tokens, first, last)
    for i in range(first + 1, last):
        token = tokens[i]
        if token.kind not in ("op", "ident") or i in brackets:
            continue
        for operator, table in SWAPS.items():
            if token.text not in table:
                continue
            if token.text in BINARY_ONLY and (not is_operand_end(tokens[i - 1]) or declares(tokens, i)):
                continue
            yield operator, token.start, token.end, table[token.text]


def remove_unary(tokens, first, last):
    """`!x` becomes `x`, `~x` becomes `x`."""
    for i in range(first + 1, last):
        token = tokens[i]
        if token.kind == "op" and token.text in ("!", "~") and not is_operand_end(tokens[i - 1]):
            yield "logical" if token.text == "!" else "bitwise", token.start, token.end, ""


def constants(tokens, first, last):
    """Every integer literal one up and one down, in its own base and case."""
    for i in range(first + 1, last):
        token = tokens[i]
        if token.kind != "number":
            continue
        match = re.fullmatch(r"(0[xX])?([0-9a-fA-F_]+?)([uUlL]*)", token.text)
        if match is None:
            continue
        prefix, digits, suffix = match.groups()
        value = int(digits.replace("_", ""), 16 if prefix else 10)
        for new in (value + 1, value - 1):
            if new < 0:
                continue
            if prefix:
                text = "%0*x" % (len(digits), new)
                text = text.upper() if digits.isupper() else text
            else:
                text = str(new)
            yield "constant", token.start, token.end, (prefix or "") + text + suffix


def condition_span(tokens, i, go):
    """(first, last) token indexes of the condition of the `if`/`while` at i."""
    if not go:
        if tokens[i + 1].text != "(":
            return None
        return i + 2, matching(tokens, i + 1) - 1
    j, start, depth = i + 1, i + 1, 0
    while j < len(tokens):
        text = tokens[j].text
        if text in ("(", "["):
            depth += 1
        elif text in (")", "]"):
            depth -= 1
        elif depth == 0 and text == ";":
            start = j + 1
        elif depth == 0 and text == "{":
            return start, j - 1
        j += 1
    return None


def negate_conditions(tokens, first, last, go):
    """`if (c)` becomes `if (!(c))` (Go: `if c {` becomes `if !(c) {`)."""
    for i in range(first + 1, last):
        if tokens[i].kind != "ident" or tokens[i].text not in ("if", "while"):
            continue
        span = condition_span(tokens, i, go)
        if span is None:
            continue
        a, b = tokens[span[0]], tokens[span[1]]
        yield "negate", a.start, b.end, None  # filled in by the caller from the text


def statement_ends(tokens, i, last, go):
    """The index of the last token of the simple statement that starts at i."""
    depth = 0
    j = i
    while j < last:
        text = tokens[j].text
        if go and j > i and depth == 0 and tokens[j].newline_before:
            return j - 1
        if text in ("(", "[", "{"):
            depth += 1
        elif text in (")", "]", "}"):
            if depth == 0:
                return j - 1
            depth -= 1
        elif text == ";" and depth == 0:
            return j
        j += 1
    return last - 1


def removable(tokens, i, end):
    """True for an expression, jump or throw statement (not a declaration)."""
    head = tokens[i]
    if head.text in ("return", "break", "continue", "throw"):
        return True
    if head.text in ("++", "--"):
        return True
    if head.kind != "ident" or head.text in KEYWORDS:
        return False
    depth = 0
    for j in range(i, end + 1):
        token = tokens[j]
        if depth == 0:
            if token.text == ":=":
                return False
            if token.kind == "ident" and j > i and (
                    tokens[j - 1].kind == "ident" or tokens[j - 1].text == "]" and tokens[j - 2].text == "["):
                return False  # `int i`, `Type name`, `byte[] name`: a declaration
            if token.text in ASSIGNMENTS | {"++", "--", "("}:
                return True
        if token.text in ("(", "["):
            depth += 1
        elif token.text in (")", "]"):
            depth -= 1
    return False


def statements(tokens, first, last, go):
    """Every simple statement in the body, replaced by an empty block."""
    i = first + 1
    starts = {"{", "}", ";", "else", ")"}
    while i < last:
        token = tokens[i]
        previous = tokens[i - 1]
        at_start = previous.text in starts and (previous.text != ")" or header_close(tokens, i - 1))
        if go and previous.kind != "op" and token.newline_before:
            at_start = True
        if at_start and token.text in ("if", "while", "for", "switch"):
            # Skip the header; the statements of its body come next.
            if not go and i + 1 < last and tokens[i + 1].text == "(":
                i = matching(tokens, i + 1) + 1
            else:
                while i < last and tokens[i].text != "{":
                    i += 1
                i += 1
            continue
        if at_start and removable(tokens, i, last):
            end = statement_ends(tokens, i, last, go)
            yield "statement", token.start, tokens[end].end, "{}"
            i = end + 1
            continue
        i += 1


def header_close(tokens, j):
    """True when the `)` at j closes an `if`, `for` or `while` header."""
    depth = 0
    for k in range(j, -1, -1):
        text = tokens[k].text
        if text == ")":
            depth += 1
        elif text == "(":
            depth -= 1
            if depth == 0:
                return k > 0 and tokens[k - 1].text in ("if", "for", "while")
    return False


OPERATORS = {
    "relational": "`<`<->`<=`, `>`<->`>=` (each boundary moved by one), `==`<->`!=`",
    "arithmetic": "`+`<->`-`, `*`<->`/`, `%`->`*`, `+=`<->`-=` (binary operators only)",
    "increment": "`++`<->`--`",
    "bitwise": "`&`<->`|`, `^`->`|`, `&=`<->`|=`, `^=`->`|=`, `&^`->`&`, `~x`->`x`",
    "shift": "`<<`<->`>>`, `>>>`->`>>`, and the compound forms",
    "logical": "`&&`<->`||`, `!x`->`x`, `true`<->`false`",
    "negate": "the condition of an `if` or `while` negated",
    "constant": "every integer literal (decimal or hex) one up and one down, never below 0; "
                "shift amounts, masks, bounds and array sizes alike",
    "statement": "an expression, `return`, `break`, `continue` or `throw` statement replaced by `{}`",
}


def mutations(source, functions, go=False):
    """Every mutation of the named functions' bodies, in a fixed order:
    function by function as listed, then by position, then by operator."""
    tokens = tokenize(source)
    found = []
    for name in functions:
        first, last = function_body(tokens, name)
        proposals = []
        generators = (operator_swaps(tokens, first, last), remove_unary(tokens, first, last),
                      constants(tokens, first, last), negate_conditions(tokens, first, last, go),
                      statements(tokens, first, last, go))
        for generator in generators:
            for operator, start, end, replacement in generator:
                if operator == "negate":
                    replacement = "!(" + source[start:end] + ")"
                proposals.append((start, list(OPERATORS).index(operator), end, operator, replacement))
        proposals.sort(key=lambda p: (p[0], p[1], p[2], p[4]))
        for start, _, end, operator, replacement in proposals:
            found.append(Mutation(name, operator, start, end, replacement))
    return found


def apply(source, mutation):
    """The source with one mutation applied."""
    return source[:mutation.start] + mutation.replacement + source[mutation.end:]
