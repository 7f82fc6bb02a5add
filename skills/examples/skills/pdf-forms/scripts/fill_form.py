#!/usr/bin/env python3
"""List or fill the interactive fields of a PDF form.

Usage:
    fill_form.py fields FORM.pdf
    fill_form.py fill FORM.pdf VALUES.json OUT.pdf [--flatten]

`fields` prints a JSON array describing every field. `fill` writes the values from
VALUES.json (an object of field name to value) into a copy of the form.
Requires pypdf (pip install pypdf).
"""

import json
import sys

try:
    from pypdf import PdfReader, PdfWriter
except ImportError:
    sys.exit("fill_form.py needs pypdf: pip install pypdf")

TYPES = {"/Tx": "text", "/Btn": "button", "/Ch": "choice", "/Sig": "signature"}
READ_ONLY, REQUIRED = 1, 2
MULTILINE, RADIO, COMBO = 1 << 12, 1 << 15, 1 << 17


def describe(name, field):
    kind = TYPES.get(field.get("/FT"), "unknown")
    flags = int(field.get("/Ff", 0))
    if kind == "button":
        kind = "radio" if flags & RADIO else "checkbox"
    info = {
        "name": name,
        "type": kind,
        "value": str(field["/V"]) if "/V" in field else None,
        "alt": str(field.get("/TU")) if field.get("/TU") else None,
        "read_only": bool(flags & READ_ONLY),
        "required": bool(flags & REQUIRED),
    }
    if kind == "text":
        info["multiline"] = bool(flags & MULTILINE)
        if "/MaxLen" in field:
            info["max_length"] = int(field["/MaxLen"])
    if kind in ("checkbox", "radio"):
        info["options"] = [str(s) for s in field.get("/_States_", [])]
    if kind == "choice":
        info["combo"] = bool(flags & COMBO)
        # An option is a string, or a pair [export value, display text]: the form stores the
        # export value, so that is what `options` lists and what a fill must write.
        pairs = [
            (str(o[0]), str(o[1])) if isinstance(o, list) else (str(o), str(o))
            for o in field.get("/Opt", [])
        ]
        info["options"] = [value for value, _ in pairs]
        if any(value != label for value, label in pairs):
            info["option_labels"] = [label for _, label in pairs]
    return info


def list_fields(path):
    fields = PdfReader(path).get_fields() or {}
    print(json.dumps([describe(n, f) for n, f in fields.items()], indent=2))


def fill(path, values_path, out_path, flatten):
    with open(values_path, encoding="utf-8") as f:
        values = json.load(f)
    reader = PdfReader(path)
    known = reader.get_fields() or {}
    unknown = sorted(set(values) - set(known))
    if unknown:
        sys.exit("no such field(s): " + ", ".join(unknown))
    writer = PdfWriter(clone_from=reader)
    writer.set_need_appearances_writer(True)
    extra = {"flatten": True} if flatten else {}
    for page in writer.pages:
        try:
            writer.update_page_form_field_values(page, values, auto_regenerate=False, **extra)
        except TypeError:
            sys.exit("--flatten needs pypdf 5 or newer: pip install -U pypdf")
    with open(out_path, "wb") as f:
        writer.write(f)
    print(f"filled {len(values)} field(s) into {out_path}")


def main(argv):
    if len(argv) == 3 and argv[1] == "fields":
        list_fields(argv[2])
    elif len(argv) in (5, 6) and argv[1] == "fill" and argv[5:] in ([], ["--flatten"]):
        fill(argv[2], argv[3], argv[4], flatten=len(argv) == 6)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
