#!/usr/bin/env python3
"""Counts a library crate's public items, from rustdoc's JSON output.

Usage: public-items.py CRATE-JSON [--max N] [--list]

CRATE-JSON is what
`cargo +nightly rustdoc -p CRATE --lib -- -Z unstable-options --output-format json`
writes under target/doc/. The walk starts at the crate root and follows
public modules, re-exports (`pub use`, globs included), the fields of
structs and enum variants, enum variants, trait items and the items of
inherent impls. Items rustdoc hides (`#[doc(hidden)]`) are not in its
output unless asked for, so they are not counted; neither are impl blocks
themselves nor the crate root. Each item is counted once, however many
paths lead to it. An item is documented when its doc comment is not empty.

Prints the count of documented and undocumented items; with --max, exits 1
when there are more documented items than N, or any undocumented or hidden
ones (a hidden module is an API nobody promised).
"""

import json
import sys


def main(argv):
    if not argv or argv[0].startswith("-"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, rest = argv[0], argv[1:]
    limit = None
    listing = False
    while rest:
        flag = rest.pop(0)
        if flag == "--max" and rest:
            limit = int(rest.pop(0))
        elif flag == "--list":
            listing = True
        else:
            print(f"unknown argument {flag}", file=sys.stderr)
            return 2
    with open(path, encoding="utf-8") as f:
        krate = json.load(f)
    index = krate["index"]
    seen = set()
    where = {}
    hidden = []

    def public(item):
        return item.get("visibility") == "public"

    def visit(item_id, path):
        item = index.get(str(item_id))
        if item is None or item_id in seen:
            return
        if any(a == "#[doc(hidden)]" or "doc(hidden)" in str(a) for a in item.get("attrs", [])):
            hidden.append(path)
            return
        seen.add(item_id)
        where[item_id] = path
        inner = item.get("inner", {})
        kind = next(iter(inner), None)
        body = inner.get(kind, {}) if kind else {}
        children = []
        if kind == "module":
            children = body.get("items", [])
        elif kind == "use":
            # A re-export counts as the item it names, not as an item.
            seen.discard(item_id)
            target = body.get("id")
            if target is not None:
                visit(target, path)
            return
        elif kind == "struct":
            shape = body.get("kind", {})
            if isinstance(shape, dict):
                plain = shape.get("plain", {})
                children += plain.get("fields", []) if isinstance(plain, dict) else []
                children += [f for f in shape.get("tuple", []) or [] if f is not None]
            children += body.get("impls", [])
        elif kind == "enum":
            children = body.get("variants", []) + body.get("impls", [])
        elif kind == "variant":
            shape = body.get("kind", {})
            if isinstance(shape, dict):
                if "struct" in shape:
                    children = shape["struct"].get("fields", [])
                elif "tuple" in shape:
                    children = [f for f in shape["tuple"] if f is not None]
        elif kind == "trait":
            children = body.get("items", [])
        elif kind in ("union",):
            children = body.get("fields", []) + body.get("impls", [])
        elif kind == "impl":
            seen.discard(item_id)
            if body.get("trait") is None and not body.get("is_synthetic") and not body.get("blanket_impl"):
                for child in body.get("items", []):
                    child_item = index.get(str(child))
                    if child_item and public(child_item):
                        visit(child, path + "::" + (child_item.get("name") or "?"))
            return
        for child in children:
            child_item = index.get(str(child))
            if child_item is None:
                continue
            child_kind = next(iter(child_item.get("inner", {})), None)
            # Fields and variants inherit their parent's visibility.
            if public(child_item) or child_kind in ("variant", "struct_field", "impl") or kind in ("trait", "variant"):
                visit(child, path + "::" + (child_item.get("name") or "?"))

    root = krate["root"]
    root_item = index[str(root)]
    for child in root_item["inner"]["module"]["items"]:
        child_item = index.get(str(child))
        if child_item and public(child_item):
            visit(child, child_item.get("name") or "?")
    documented = [i for i in seen if (index[str(i)].get("docs") or "").strip()]
    # A tuple field (`Variant(T)`) is named by its position and documented
    # by its parent, as `missing_docs` has it.
    undocumented = [i for i in seen if i not in documented
                    and not str(index[str(i)].get("name") or "").isdigit()]
    print(f"{path}: {len(documented)} documented public items, {len(undocumented)} undocumented, "
          f"{len(hidden)} hidden")
    if listing:
        for i in sorted(seen, key=lambda i: where.get(i, "")):
            item = index[str(i)]
            print(f"  {next(iter(item.get('inner', {})), '?'):12} {where.get(i)}")
    if limit is not None and (len(documented) > limit or undocumented or hidden):
        print(f"more than {limit} documented items, or undocumented or hidden ones: {hidden[:10]}",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
