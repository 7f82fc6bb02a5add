#!/usr/bin/env python3
"""The resident pages of a binary's mappings in a live process (/proc/PID/pagemap): bytes per
ELF section, and the resident `.text` per crate, named from the demangled symbols (generic code
counts for the crate that defines it: `alloc::vec::Vec<T>::push` is `alloc` whoever
instantiated it). Used by bench/scripts/resident.sh.

    resident.py PID BINARY
"""
import bisect, collections, os, re, struct, subprocess, sys

PAGE = 4096
pid, binary = int(sys.argv[1]), os.path.realpath(sys.argv[2])


def lines(*cmd):
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout.splitlines()


segments = []  # (file offset, address, size in the file) of each LOAD segment
for line in lines("readelf", "-lW", binary):
    f = line.split()
    if f and f[0] == "LOAD":
        segments.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
sections = []  # (address, size, name)
for line in lines("readelf", "-SW", binary):
    m = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+\S+\s+([0-9a-f]+)\s+[0-9a-f]+\s+([0-9a-f]+)", line)
    if m and int(m.group(2), 16):
        sections.append((int(m.group(2), 16), int(m.group(3), 16), m.group(1)))
symbols = []  # (address, size, demangled name) of code
for line in lines("nm", "-nSC", "--defined-only", binary):
    p = line.split(" ", 3)
    if len(p) == 4 and p[2] in "tTwW":
        symbols.append((int(p[0], 16), int(p[1], 16), p[3]))
symbols.sort()
starts = [s[0] for s in symbols]


def crate(name):
    for prefix in ("core::ptr::drop_in_place<", "<"):
        while name.startswith(prefix):
            name = name[len(prefix):]
    name = name.lstrip("&*( ").replace("mut ", "").replace("dyn ", "")
    m = re.match(r"[A-Za-z_][A-Za-z0-9_]*", name)
    return m.group(0) if m else "?"


def address(file_offset):
    for offset, addr, size in segments:
        if offset <= file_offset < offset + size:
            return addr + file_offset - offset
    return None


resident, total, by_crate = collections.Counter(), collections.Counter(), collections.Counter()
with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
    for line in open(f"/proc/{pid}/maps"):
        f = line.split()
        if len(f) < 6 or os.path.realpath(f[5]) != binary:
            continue
        lo, hi = (int(x, 16) for x in f[0].split("-"))
        for page in range(lo, hi, PAGE):
            pagemap.seek(page // PAGE * 8)
            present = struct.unpack("<Q", pagemap.read(8))[0] >> 63 & 1
            v = address(int(f[2], 16) + page - lo)
            if v is None:
                continue
            for start, size, name in sections:
                overlap = min(start + size, v + PAGE) - max(start, v)
                if overlap > 0:
                    total[name] += overlap
                    resident[name] += overlap * present
            if present and "x" in f[1]:
                # The symbols overlapping the page (none of ours is longer than 256 KB).
                i = bisect.bisect_right(starts, v + PAGE) - 1
                while i >= 0 and symbols[i][0] >= v - (1 << 18):
                    start, size, name = symbols[i]
                    overlap = min(start + size, v + PAGE) - max(start, v)
                    if overlap > 0:
                        by_crate[crate(name)] += overlap
                    i -= 1

print("section: resident / size (KB): " + "; ".join(
    f"{s} {resident[s] / 1024:.0f} / {total[s] / 1024:.0f}"
    for s in sorted(total, key=lambda s: -resident[s]) if resident[s] >= 1024))
print("resident .text by crate (KB): " + "; ".join(
    f"{c} {n / 1024:.0f}" for c, n in by_crate.most_common(16)))
