"""The Python codec's mutants, made by mutmut's own mutation operators.

mutmut (PyPI) runs a project's pytest suite against mutants it switches on
inside one process; our judge is a separate program (the conformance runner)
that starts the adapter itself, which mutmut's runner cannot drive. So this
script uses mutmut only for what it is best at, making the mutants: it parses
the adapter with mutmut's `create_mutations` and writes every mutant of the
named top-level functions, as a whole source file, to stdout as JSON. It runs
in the virtual environment where mutmut is installed; mutate.py judges the
mutants.

    python mutmut_mutants.py ADAPTER.py FUNCTION...
"""

import json
import sys

from mutmut.mutation.file_mutation import create_mutations, deep_replace


def main(path, functions):
    with open(path, encoding="utf-8") as source:
        code = source.read()
    module, mutations, _, _ = create_mutations(path, code)
    out = []
    seen = set()
    for mutation in mutations:
        function = mutation.contained_by_top_level_function
        if function is None or function.name.value not in functions:
            continue
        seen.add(function.name.value)
        mutant = deep_replace(module, mutation.original_node, mutation.mutated_node)
        out.append({"function": function.name.value, "source": mutant.code})
    missing = sorted(set(functions) - seen)
    if missing:
        sys.stderr.write("mutmut made no mutant of %s in %s\n" % (", ".join(missing), path))
        return 2
    json.dump(out, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
