#!/bin/sh
# Lists the commits between two revisions as Markdown, grouped by Conventional Commits type.
#
# Usage: changelog.sh [FROM [TO]]
#   FROM  tag or commit to start after (default: the most recent tag, or the first commit)
#   TO    revision to end at (default: HEAD)
#
# Prints to standard output; changes nothing in the repository.
set -eu

if ! git rev-parse --git-dir >/dev/null 2>&1; then
    echo "changelog.sh: not inside a git repository" >&2
    exit 2
fi

to=${2:-HEAD}
if [ $# -ge 1 ]; then
    range="$1..$to"
elif from=$(git describe --tags --abbrev=0 "$to" 2>/dev/null); then
    range="$from..$to"
else
    range=$to
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# One record per commit: hash, subject, then whether the body declares a breaking change.
# %x1f separates fields and %x1e ends a record, so subjects may hold any other character.
git log --no-merges --reverse --format='%h%x1f%s%x1f%b%x1e' "$range" |
    awk -v dir="$tmp" 'BEGIN { RS = "\036"; FS = "\037" }
    {
        sub(/^\n+/, "", $1)
        if ($1 == "") next
        hash = $1; subject = $2
        breaking = ($3 ~ /(^|\n)BREAKING[ -]CHANGE:/)
        type = "other"; text = subject
        if (match(subject, /^[a-z]+(\([^)]*\))?!?: /)) {
            prefix = substr(subject, 1, RLENGTH - 2)
            text = substr(subject, RLENGTH + 1)
            if (prefix ~ /!$/) breaking = 1
            sub(/[(!].*$/, "", prefix)
            if (prefix == "feat" || prefix == "fix" || prefix == "perf" || prefix == "docs") type = prefix
        }
        line = "- " text " (" hash ")"
        print line > (dir "/" type)
        if (breaking) print line > (dir "/breaking")
    }'

section() {
    if [ -s "$tmp/$1" ]; then
        printf '## %s\n\n' "$2"
        cat "$tmp/$1"
        printf '\n'
    fi
}

printf '# Changes in %s\n\n' "$range"
section breaking "Breaking changes"
section feat "Features"
section fix "Fixes"
section perf "Performance"
section docs "Documentation"
section other "Other"
