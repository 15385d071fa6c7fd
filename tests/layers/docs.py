#!/usr/bin/env python3
"""docs.py ROOT: the documents say what the tree holds.

1. CONTRIBUTING.md's layout names every source file of the two layers (include/apsp/ and src/):
   a file is named by its path below include/apsp/ or src/ ("detail/staging.hpp",
   "run/pipeline.cpp"), by its stem with ".*" ("run/pipeline.*") where a header and a source go
   together, and a top-level public header by its name ("solver.hpp").
2. Every relative link of README.md, CONTRIBUTING.md and docs/*.md reaches a file of the tree,
   and its #anchor a heading (GitHub's slug) or an <a id="..."> of that file.
Prints each miss and exits 1 when there is one."""
import os
import re
import sys


def slug(heading):
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path):
    found = set()
    counts = {}
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
                continue
            if in_code:
                continue
            m = re.match(r"^#{1,6} (.*)", line)
            if m:
                s = slug(m.group(1))
                n = counts.get(s, 0)
                counts[s] = n + 1
                found.add(s if n == 0 else f"{s}-{n}")
            found.update(re.findall(r'<a id="([^"]+)"></a>', line))
    return found


def layout_misses(root):
    with open(os.path.join(root, "CONTRIBUTING.md"), encoding="utf-8") as f:
        text = f.read()
    words = set(re.findall(r"[\w./*-]+", text))
    misses = []
    for layer in ("include/apsp", "src"):
        base = os.path.join(root, layer)
        for folder, _, files in os.walk(base):
            for name in files:
                if not name.endswith((".hpp", ".cpp", ".py")):
                    continue
                rel = os.path.relpath(os.path.join(folder, name), base)
                stem = os.path.splitext(rel)[0] + ".*"
                top_header = layer == "include/apsp" and os.sep not in rel
                if rel in words or stem in words or (top_header and name in words):
                    continue
                misses.append(f"CONTRIBUTING.md: the layout does not name {layer}/{rel}")
    return misses


def link_misses(root):
    docs = ["README.md", "CONTRIBUTING.md"]
    docs += sorted(os.path.join("docs", n) for n in os.listdir(os.path.join(root, "docs"))
                   if n.endswith(".md"))
    misses = []
    for doc in docs:
        path = os.path.join(root, doc)
        with open(path, encoding="utf-8") as f:
            text = re.sub(r"```.*?```", "", f.read(), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", text):
            if re.match(r"[a-z]+:", target):
                continue
            file_part, _, anchor = target.partition("#")
            linked = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) \
                if file_part else path
            if not os.path.exists(linked):
                misses.append(f"{doc}: link to a missing file: {target}")
            elif anchor and linked.endswith(".md") and anchor not in anchors(linked):
                misses.append(f"{doc}: link to a missing anchor: {target}")
    return misses


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: docs.py ROOT", file=sys.stderr)
        return 2
    root = sys.argv[1]
    misses = layout_misses(root) + link_misses(root)
    for miss in misses:
        print(miss)
    if misses:
        print(f"docs: {len(misses)} misses above", file=sys.stderr)
        return 1
    print("docs: the layout names every source file; every link and anchor resolves")
    return 0


if __name__ == "__main__":
    sys.exit(main())
