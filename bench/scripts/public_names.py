#!/usr/bin/env python3
"""Counts the public names of the facade `skills_embed` (all features), from rustdoc JSON.

Run by bench/scripts/public_names.sh. Walks the facade's root, following `pub use` into the
runtime crate; skips `#[doc(hidden)]` items and re-exported foreign crates (schemars).
Counts: paths (every way to name an item), items by kind, and public functions
(free functions plus the inherent methods of reached types and the methods of reached traits),
and which of those items and functions have no code example in their docs (constants left out:
their docs say where an example uses them). `--examples`: list those and fail if there is one.
"""
import json, sys, collections

fac = json.load(open(sys.argv[1]))
rt = json.load(open(sys.argv[2]))
detail = "-v" in sys.argv[3:]
examples = "--examples" in sys.argv[3:]

def item(doc, i):
    return doc["index"].get(str(i))

def hidden(it):
    attrs = it.get("attrs") or []
    return any("hidden" in json.dumps(a) for a in attrs)

def runtime_root_lookup(name):
    root = item(rt, rt["root"])
    for i in root["inner"]["module"]["items"]:
        it = item(rt, i)
        if it is None:
            continue
        if it.get("name") == name:
            return it
        u = it["inner"].get("use")
        if u and u["name"] == name:
            return it
    return None

paths = []            # (path, kind, key)
kinds = {}            # key -> kind
fns = set()
without_example = set()  # names of items and functions whose docs show no code
per_module = collections.Counter()
seen_mod = set()

def kind_of(it):
    return next(iter(it["inner"].keys()))

def note_example(it, name):
    if "```" not in (it.get("docs") or ""):
        without_example.add(name)

def resolve_use(doc, it):
    """Return (doc, item) for a use item, or None when foreign."""
    u = it["inner"]["use"]
    tid = u.get("id")
    if doc is fac:
        src = u["source"]
        if src.startswith("skills_embed_runtime::"):
            rest = src.split("::")[1:]
            cur = runtime_root_lookup(rest[0])
            if cur is None:
                return None
            while kind_of(cur) == "use":
                r = resolve_use(rt, cur)
                if r is None:
                    return None
                cur = r[1]
            return (rt, cur)
        # A re-export of the facade's own item (`pub use skill_command::SkillCommand`); a
        # foreign crate's item is not in the index.
        t = item(fac, tid) if tid is not None else None
        return (fac, t) if t is not None else None
    if tid is None:
        return None
    t = item(rt, tid)
    if t is None:
        return None
    return (rt, t)

def methods(doc, it, owner):
    k = kind_of(it)
    inner = it["inner"][k]
    if k in ("struct", "enum", "union"):
        for iid in inner.get("impls", []):
            imp = item(doc, iid)
            if imp is None: continue
            ii = imp["inner"]["impl"]
            if ii.get("trait") is not None or ii.get("is_synthetic") or ii.get("blanket_impl"):
                continue
            for mid in ii["items"]:
                m = item(doc, mid)
                if m and m.get("visibility") == "public" and not hidden(m) and kind_of(m) == "function":
                    fns.add((doc is fac, owner + "::" + m["name"]))
                    note_example(m, owner + "::" + m["name"])
    if k == "trait":
        for mid in inner["items"]:
            m = item(doc, mid)
            if m and kind_of(m) == "function":
                fns.add((doc is fac, owner + "::" + m["name"]))
                note_example(m, owner + "::" + m["name"])

def walk(doc, mod, prefix):
    key = (doc is fac, mod["id"])
    if key in seen_mod:
        # a second path to a module counts its items' paths again
        pass
    seen_mod.add(key)
    for i in mod["inner"]["module"]["items"]:
        it = item(doc, i)
        if it is None or hidden(it) or it.get("visibility") not in ("public", None) and doc is not fac and kind_of(it) != "use":
            pass
        if it is None or hidden(it):
            continue
        if it.get("visibility") != "public":
            continue
        d2, t = doc, it
        name = it.get("name")
        if kind_of(it) == "use":
            u = it["inner"]["use"]
            name = u["name"]
            if u.get("is_glob"):
                r = resolve_use(doc, it)
                if r: walk(r[0], r[1], prefix)
                continue
            r = resolve_use(doc, it)
            if r is None:
                continue
            d2, t = r
            if hidden(t):
                continue
        k = kind_of(t)
        path = prefix + "::" + name
        ikey = (d2 is fac, t["id"])
        if k == "module":
            per_module[path] += 0
            if ikey in seen_mod:
                paths.append((path, "module", ikey))
                continue
            paths.append((path, "module", ikey))
            kinds[ikey] = "module"
            walk(d2, t, path)
            continue
        paths.append((path, k, ikey))
        per_module[prefix] += 1
        if ikey not in kinds:
            kinds[ikey] = k
            if k != "constant":
                note_example(t, path)
            if k == "function":
                fns.add((d2 is fac, path))
            methods(d2, t, path)

walk(fac, item(fac, fac["root"]), "skills_embed")

by_key = collections.defaultdict(list)
for p, k, key in paths:
    by_key[key].append(p)
types = [k for k in kinds if kinds[k] in ("struct", "enum", "union", "trait", "type_alias")]
c = collections.Counter(kinds.values())
dupes = {k: v for k, v in by_key.items() if len(v) > 1}
root_names = [p for p, k, key in paths if p.count("::") == 1]
print(f"paths (public names, each way to name an item): {len(paths)}")
print(f"distinct items: {len(kinds)}  by kind: {dict(sorted(c.items()))}")
print(f"types (struct, enum, trait, alias): {len(types)}")
print(f"functions (free + inherent methods + trait methods): {len(fns)}")
print(f"names at the root: {len(root_names)}")
print(f"items reachable by more than one path: {len(dupes)}")
documented = len(kinds) - c["module"] - c["constant"] - c["function"] + len(fns)
print(f"items and functions with a code example (constants left out): "
      f"{documented - len(without_example)} of {documented}")
print("per module (items named there, modules excluded):")
for m, n in sorted(per_module.items()):
    print(f"  {m}: {n}")
if detail:
    for p, k, key in sorted(paths):
        print(f"{k:10} {p}")
    for f in sorted(fns):
        print("fn", f[1])
    for k, v in dupes.items():
        print("dup", v)
if examples:
    for name in sorted(without_example):
        print("no example:", name)
    sys.exit(1 if without_example else 0)
