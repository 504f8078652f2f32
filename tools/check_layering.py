#!/usr/bin/env python3
"""Checks that components include only what docs/architecture.md's layering table allows.

Reads the table between <!-- layering:begin --> and <!-- layering:end -->, then every source file
under src/<component>/, and fails on an #include "other/..." of a component the row does not list,
and on <otf2/...> outside the components that read or write OTF2 (otf2/, otf2_writer/, measure/).

The test code has rules of its own: nothing in src/ includes tests/ or testing/ (the product never
depends on test code), testing/ (the scenario builder) includes nothing of tests/, and a test
under tests/<dir>/ includes the helpers of its own directory and tests/common/ only, so that no
test directory depends on another's internals.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def read_table():
    text = (ROOT / "docs" / "architecture.md").read_text()
    block = text.split("<!-- layering:begin -->")[1].split("<!-- layering:end -->")[0]
    allowed = {}
    for line in block.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("component", "") or set(cells[0]) <= {"-"}:
            continue
        allowed[cells[0]] = {c.strip() for c in cells[1].split(",") if c.strip()}
    return allowed


def component_of(path, components):
    rel = path.relative_to(ROOT / "src").as_posix()
    best = None
    for c in components:
        if rel == c or rel.startswith(c + "/"):
            if best is None or len(c) > len(best):
                best = c
    return best


def check_test_code(include):
    problems = []
    roots = [("src", None), ("testing", None)] + [
        ("tests", d.name) for d in sorted((ROOT / "tests").iterdir()) if d.is_dir()
    ]
    for root, test_dir in roots:
        base = ROOT / root if test_dir is None else ROOT / root / test_dir
        for path in sorted(base.rglob("*")):
            if path.suffix not in (".h", ".cc"):
                continue
            for number, line in enumerate(path.read_text().splitlines(), 1):
                m = include.search(line)
                if not m or '"' not in line:
                    continue
                target = m.group(1)
                where = f"{path.relative_to(ROOT)}:{number}"
                if root == "src" and target.startswith(("tests/", "testing/")):
                    problems.append(f"{where}: src/ may not include test code ({target})")
                elif root == "testing" and target.startswith("tests/"):
                    problems.append(f"{where}: testing/ may not include tests/ ({target})")
                elif root == "tests" and target.startswith("tests/"):
                    used = target.split("/")[1]
                    if used not in (test_dir, "common"):
                        problems.append(f"{where}: tests/{test_dir} may not include tests/{used}")
    return problems


def main():
    allowed = read_table()
    components = set(allowed)
    problems = []
    include = re.compile(r'#include\s+[<"]([^">]+)[">]')
    for path in sorted((ROOT / "src").rglob("*")):
        if path.suffix not in (".h", ".cc"):
            continue
        owner = component_of(path, components)
        if owner is None:
            problems.append(f"{path.relative_to(ROOT)}: not in any component of the table")
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            m = include.search(line)
            if not m:
                continue
            target = m.group(1)
            if target.startswith("otf2/") and "<" in line:
                if owner not in ("otf2", "otf2_writer") and not owner.startswith("measure/"):
                    problems.append(f"{path.relative_to(ROOT)}:{number}: <{target}> outside otf2/")
                continue
            used = None
            for c in components:
                if target.startswith(c + "/") and (used is None or len(c) > len(used)):
                    used = c
            if used is None or used == owner:
                continue
            if used not in allowed[owner]:
                problems.append(f"{path.relative_to(ROOT)}:{number}: {owner} may not use {used}")
    problems += check_test_code(include)
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} layering violation(s)")
        return 1
    print(f"layering ok: {len(components)} components")
    return 0


if __name__ == "__main__":
    sys.exit(main())
