#!/usr/bin/env python3
"""Every JSON key a tool declares in its result tables (report/table.h) is documented (issue 36).

usage: result_keys_test.py BUILD_DIR SOURCE_DIR

Runs BUILD_DIR/result_keys (tests/result_keys.c: one line per declared key, and a check of the tools' uses)
and checks each key against the documentation: the JSON Schema docs/schema/edan.analysis.1.json has it at the
table's path (a key "a.b" as member b of the object a) with the declared type (u64: a count or an integer, f64: a
number, string: a string or null, u64[] and f64[]: arrays, group: an object or null, bool: a boolean, u64?: an
integer or null, rows: an array of another declared table's rows, named: an object, i64[]: an array, string[]: an array of strings), docs/json-schema.md names
it, and the schema has no key at a declared table of rows that the declaration lacks (a table's own name is a key
of its parent's object; a table of scalars may share its object with members written otherwise). Prints
'N passed, N failed'.
"""
import json
import re
import os
import subprocess
import sys


def resolve(schema, node):
    """node with a $ref followed, of a oneOf with null the non-null alternative, an allOf's properties merged."""
    while True:
        if "allOf" in node:
            merged = {"type": "object", "properties": {}}
            for alt in node["allOf"]:
                merged["properties"].update(resolve(schema, alt).get("properties", {}))
            return merged
        if "$ref" in node:
            node = schema["definitions"][node["$ref"].split("/")[-1]]
        elif "oneOf" in node:
            alts = [a for a in node["oneOf"] if a.get("type") != "null"]
            if len(alts) != 1:
                return node
            node = alts[0]
        else:
            return node


def properties(schema, node):
    """The properties of the object node; of a oneOf of several objects, every alternative's (the first's first)."""
    node = resolve(schema, node)
    merged = {}
    for alt in reversed(node.get("oneOf", [])):
        merged.update(resolve(schema, alt).get("properties", {}))
    merged.update(node.get("properties", {}))
    return merged


def member(schema, node, name):
    """The schema of member name of the object node: its property, or a patternProperties entry it matches."""
    node = resolve(schema, node)
    if name in properties(schema, node):
        return properties(schema, node)[name]
    return next((v for pat, v in node.get("patternProperties", {}).items() if re.fullmatch(pat, name)), None)


def is_array(node):
    """Whether node is an array, or an array or null ("type": ["array", "null"])."""
    t = node.get("type")
    return t == "array" or (isinstance(t, list) and "array" in t)


def object_at(schema, path):
    """The schema of the object a row (or the scalars) at path is, or None."""
    node = schema
    for part in path.split(".") if path else []:  # "": the report's top-level object
        node = properties(schema, node).get(part)
        if node is None:
            return None
        if is_array(resolve(schema, node)):  # a table of rows inside another's rows
            node = resolve(schema, node).get("items", {})
    node = resolve(schema, node)
    if is_array(node):
        node = resolve(schema, node.get("items", {}))
    return node


def types_of(schema, node):
    node = resolve(schema, node)
    if "const" in node:
        const = node["const"]
        return {"integer" if isinstance(const, int) else "string" if isinstance(const, str) else type(const).__name__}
    if "enum" in node:
        return {"string"}
    t = node.get("type", [])
    return set(t if isinstance(t, list) else [t]) | ({"array:" + str(sorted(types_of(schema, node["items"])))}
                                                      if is_array(node) and "items" in node else set())


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    build, source = sys.argv[1], sys.argv[2]
    p = subprocess.run([os.path.join(build, "result_keys")], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    passed = failed = 0
    if p.returncode != 0:
        print(p.stderr, file=sys.stderr, end="")
        failed += 1
    schema = json.load(open(os.path.join(source, "docs", "schema", "edan.analysis.1.json")))
    prose = open(os.path.join(source, "docs", "json-schema.md")).read()
    declared, scalars = {}, set()
    for line in p.stdout.splitlines():
        path, kind, key, typ, unit, doc = line.split("\t")
        if kind == "scalars":
            scalars.add(path)
        declared.setdefault(path, []).append(key)
        obj = object_at(schema, path)
        prop = obj
        for part in key.split("."):  # "a.b": member b of the object a
            prop = member(schema, prop, part) if prop else None
        want = {"u64": {"integer"}, "i64": {"integer"}, "f64": {"number"}, "string": {"string"},
                "u64[]": {"array:['integer']"}, "f64[]": {"array:['null', 'number']", "array:['number']"},
                "group": {"object", "null"}, "bool": {"boolean"}, "u64?": {"integer"}, "rows": {"array"},
                "named": {"object"}, "i64[]": {"array:['integer']"},
                "string[]": {"array:['string']"}}[typ]
        problems = []
        if prop is None:
            problems.append(f"not in docs/schema/edan.analysis.1.json at {path}")
        elif not want & types_of(schema, prop):
            problems.append(f"the schema says {sorted(types_of(schema, prop))}, the declaration {typ}")
        leaf = key.rsplit(".", 1)[-1]
        if f'"{leaf}"' not in prose and f"`{leaf}`" not in prose:
            problems.append("not named in docs/json-schema.md")
        if problems:
            failed += 1
            print(f"FAILED: {path}.{key} ({typ}, {unit or 'no unit'}: {doc}): " + "; ".join(problems), file=sys.stderr)
        else:
            passed += 1
    # the other way round: every key the schema has at a declared table of rows is declared (a table of scalars
    # may share its object with members written otherwise)
    for path, keys in declared.items():
        if path in scalars:
            continue
        obj = object_at(schema, path) or {}
        children = {q.rsplit(".", 1)[-1] for q in declared if q.startswith(path + ".") and "." not in q[len(path) + 1:]}
        extra = set(obj.get("properties", {})) - {k.split(".")[0] for k in keys} - children
        if extra:
            failed += 1
            print(f"FAILED: {path}: the schema has keys no declaration has: {sorted(extra)}", file=sys.stderr)
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not declared else 0


if __name__ == "__main__":
    sys.exit(main())
