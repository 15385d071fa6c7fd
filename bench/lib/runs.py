"""The medians of benchmark runs, for the scenarios' summaries (bench/scenarios).

A runs file holds one JSON record a line (an `apsp --stats` record, or one with its stats
inside); blank lines are skipped.
"""
import collections
import json
import statistics


def medians(path, key, fields):
    """{key(record): (the median of each field(record), the number of records)}, by key."""
    groups = collections.defaultdict(list)
    with open(path) as f:
        for line in f:
            if line.strip():
                record = json.loads(line)
                groups[key(record)].append([field(record) for field in fields])
    return {k: (tuple(statistics.median(x[i] for x in xs) for i in range(len(fields))), len(xs))
            for k, xs in sorted(groups.items())}
