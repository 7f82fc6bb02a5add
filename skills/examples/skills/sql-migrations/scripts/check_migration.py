#!/usr/bin/env python3
"""Flag risky statements in SQL migration files.

Usage: check_migration.py [--dialect postgres|sqlite] FILE.sql...

Prints one line per finding, `FILE:LINE: level: message`, and exits with status 1 when any
finding is an error, 0 otherwise. It reads SQL text only; no database is needed. It is a
heuristic: it does not parse SQL, so read each finding before acting on it.
"""

import argparse
import re
import sys

# (dialects, level, pattern, message). Patterns run on one statement with comments removed
# and whitespace collapsed, upper-cased.
RULES = [
    ({"postgres", "sqlite"}, "error", r"\bDROP\s+TABLE\b",
     "drops a table: make sure the data is backed up and no deployed code uses it"),
    ({"postgres", "sqlite"}, "error", r"\bDROP\s+COLUMN\b",
     "drops a column: stop reading and writing it in a deploy before this one"),
    ({"postgres", "sqlite"}, "error", r"\bRENAME\s+COLUMN\b",
     "renaming a column breaks the deployed code: add the new one, copy, drop the old one later"),
    ({"postgres", "sqlite"}, "error", r"^ALTER\s+TABLE\s+(IF\s+EXISTS\s+)?(?!\w+_NEW\s)\w+\s+RENAME\s+TO\b",
     "renaming a table breaks the deployed code: create a view with the old name meanwhile"),
    ({"postgres", "sqlite"}, "warning", r"\bTRUNCATE\b|\bDELETE\s+FROM\s+\w+\s*;?$",
     "deletes every row of a table"),
    ({"postgres", "sqlite"}, "warning", r"^UPDATE\s+\w+\s+SET\b(?!.*\bWHERE\b)",
     "updates every row in one statement: backfill large tables in batches"),
    ({"postgres"}, "error", r"\bCREATE\s+(UNIQUE\s+)?INDEX\b(?!\s+CONCURRENTLY)",
     "CREATE INDEX blocks writes: use CREATE INDEX CONCURRENTLY (outside a transaction)"),
    ({"postgres"}, "error", r"\bALTER\s+COLUMN\s+\w+\s+(SET\s+DATA\s+)?TYPE\b",
     "changing a column type rewrites the table under an exclusive lock"),
    ({"postgres"}, "warning", r"\bALTER\s+COLUMN\s+\w+\s+SET\s+NOT\s+NULL\b",
     "SET NOT NULL scans the table under an exclusive lock: validate a CHECK constraint first"),
    ({"postgres"}, "warning", r"\bADD\s+(CONSTRAINT\s+\w+\s+)?(FOREIGN\s+KEY|CHECK)\b(?!.*\bNOT\s+VALID\b)",
     "the new constraint is checked against every row under a lock: add it NOT VALID, then VALIDATE"),
    ({"postgres"}, "warning", r"\bADD\s+COLUMN\b.*\bDEFAULT\s+(NOW|CLOCK_TIMESTAMP|RANDOM|GEN_RANDOM_UUID)\s*\(",
     "a volatile default rewrites the table: add the column without it and backfill"),
    ({"sqlite"}, "error", r"\bADD\s+COLUMN\b.*\bNOT\s+NULL\b(?!.*\bDEFAULT\b)",
     "SQLite cannot add a NOT NULL column without a default"),
    ({"sqlite"}, "error", r"\bADD\s+COLUMN\b.*\b(PRIMARY\s+KEY|UNIQUE)\b",
     "SQLite cannot add a PRIMARY KEY or UNIQUE column: rebuild the table"),
    ({"sqlite"}, "error", r"\bALTER\s+COLUMN\b|\bADD\s+CONSTRAINT\b",
     "SQLite has no ALTER COLUMN or ADD CONSTRAINT: rebuild the table"),
]


def statements(text):
    """Yield (line number, normalised statement) for each ;-terminated statement."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), text, flags=re.S)
    text = re.sub(r"--[^\n]*", "", text)
    line = 1
    for part in re.split(r"(;)", text):
        if part == ";":
            continue
        stripped = part.lstrip()
        first = line + part[: len(part) - len(stripped)].count("\n")
        line += part.count("\n")
        if stripped:
            yield first, " ".join(stripped.split()).upper()


def check(path, dialect):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    findings = []
    postgres_lock_timeout = re.search(r"\block_timeout\b", text, re.I)
    stmts = list(statements(text))
    # A table rebuild (create X_new, copy, drop X, rename X_new to X) drops X on purpose.
    rebuilt = {m.group(1) for _, s in stmts for m in [re.search(r"_NEW\s+RENAME\s+TO\s+(\w+)", s)] if m}
    for line, stmt in stmts:
        dropped = re.match(r"DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(\w+)", stmt)
        if dropped and dropped.group(1) in rebuilt:
            continue
        for dialects, level, pattern, message in RULES:
            if dialect in dialects and re.search(pattern, stmt):
                findings.append((line, level, message))
    if dialect == "postgres" and findings and not postgres_lock_timeout:
        findings.append((1, "warning", "no SET lock_timeout: a blocked migration will queue every query"))
    for line, level, message in sorted(findings):
        print(f"{path}:{line}: {level}: {message}")
    return any(level == "error" for _, level, _ in findings)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dialect", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("files", nargs="+", metavar="FILE.sql")
    args = parser.parse_args()
    failed = False
    for path in args.files:
        try:
            failed |= check(path, args.dialect)
        except OSError as e:
            print(f"{path}: error: {e.strerror}", file=sys.stderr)
            sys.exit(2)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
