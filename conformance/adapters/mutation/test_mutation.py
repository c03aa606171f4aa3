#!/usr/bin/env python3
"""Tests of the mutator and the campaign's bookkeeping (no toolchain needed).

    python3 conformance/adapters/mutation/test_mutation.py
"""

import re
import sys
import tempfile
import unittest
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import clike  # noqa: E402
import mutate  # noqa: E402
from languages import LANGUAGES  # noqa: E402

C_SOURCE = """
#include <stdint.h>
static int helper(int x) { return x + 1; }
static int f(const uint8_t *s, size_t len)
{
    size_t i = 0;
    while (i < len) {
        if (!s[i] || s[i] >= 0x80) return 0;
        i++;
    }
    return helper(1) & 0xF;
}
"""


def changes(source, functions, go=False):
    """Every mutation as `old -> new` text, in order."""
    return ["%s -> %s" % (source[m.start:m.end], m.replacement) for m in clike.mutations(source, functions, go)]


class Operators(unittest.TestCase):
    def test_each_operator_on_a_small_function(self):
        made = changes(C_SOURCE, ["f"])
        for expected in ["0 -> 1", "i < len -> !(i < len)", "< -> <=", "! -> ", "|| -> &&", ">= -> >",
                         "0x80 -> 0x81", "0x80 -> 0x7f", "return 0; -> {}", "i++; -> {}", "++ -> --",
                         "& -> |", "0xF -> 0x10", "0xF -> 0xE", "return helper(1) & 0xF; -> {}"]:
            self.assertIn(expected, made)
        # Only f's body: helper's `x + 1` is not touched, and declarations stay.
        self.assertNotIn("+ -> -", made)
        self.assertFalse(any(m.startswith("size_t i = 0;") for m in made))
        # A constant never goes below 0.
        self.assertNotIn("0 -> -1", made)

    def test_pointers_templates_and_references_are_not_operators(self):
        source = """inline void g(std::vector<std::uint8_t>& out, ReadBuffer& in, const char *p) {
            auto v = static_cast<std::uint64_t>(in.data[0]) << 8;
            const auto* bytes = reinterpret_cast<const std::uint8_t*>(p);
            out.push_back(v > 1);
        }"""
        made = changes(source, ["g"])
        self.assertIn("<< -> >>", made)
        self.assertIn("> -> >=", made)
        self.assertEqual([m for m in made if m.startswith(("< ->", "* ->", "& ->"))], [])
        self.assertEqual([m for m in made if m.startswith("> ->")], ["> -> >="])

    def test_go_statements_end_at_line_ends(self):
        source = """package main
func h(in []byte) (n int) {
\tif b := in[0]; b != 0 {
\t\tn++
\t}
\tn = n + 1
\treturn n
}
"""
        made = changes(source, ["h"], go=True)
        self.assertIn("b != 0 -> !(b != 0)", made)
        self.assertIn("n++ -> {}", made)
        self.assertIn("n = n + 1 -> {}", made)
        self.assertIn("return n -> {}", made)
        self.assertNotIn("b := in[0] -> {}", made)

    def test_the_same_mutants_every_time(self):
        for language in LANGUAGES.values():
            if language.mutator != "clike":
                continue
            source = (mutate.ADAPTERS / language.folder / language.codec).read_text()
            first = clike.mutations(source, language.functions, go=language.go)
            self.assertGreater(len(first), 100, language.name)
            self.assertEqual(first, clike.mutations(source, language.functions, go=language.go))

    def test_a_missing_function_is_an_error(self):
        with self.assertRaises(ValueError):
            clike.mutations(C_SOURCE, ["nowhere"])

    def test_readme_lists_every_operator(self):
        readme = (HERE / "README.md").read_text()
        listed = re.findall(r"^\| `([a-z]+)` \|", readme, re.MULTILINE)
        self.assertEqual(listed, list(clike.OPERATORS))


class Ids(unittest.TestCase):
    def ids(self, source):
        mutants = mutate.clike_mutants(LANGUAGES["c"], source)
        return [m.id for m in mutate.assign_ids("c", source, mutants)]

    def test_ids_do_not_move_with_other_code(self):
        source = (mutate.ADAPTERS / "c" / "adapter.c").read_text()
        moved = source.replace("#include <stddef.h>", "#include <stddef.h>\n/* a comment */\n")
        self.assertEqual(self.ids(source), self.ids(moved))
        self.assertEqual(len(set(self.ids(source))), len(self.ids(source)))

    def test_describe_names_the_changed_line(self):
        self.assertEqual(mutate.describe("a\nif (x < 1)\nb\n", "a\nif (x <= 1)\nb\n"),
                         "line 2: if (x < 1) => if (x <= 1)")


class SurvivorLists(unittest.TestCase):
    def test_every_committed_list_reads(self):
        for language in LANGUAGES:
            path = HERE / "survivors" / ("%s.txt" % language)
            self.assertTrue(path.exists(), path)
            for entry in mutate.read_survivors(path).values():
                self.assertTrue(entry.id.startswith(language + ":"), entry.id)

    def test_malformed_entries_are_refused(self):
        with tempfile.TemporaryDirectory() as scratch:
            path = Path(scratch, "x.txt")
            for text in ["c:f:123456\n", "c:f:123456 maybe: why\n", "c:f:1 equivalent: a\nc:f:1 equivalent: b\n"]:
                path.write_text(text)
                with self.assertRaises(mutate.Failure):
                    mutate.read_survivors(path)

    def test_check_reports_unlisted_killed_and_stale_entries(self):
        listed = {"c:f:1": mutate.Listed("c:f:1", "equivalent", "why", 1),
                  "c:f:2": mutate.Listed("c:f:2", "equivalent", "why", 2),
                  "c:f:9": mutate.Listed("c:f:9", "equivalent", "why", 3)}
        outcome = mutate.Outcome("c", [mutate.Mutant("c:f:1", "f", "d", verdict="survived"),
                                       mutate.Mutant("c:f:2", "f", "d", verdict="killed"),
                                       mutate.Mutant("c:f:3", "f", "d", verdict="survived")], False, 1.0, listed)
        problems = mutate.check(outcome)
        self.assertEqual(len(problems), 3, problems)
        self.assertIn("but killed", problems[0])
        self.assertIn("not listed: c:f:3", problems[1])
        self.assertIn("names no mutant: c:f:9", problems[2])
        outcome.sampled = True
        self.assertEqual(len(mutate.check(outcome)), 2)


if __name__ == "__main__":
    unittest.main()
