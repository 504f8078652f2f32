#!/usr/bin/env python3
"""Prints the translation units over which `make tidy` runs the naming check, from a unity build.

    tools/tidy_sources.py BUILD_DIR

BUILD_DIR is a configured unity build (the sanitizer build of `make test-asan`) whose
compile_commands.json lists, for every component of src/, the unity files that include its
sources (BUILD_DIR/src/.../Unity/unity_N_cxx.cxx) and any source kept out of them. Checking a
unity file checks every source it includes (.clang-tidy's HeaderFilterRegex covers src/), and
parses the headers they share once instead of once per source: a quarter of the time.

Fails, naming them, when a source of src/ that git knows is in no unity file and no compile
command: the check must not silently skip a file.
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tools/tidy_sources.py BUILD_DIR")
    build = pathlib.Path(sys.argv[1]).resolve()
    commands = build / "compile_commands.json"
    if not commands.is_file():
        sys.exit(f"tidy_sources: no {commands}: configure the build first")
    tracked = subprocess.run(["git", "ls-files", "src/*.cc"], cwd=ROOT, check=True,
                             capture_output=True, text=True).stdout.split()
    sources = {str(ROOT / f) for f in tracked}

    units = []
    covered = set()
    for entry in json.loads(commands.read_text()):
        path = pathlib.Path(entry["directory"], entry["file"]).resolve()
        if "Unity" in path.parts and str(path).startswith(str(build / "src") + "/"):
            units.append(str(path))
            for line in path.read_text().splitlines():
                match = re.match(r'#include "(.+)"', line)
                if match:
                    covered.add(str(pathlib.Path(match.group(1)).resolve()))
        elif str(path) in sources:
            units.append(str(path))
            covered.add(str(path))

    missing = sorted(sources - covered)
    if missing:
        sys.exit("tidy_sources: no compile command includes " + ", ".join(missing))
    print("\n".join(sorted(set(units))))


if __name__ == "__main__":
    main()
