#!/usr/bin/env python3
"""Lists or fills the fields of a PDF form (a sample: it prints what it would do)."""
import sys

print(" ".join(sys.argv[1:]))
