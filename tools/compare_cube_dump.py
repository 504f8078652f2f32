#!/usr/bin/env python3
"""Compares a causeway report.json with a Scalasca report dumped by CubeLib, per location.

usage: compare_cube_dump.py DUMP.csv report.json

DUMP.csv is `cube_dump -m all -x incl -z incl -c roots -s csv2` of Scalasca's remapped report
(trace.cubex): one row per root call path and location, one column per metric, values inclusive
along the metric and the call tree, as report.json's per-location totals are. Every metric both
reports hold is compared on every location; prints each difference and a last line
"compared M metrics; mismatches K". cube_dump prints derived metrics with six significant
digits, so values agree when within 6e-6 relative (1e-9 absolute).
"""
import collections
import csv
import json
import sys


def scalasca_totals(path):
    lines = [l for l in open(path) if l.startswith("Cnode") or l[:1].isdigit()]
    rows = list(csv.reader(lines))
    header = rows[0]
    totals = collections.defaultdict(lambda: collections.defaultdict(float))
    for row in rows[1:]:
        location = int(row[1])
        for metric, value in zip(header[2:], row[2:]):
            if value.strip():
                totals[metric][location] += float(value)
    return totals


def causeway_totals(path):
    report = json.load(open(path))
    rank = [l["rank"] if l["rank"] is not None else l["id"] for l in report["locations"]]
    totals = collections.defaultdict(lambda: collections.defaultdict(float))
    for v in report["values"]:
        totals[v["metric"]][rank[v["location"]]] += v["value"]
    return [m["name"] for m in report["metrics"]], totals


def main():
    theirs = scalasca_totals(sys.argv[1])
    names, ours = causeway_totals(sys.argv[2])
    compared = [m for m in names if m in theirs]
    mismatches = 0
    for metric in compared:
        for location in sorted(set(theirs[metric]) | set(ours[metric])):
            a, b = ours[metric][location], theirs[metric][location]
            if abs(a - b) > 1e-9 + 6e-6 * abs(b):
                mismatches += 1
                print(f"{metric:36s} location {location}: causeway {a:.10g} scalasca {b:.10g}")
    print(f"compared {len(compared)} metrics; mismatches {mismatches}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
