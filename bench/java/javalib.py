"""Shared code of the Java change-impact benchmark.

Used by `mine` (the miner), `run` (materializer + scorer), `baseline-grep`
and `selfcheck`.  Java is parsed with tree-sitter's Java grammar (pinned in
javaenv.py, installed into a venv of the benchmark's own).  Nothing here
stores or prints source code of the mined repositories: the case files hold
metadata only (paths, symbols, line numbers, hashes).
"""
from __future__ import annotations

import difflib
import hashlib
import os
import re
import subprocess
from collections import Counter, OrderedDict, defaultdict

import tree_sitter_java as _tsj
from tree_sitter import Language, Parser

HERE = os.path.dirname(os.path.abspath(__file__))
LANG = Language(_tsj.language())
_PARSER = Parser(LANG)

# ------------------------------------------------------------------ generic
# (git access, -U0 diff parsing, partial-state splicing, SARIF; the same
#  helpers as the shared Python benchmark's benchlib.py)


def split_lines(data: bytes):
    return data.splitlines(keepends=True)


class Git:
    """Minimal git access for a (bare or normal) repository."""

    def __init__(self, gitdir: str):
        self.gitdir = gitdir
        self._cat = None

    def run(self, *args, input=None, check=True) -> bytes:
        p = subprocess.run(
            ["git", "--git-dir", self.gitdir, "-c", "core.quotepath=false", *args],
            input=input, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if check and p.returncode != 0:
            raise RuntimeError("git %s failed: %s" % (" ".join(args[:3]), p.stderr.decode(errors="replace")[:500]))
        return p.stdout

    def cat(self, obj: str):
        """Object content (bytes) for a sha or 'rev:path'; None if missing."""
        if self._cat is None:
            self._cat = subprocess.Popen(["git", "--git-dir", self.gitdir, "cat-file", "--batch"],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._cat.stdin.write(obj.encode("utf-8", "surrogateescape") + b"\n")
        self._cat.stdin.flush()
        header = self._cat.stdout.readline()
        if not header or header.rstrip().endswith(b"missing") or header.rstrip().endswith(b"ambiguous"):
            return None
        parts = header.split()
        size = int(parts[2])
        data = self._cat.stdout.read(size)
        self._cat.stdout.read(1)
        return data

    def close(self):
        if self._cat is not None:
            try:
                self._cat.stdin.close()
                self._cat.wait(timeout=10)
            except Exception:
                self._cat.kill()
            self._cat = None


def blob_sha1(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class LRU(OrderedDict):
    def __init__(self, cap):
        super().__init__()
        self.cap = cap

    def get_or(self, key, fn):
        if key in self:
            self.move_to_end(key)
            return self[key]
        v = fn()
        self[key] = v
        if len(self) > self.cap:
            self.popitem(last=False)
        return v


def apply_replacements(parent_lines, new_lines_by_seed):
    """parent_lines: list of bytes lines.  new_lines_by_seed: list of
    (parent_start, parent_end, replacement_lines).  Returns (lines, ranges in
    partial coordinates, in the given order)."""
    order = sorted(range(len(new_lines_by_seed)), key=lambda i: new_lines_by_seed[i][0])
    out = []
    pos = 1
    ranges = [None] * len(new_lines_by_seed)
    for i in order:
        s, e, repl = new_lines_by_seed[i]
        out.extend(parent_lines[pos - 1:s - 1])
        start = len(out) + 1
        out.extend(repl)
        ranges[i] = (start, len(out)) if repl else (start, start - 1)
        pos = e + 1
    out.extend(parent_lines[pos - 1:])
    return out, ranges


def ensure_newline(lines):
    if lines and not lines[-1].endswith((b"\n", b"\r")):
        lines = lines[:-1] + [lines[-1] + b"\n"]
    return lines


def build_partial_file(parent_data: bytes, commit_data: bytes, seeds):
    """Partial state of one file: parent text with the seed declarations
    replaced by their commit text (or deleted).  seeds: dicts with
    parent_range / commit_range.  Returns (bytes, ranges in partial coords)."""
    pl = split_lines(parent_data)
    cl = split_lines(commit_data) if commit_data is not None else []
    reps = []
    for sd in seeds:
        ps, pe = sd["parent_range"]
        if sd.get("commit_range"):
            cs, ce = sd["commit_range"]
            repl = ensure_newline(cl[cs - 1:ce])
        else:
            repl = []
        reps.append((ps, pe, repl))
    lines, ranges = apply_replacements(pl, reps)
    return b"".join(lines), ranges


def line_mapper(seed_parent_ranges, seed_partial_ranges):
    """Map a parent line number to the partial state (None if inside a seed)."""
    pairs = sorted(zip(seed_parent_ranges, seed_partial_ranges))

    def m(line):
        delta = 0
        for (ps, pe), (qs, qe) in pairs:
            if ps <= line <= pe:
                return None
            if pe < line:
                delta += (qe - qs + 1) - (pe - ps + 1)
        return line + delta
    return m


# ------------------------------------------------------------ line diffs


def parse_u0_hunk_header(line):
    """'@@ -a,b +c,d @@' -> (a, b, c, d)"""
    try:
        _, old, new = line.split(" ", 3)[:3]
        def p(x):
            x = x[1:]
            if "," in x:
                a, b = x.split(",", 1)
                return int(a), int(b)
            return int(x), 1
        a, b = p(old)
        c, d = p(new)
        return a, b, c, d
    except ValueError:
        return None


class U0Diff:
    """Incremental parser of `git diff -U0` / `git log -p -U0` output.
    For each file: old path, new path, changed old lines, insertion points
    (k = inserted after old line k) and the removed old lines' numbers."""

    def __init__(self):
        self.files = {}          # old path -> dict(new, changed:set, inserts:set)
        self._cur = None
        self._rem = 0
        self._add = 0
        self._old_path = None

    def feed(self, line: str):
        if self._rem > 0 or self._add > 0:
            if line.startswith("-") and self._rem > 0:
                self._rem -= 1
                return
            if line.startswith("+") and self._add > 0:
                self._add -= 1
                return
            if line.startswith("\\"):
                return
            self._rem = self._add = 0
        if line.startswith("\\"):
            return
        if line.startswith("diff --git "):
            self._cur = None
            self._old_path = None
        elif line.startswith("--- "):
            p = line[4:].rstrip("\t")
            self._old_path = p[2:] if p.startswith("a/") else None
        elif line.startswith("+++ "):
            p = line[4:].rstrip("\t")
            newp = p[2:] if p.startswith("b/") else None
            key = self._old_path if self._old_path is not None else newp
            self._cur = self.files.setdefault(key, {"new": newp, "old": self._old_path,
                                                   "changed": set(), "inserts": set()})
        elif line.startswith("@@ ") and self._cur is not None:
            h = parse_u0_hunk_header(line)
            if h is None:
                return
            a, b, c, d = h
            if b == 0:
                self._cur["inserts"].add(a)
            else:
                self._cur["changed"].update(range(a, a + b))
            self._rem, self._add = b, d


def unit_changed(u, changed, inserts):
    if any(u.start <= ln <= u.end for ln in changed):
        return True
    return any(u.start <= k < u.end for k in inserts)


# ------------------------------------------------------------- SARIF


def sarif_results(doc):
    """[(level, uri, line)] from a SARIF 2.1.0 document."""
    out = []
    for run in (doc or {}).get("runs", []) or []:
        for r in run.get("results", []) or []:
            level = r.get("level") or "warning"
            if r.get("kind") not in (None, "fail"):
                continue
            locs = r.get("locations") or []
            if not locs:
                continue
            pl = (locs[0] or {}).get("physicalLocation") or {}
            uri = ((pl.get("artifactLocation") or {}).get("uri")) or ""
            line = ((pl.get("region") or {}).get("startLine"))
            try:
                line = int(line) if line is not None else None
            except (TypeError, ValueError):
                line = None
            out.append((level, uri, line))
    return out


def norm_uri(uri: str, root: str) -> str:
    from urllib.parse import unquote, urlparse
    if uri.startswith("file:"):
        uri = unquote(urlparse(uri).path)
    else:
        uri = unquote(uri)
    if os.path.isabs(uri):
        for r in {root, os.path.realpath(root)}:
            try:
                rel = os.path.relpath(os.path.realpath(uri), os.path.realpath(r))
            except ValueError:
                continue
            if not rel.startswith(".."):
                return rel.replace(os.sep, "/")
        return uri
    while uri.startswith("./"):
        uri = uri[2:]
    return uri


def sarif_doc(results, tool_name="baseline"):
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": tool_name, "rules": []}},
            "results": [{
                "ruleId": r.get("ruleId", "impact"),
                "level": r["level"],
                "message": {"text": r.get("message", "")},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": r["file"]},
                    "region": {"startLine": r["line"]}}}],
            } for r in results],
        }],
    }


# ------------------------------------------------------------------ parsing

TYPE_DECLS = {"class_declaration", "interface_declaration", "enum_declaration", "record_declaration",
              "annotation_type_declaration"}
BODY_TYPES = {"class_body", "interface_body", "enum_body", "enum_body_declarations", "annotation_type_body"}
_ANNOT_RX = re.compile(r"@[\w.]+(\([^()]*\))?")
_WS_RX = re.compile(r"\s+")


def row(node):
    return node.start_point[0] + 1


def erow(node):
    return node.end_point[0] + 1


def ntext(node) -> str:
    return node.text.decode("utf-8", "replace")


def norm(s: str) -> str:
    return _WS_RX.sub("", s)


def type_text(node) -> str:
    """A type's text without annotations or white space."""
    return norm(_ANNOT_RX.sub("", ntext(node))) if node is not None else ""


def simple_type_name(node):
    """Simple name of a type node (Foo for a.b.Foo<T>[]), or None."""
    while node is not None:
        t = node.type
        if t == "type_identifier" or t == "identifier":
            return ntext(node)
        if t == "scoped_type_identifier":
            ids = [c for c in node.named_children if c.type == "type_identifier"]
            return ntext(ids[-1]) if ids else None
        if t in ("generic_type", "array_type", "annotated_type"):
            kids = [c for c in node.named_children if c.type not in ("type_arguments", "dimensions", "annotation",
                                                                      "marker_annotation")]
            node = kids[0] if kids else None
            continue
        return None
    return None


def modifiers_of(node):
    for c in node.children:
        if c.type == "modifiers":
            return c
    return None


def modifier_words(node):
    m = modifiers_of(node)
    if m is None:
        return set()
    return {ntext(c) for c in m.children if c.type not in ("annotation", "marker_annotation")}


def params_of(node):
    """(tuple of normalized parameter types, varargs) of a method/ctor."""
    fp = node.child_by_field_name("parameters")
    out, varargs = [], False
    if fp is None:
        return (), False
    for p in fp.named_children:
        if p.type == "formal_parameter":
            t = type_text(p.child_by_field_name("type"))
            d = p.child_by_field_name("dimensions")
            out.append(t + (norm(ntext(d)) if d is not None else ""))
        elif p.type == "spread_parameter":
            ty = [c for c in p.named_children if c.type not in ("modifiers", "variable_declarator", "annotation",
                                                                "marker_annotation")]
            out.append((type_text(ty[0]) if ty else "?") + "...")
            varargs = True
    return tuple(out), varargs


class Member:
    __slots__ = ("kind", "name", "type_qual", "node", "start", "end", "params", "varargs", "ftype", "mods",
                 "abstract", "order")

    def __init__(self, kind, name, type_qual, node, order):
        self.kind, self.name, self.type_qual, self.node, self.order = kind, name, type_qual, node, order
        self.start, self.end = row(node), erow(node)
        self.params, self.varargs, self.ftype = (), False, None
        self.mods = modifier_words(node)
        self.abstract = False

    @property
    def arity(self):
        return len(self.params)

    def key(self):
        return (self.kind, self.name, self.params)


class TypeDecl:
    def __init__(self, qual, node, outer):
        self.qual, self.node, self.outer = qual, node, outer
        self.name = ntext(node.child_by_field_name("name"))
        self.kind = node.type.split("_")[0]          # class interface enum record annotation
        self.start, self.end = row(node), erow(node)
        self.body = node.child_by_field_name("body")
        self.header_end = row(self.body) if self.body is not None else self.end
        self.mods = modifier_words(node)
        self.supers = []
        for c in node.children:
            if c.type in ("superclass", "super_interfaces", "extends_interfaces"):
                for t in _walk(c):
                    if t.type in ("type_identifier", "scoped_type_identifier", "generic_type"):
                        n = simple_type_name(t)
                        if n and n not in self.supers:
                            self.supers.append(n)
        self.superclass = None
        sc = node.child_by_field_name("superclass")
        if sc is not None and sc.named_children:
            self.superclass = simple_type_name(sc.named_children[0])
        self.members = []


class Unit:
    """A place a site can fall into: a method/constructor (with its lambdas
    and anonymous classes), a field declaration, an initializer block, an
    enum constant, a type's header (annotations .. opening brace), an import."""
    __slots__ = ("qual", "kind", "name", "start", "end", "node", "type_qual", "key")

    def __init__(self, qual, kind, name, start, end, node, type_qual):
        self.qual, self.kind, self.name, self.start, self.end = qual, kind, name, start, end
        self.node, self.type_qual = node, type_qual
        self.key = None

    def nodes(self):
        if self.kind == "header":
            return [c for c in self.node.children if c.type not in BODY_TYPES]
        return [self.node]


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


GEN_RX = re.compile(rb"@Generated|DO NOT EDIT|[Aa]uto-?generated|generated by", re.I)


def import_name(stmt: str) -> str:
    """'importstaticp.Q.m;' -> 'static p.Q.m' (the imported name, not the statement)."""
    t = stmt[len("import"):] if stmt.startswith("import") else stmt
    t = t.rstrip(";")
    return "static " + t[len("static"):] if t.startswith("static") else t


class JavaFile:
    def __init__(self, data: bytes):
        self.data = data
        self.lines = split_lines(data)
        self.tree = None
        self.types = {}           # qual -> TypeDecl (named types only)
        self.units = []
        self.imports = []         # (text, node)
        self.static_imports = set()
        try:
            tree = _PARSER.parse(data)
        except Exception:  # noqa: BLE001
            return
        if tree.root_node.has_error:
            return
        self.tree = tree
        root = tree.root_node
        for c in root.named_children:
            if c.type == "import_declaration":
                t = norm(ntext(c))
                self.imports.append((t, c))
                u = Unit("<import>", "import", import_name(t), row(c), erow(c), c, None)
                self.units.append(u)
                if t.startswith("importstatic"):
                    self.static_imports.add(t.rstrip(";").rsplit(".", 1)[-1])
            elif c.type in TYPE_DECLS:
                self._type(c, "", None)
        occ = Counter()
        for u in self.units:
            k = (u.qual, u.kind, u.name)
            u.key = k + (occ[k],)
            occ[k] += 1
        self.generated = bool(GEN_RX.search(b"".join(self.lines[:40])))

    @property
    def ok(self):
        return self.tree is not None

    def _type(self, node, prefix, outer):
        td = TypeDecl(prefix + ntext(node.child_by_field_name("name")), node, outer)
        self.types[td.qual] = td
        q = td.qual
        self.units.append(Unit(q, "header", td.name, td.start, td.header_end, node, q))
        body = td.body
        if body is None:
            return
        order = 0
        kids = list(body.named_children)
        if td.kind == "record":
            ctor = Member("ctor", "<init>", q, node.child_by_field_name("parameters") or node, -1)
            ctor.params, ctor.varargs = params_of(node)
            ctor.start = ctor.end = row(node)
            td.members.append(ctor)
        for m in kids:
            if m.type == "enum_body_declarations":
                kids.extend(m.named_children)
        for m in kids:
            t = m.type
            order += 1
            if t in TYPE_DECLS:
                self._type(m, q + ".", td)
            elif t == "method_declaration" or t == "annotation_type_element_declaration":
                mm = Member("method", ntext(m.child_by_field_name("name")), q, m, order)
                mm.params, mm.varargs = params_of(m)
                mm.ftype = type_text(m.child_by_field_name("type"))
                mm.abstract = m.child_by_field_name("body") is None and "default" not in mm.mods and \
                    "static" not in mm.mods and "native" not in mm.mods and \
                    (td.kind == "interface" or "abstract" in mm.mods)
                td.members.append(mm)
                self.units.append(Unit(q, "method", mm.name, mm.start, mm.end, m, q))
            elif t in ("constructor_declaration", "compact_constructor_declaration"):
                mm = Member("ctor", "<init>", q, m, order)
                if t == "constructor_declaration":
                    mm.params, mm.varargs = params_of(m)
                    td.members.append(mm)
                self.units.append(Unit(q, "ctor", "<init>", mm.start, mm.end, m, q))
            elif t in ("field_declaration", "constant_declaration"):
                ty = type_text(m.child_by_field_name("type"))
                names = []
                for d in m.children_by_field_name("declarator"):
                    nm = d.child_by_field_name("name")
                    if nm is None:
                        continue
                    dims = d.child_by_field_name("dimensions")
                    f = Member("field", ntext(nm), q, m, order)
                    f.ftype = ty + (norm(ntext(dims)) if dims is not None else "")
                    td.members.append(f)
                    names.append(f.name)
                self.units.append(Unit(q, "field", ",".join(names), row(m), erow(m), m, q))
            elif t in ("static_initializer", "block"):
                self.units.append(Unit(q, "init", "<block>", row(m), erow(m), m, q))
            elif t == "enum_constant":
                nm = m.child_by_field_name("name")
                f = Member("field", ntext(nm), q, m, order)
                f.ftype = "<enum>"
                td.members.append(f)
                self.units.append(Unit(q, "enumconst", f.name, row(m), erow(m), m, q))

    def unit_at(self, line):
        best = None
        for u in self.units:
            if u.start <= line <= u.end and (best is None or (u.end - u.start) < (best.end - best.start)):
                best = u
        return best

    def type_of_simple(self, name):
        return [t for t in self.types.values() if t.name == name]


# ------------------------------------------------------------------ seeds

KINDS = ("SIG", "FIELD", "IFACE", "RENAME", "DELETE")


def _sym(td, m):
    if m.kind == "field":
        return "%s#%s" % (td.qual, m.name)
    return "%s#%s(%s)" % (td.qual, m.name, ",".join(m.params))


def _body_text(m):
    b = m.node.child_by_field_name("body")
    return norm(ntext(b)) if b is not None else ""


def _similar(a, b):
    if not a and not b:
        return 1.0
    if not a or not b:
        return 0.0
    return difflib.SequenceMatcher(None, a, b, autojunk=False).ratio()


def _seed(kind, path, npath, td, old_m, new_m, detail, **kw):
    d = {"file": path, "commit_file": npath, "kind": kind, "type": td.qual, "type_simple": td.name,
         "type_kind": td.kind, "detail": detail}
    if old_m is not None:
        d.update(member=old_m.kind, name=old_m.name, symbol=_sym(td, old_m), arity=old_m.arity,
                 varargs=old_m.varargs, static="static" in old_m.mods,
                 parent_range=[old_m.start, old_m.end])
    if new_m is not None:
        d["commit_range"] = [new_m.start, new_m.end]
        d["new_arity"] = new_m.arity
    else:
        d["commit_range"] = None
    d.update(kw)
    return d


def _visible(m, td):
    """Members other files can use (not private; interface members are public)."""
    return "private" not in m.mods


def detect_seeds(old: JavaFile, new: JavaFile, path, npath, deleted=False):
    """Seed declarations between two versions of one file.  new is None for
    a deleted file (its top-level types are DELETE seeds)."""
    out = []
    if deleted or new is None:
        if not old.ok:
            return out
        n = len(old.lines)
        tops = [t for t in old.types.values() if t.outer is None]
        for td in tops:
            if "private" in td.mods:
                continue
            out.append({"file": path, "commit_file": None, "kind": "DELETE", "type": td.qual, "type_simple": td.name,
                        "type_kind": td.kind, "member": "type", "name": td.name, "symbol": td.qual,
                        "detail": "file deleted: %s %s" % (td.kind, td.qual), "parent_range": [1, n],
                        "commit_range": None, "deleted_file": True})
        return out[:1]      # one seed per deleted file (its first non-private top-level type)
    if not (old.ok and new.ok):
        return out
    for q, td in old.types.items():
        if td.outer is not None and td.outer.qual not in old.types:
            continue
        ntd = new.types.get(q)
        if ntd is None:
            if "private" in td.mods or any(t.name == td.name for t in new.types.values()):
                continue
            if td.outer is not None and td.outer.qual not in new.types:
                continue   # the enclosing type went too: that one is the seed
            out.append({"file": path, "commit_file": npath, "kind": "DELETE", "type": td.qual,
                        "type_simple": td.name, "type_kind": td.kind, "member": "type", "name": td.name,
                        "symbol": td.qual, "detail": "%s %s deleted" % (td.kind, td.qual),
                        "parent_range": [td.start, td.end], "commit_range": None})
            continue
        out.extend(_member_seeds(td, ntd, path, npath))
    return out


def _member_seeds(td, ntd, path, npath):
    out = []
    om = defaultdict(list)
    nm = defaultdict(list)
    for m in td.members:
        if m.order >= 0:
            om[(m.kind, m.name)].append(m)
    for m in ntd.members:
        if m.order >= 0:
            nm[(m.kind, m.name)].append(m)
    used_new = set()
    # methods and constructors
    removed_names = []
    for (kind, name), olds in om.items():
        if kind == "field":
            continue
        news = nm.get((kind, name), [])
        osig = {m.params: m for m in olds}
        nsig = {m.params: m for m in news}
        if len(osig) != len(olds) or len(nsig) != len(news):
            continue
        gone = [osig[p] for p in osig if p not in nsig]
        added = [nsig[p] for p in nsig if p not in osig]
        if not news:
            if kind == "method" and all(_visible(m, td) for m in olds):
                removed_names.append((name, olds))
            continue
        gone = [m for m in gone if _visible(m, td)]
        if not gone:
            continue
        if len(gone) == 1 and len(added) == 1:
            o, n = gone[0], added[0]
            out.append(_seed("SIG", path, npath, td, o, n, "%s(%s) -> (%s)" % (
                name, ",".join(o.params), ",".join(n.params)), new_symbol=_sym(ntd, n)))
            used_new.add(id(n))
        elif not added:
            for o in gone:
                if kind == "ctor" and not news:
                    continue
                out.append(_seed("DELETE", path, npath, td, o, None, "overload %s(%s) deleted" % (
                    name, ",".join(o.params))))
    # renames: a name that is gone, a new name with the same parameters and a similar body
    new_only = {k: v for k, v in nm.items() if k[0] == "method" and k not in om}
    for name, olds in removed_names:
        if len(olds) != 1:
            for o in olds:
                out.append(_seed("DELETE", path, npath, td, o, None, "method %s(%s) deleted" % (
                    name, ",".join(o.params))))
            continue
        o = olds[0]
        best, score = None, 0.0
        for (k, nname), news in new_only.items():
            if len(news) != 1 or news[0].params != o.params or id(news[0]) in used_new:
                continue
            s = _similar(_body_text(o).replace(name, nname), _body_text(news[0]))
            if s > score:
                best, score = news[0], s
        if best is not None and score >= 0.6:
            used_new.add(id(best))
            out.append(_seed("RENAME", path, npath, td, o, best, "%s -> %s" % (name, best.name),
                             new_symbol=_sym(ntd, best), new_name=best.name))
        else:
            out.append(_seed("DELETE", path, npath, td, o, None, "method %s(%s) deleted" % (
                name, ",".join(o.params))))
    # fields
    ofields = {m.name: m for m in td.members if m.kind == "field" and m.ftype != "<enum>"}
    nfields = {m.name: m for m in ntd.members if m.kind == "field" and m.ftype != "<enum>"}
    for name, o in ofields.items():
        if not _visible(o, td) or len(o.node.children_by_field_name("declarator")) != 1:
            continue
        n = nfields.get(name)
        if n is not None:
            if n.ftype != o.ftype and len(n.node.children_by_field_name("declarator")) == 1:
                out.append(_seed("FIELD", path, npath, td, o, n, "%s: %s -> %s" % (name, o.ftype, n.ftype),
                                 new_symbol=_sym(ntd, n), change="retyped"))
            continue
        cands = [m for nn, m in nfields.items() if nn not in ofields and m.ftype == o.ftype and
                 len(m.node.children_by_field_name("declarator")) == 1]
        if len(cands) == 1:
            n = cands[0]
            out.append(_seed("FIELD", path, npath, td, o, n, "%s -> %s" % (name, n.name),
                             new_symbol=_sym(ntd, n), new_name=n.name, change="renamed"))
        else:
            out.append(_seed("DELETE", path, npath, td, o, None, "field %s deleted" % name))
    # abstract methods added to interfaces / abstract classes
    if td.kind == "interface" or (td.kind == "class" and "abstract" in td.mods):
        old_keys = {m.key() for m in td.members}
        for i, m in enumerate(ntd.members):
            if m.kind != "method" or not m.abstract or m.key() in old_keys or "private" in m.mods:
                continue
            if (m.kind, m.name) in om:
                continue     # an overload of an existing method: callers are unaffected
            # insertion point: after the member that precedes it in the new text
            ins = None
            for p in reversed(ntd.members[:i]):
                if p.order < 0:
                    continue
                cand = [x for x in td.members if x.key() == p.key() and x.order >= 0]
                if cand:
                    ins = cand[0].end
                    break
            if ins is None:
                ins = td.header_end
            d = {"file": path, "commit_file": npath, "kind": "IFACE", "type": td.qual, "type_simple": td.name,
                 "type_kind": td.kind, "member": "method", "name": m.name, "symbol": _sym(ntd, m),
                 "arity": m.arity, "varargs": m.varargs, "static": False,
                 "detail": "abstract %s(%s) added to %s %s" % (m.name, ",".join(m.params), td.kind, td.qual),
                 "parent_range": [ins + 1, ins], "commit_range": [m.start, m.end], "new_arity": m.arity}
            out.append(d)
    return out


# ------------------------------------------------------------------ references

class RefSpec:
    """How the sites that depend on one seed are found (by name, narrowed by
    the syntax: arity of calls, the type hierarchy for overrides, super(...)
    and unqualified calls)."""

    def __init__(self, idx, seed):
        self.idx = idx
        self.seed = seed
        self.kind = seed["kind"]
        self.member = seed.get("member")
        self.name = seed.get("name")
        self.owner = seed["type_simple"]
        self.arity = seed.get("arity", 0)
        self.varargs = seed.get("varargs", False)
        self.file = seed["file"]
        self.rng = tuple(seed["parent_range"])
        self.subtypes = {self.owner}     # filled by the miner (transitive, simple names)

    def grep_name(self):
        if self.member == "ctor" or self.kind == "IFACE" or self.member == "type":
            return self.owner if self.member != "type" else self.name
        return self.name

    def arity_ok(self, n):
        if self.varargs:
            return n >= self.arity - 1
        return n == self.arity


def _nargs(node):
    a = node.child_by_field_name("arguments")
    return len(a.named_children) if a is not None else 0


def _ref_text(jf, node, whole_node):
    if whole_node:
        return norm(ntext(node))
    s, e = row(node), erow(node)
    return norm(b"".join(jf.lines[s - 1:e]).decode("utf-8", "replace"))


def _enclosing_types(node):
    """Simple names of the named types and anonymous-class types around node,
    innermost first."""
    out = []
    n = node.parent
    while n is not None:
        if n.type in TYPE_DECLS:
            nm = n.child_by_field_name("name")
            if nm is not None:
                out.append(("named", ntext(nm), n))
        elif n.type == "object_creation_expression" and any(c.type == "class_body" for c in n.children):
            out.append(("anon", simple_type_name(n.child_by_field_name("type")), n))
        n = n.parent
    return out


def _type_supers(tnode):
    out = []
    for c in tnode.children:
        if c.type in ("superclass", "super_interfaces", "extends_interfaces"):
            for t in _walk(c):
                if t.type in ("type_identifier", "scoped_type_identifier", "generic_type"):
                    n = simple_type_name(t)
                    if n:
                        out.append(n)
    return out


def _related(node, spec):
    """Is node inside a type of the seed owner's hierarchy (where an
    unqualified name can resolve to the seed)?"""
    for kind, name, tn in _enclosing_types(node):
        if name in spec.subtypes:
            return True
        if kind == "named" and any(s in spec.subtypes for s in _type_supers(tn)):
            return True
    return False


def find_refs(jf: JavaFile, unit: Unit, spec: RefSpec):
    """[(line, fingerprint)] of the references to spec inside unit."""
    out = []
    name, owner = spec.name, spec.owner
    member, kind = spec.member, spec.kind
    if kind == "IFACE":
        return _iface_refs(jf, unit, spec)
    for root in unit.nodes():
        for n in _walk(root):
            t = n.type
            if member == "method":
                if t == "method_invocation":
                    nm = n.child_by_field_name("name")
                    if nm is None or ntext(nm) != name or not spec.arity_ok(_nargs(n)):
                        continue
                    obj = n.child_by_field_name("object")
                    if obj is None or obj.type in ("super", "this"):
                        if not (_related(n, spec) or name in jf.static_imports):
                            continue
                    out.append((row(nm), "call:" + _ref_text(jf, n, True)))
                elif t == "method_reference":
                    last = n.children[-1] if n.children else None
                    if last is not None and last.type == "identifier" and ntext(last) == name:
                        out.append((row(last), "mref:" + _ref_text(jf, n, True)))
                elif t == "method_declaration":
                    nm = n.child_by_field_name("name")
                    if nm is None or ntext(nm) != name:
                        continue
                    ps, va = params_of(n)
                    if len(ps) != spec.arity:
                        continue
                    encl = _enclosing_types(n)
                    if not encl:
                        continue
                    ek, en, etn = encl[0]
                    if ek == "named" and en == owner:
                        continue          # the same type: an overload, not an override
                    sup = _type_supers(etn) if ek == "named" else [en]
                    if any(s in spec.subtypes for s in sup) or en in spec.subtypes:
                        body = n.child_by_field_name("body")
                        hdr = "".join(ntext(c) for c in n.children if body is None or c != body)
                        out.append((row(nm), "override:" + norm(hdr)))
            elif member == "ctor":
                if t == "object_creation_expression":
                    if simple_type_name(n.child_by_field_name("type")) == owner and spec.arity_ok(_nargs(n)):
                        out.append((row(n), "new:" + _ref_text(jf, n, True)))
                elif t == "explicit_constructor_invocation":
                    c = n.child_by_field_name("constructor")
                    if c is None or not spec.arity_ok(_nargs(n)):
                        continue
                    encl = [e for e in _enclosing_types(n) if e[0] == "named"]
                    if not encl:
                        continue
                    tn = encl[0][2]
                    if c.type == "super":
                        sc = tn.child_by_field_name("superclass")
                        if sc is None or not sc.named_children or simple_type_name(sc.named_children[0]) != owner:
                            continue
                    elif encl[0][1] != owner:
                        continue
                    out.append((row(n), "ctorcall:" + _ref_text(jf, n, True)))
                elif t == "method_reference":
                    if n.children and n.children[-1].type == "new" and n.named_children and \
                            simple_type_name(n.named_children[0]) == owner:
                        out.append((row(n), "mref:" + _ref_text(jf, n, True)))
                elif t == "enum_constant" and spec.seed.get("type_kind") == "enum":
                    encl = _enclosing_types(n)
                    if encl and encl[0][1] == owner and spec.arity_ok(_nargs(n)):
                        out.append((row(n), "enumconst:" + _ref_text(jf, n.child_by_field_name("arguments") or n,
                                                                      True)))
            elif member == "field":
                if t == "field_access":
                    f = n.child_by_field_name("field")
                    if f is not None and ntext(f) == name:
                        out.append((row(f), "field:" + _ref_text(jf, f, False)))
                elif t == "identifier" and ntext(n) == name:
                    p = n.parent
                    if p is None or p.type in ("field_access", "method_invocation", "variable_declarator",
                                               "formal_parameter", "method_declaration", "enum_constant",
                                               "method_reference", "catch_formal_parameter", "labeled_statement",
                                               "break_statement", "continue_statement", "spread_parameter",
                                               "scoped_identifier", "lambda_expression", "inferred_parameters",
                                               "element_value_pair"):
                        if not (p is not None and p.type == "method_invocation" and
                                p.child_by_field_name("object") == n):
                            continue
                    if _related(n, spec) or name in jf.static_imports:
                        out.append((row(n), "field:" + _ref_text(jf, n, False)))
                elif t == "import_declaration" and norm(ntext(n)).rstrip(";").endswith("." + name):
                    out.append((row(n), "import:" + norm(ntext(n))))
            elif member == "type":
                if t in ("type_identifier", "identifier") and ntext(n) == name:
                    p = n.parent
                    if p is not None and p.type in TYPE_DECLS and p.child_by_field_name("name") == n:
                        continue
                    out.append((row(n), "type:" + _ref_text(jf, n, False)))
    return out


def _iface_refs(jf, unit, spec):
    """Implementers of an interface / abstract class that gains an abstract
    method: named types whose header names the owner, anonymous classes of it."""
    out = []
    if unit.kind == "header":
        td = jf.types.get(unit.qual)
        if td is not None and spec.owner in td.supers and td.kind in ("class", "enum", "record") and \
                not (td.kind == "class" and "abstract" in td.mods):
            has = sum(1 for m in td.members if m.kind == "method" and m.name == spec.name and m.arity == spec.arity)
            out.append((td.start, "impl:%d" % has))
        return out
    for root in unit.nodes():
        for n in _walk(root):
            if n.type == "object_creation_expression" and simple_type_name(n.child_by_field_name("type")) == spec.owner:
                body = [c for c in n.children if c.type == "class_body"]
                if not body:
                    continue
                has = 0
                for c in body[0].named_children:
                    if c.type == "method_declaration" and ntext(c.child_by_field_name("name")) == spec.name:
                        has += 1
                out.append((row(n), "anon:%d" % has))
    return out


def iface_fixed(old_refs, new_refs):
    """The commit implemented the added method here."""
    oc = Counter(fp for _, fp in old_refs)
    nc = Counter(fp for _, fp in new_refs)
    return bool(oc - nc) and sum(int(fp.split(":")[1]) for fp in nc.elements()) > \
        sum(int(fp.split(":")[1]) for fp in oc.elements())


# ------------------------------------------------------------------ materializing

IDENT = b"Bench <bench@example.invalid> 1700000000 +0000"


def partial_files(git: Git, case):
    """{parent path: (partial bytes or None for a deleted file, [seed ranges in partial coords])}"""
    by_file = defaultdict(list)
    for sd in case["seed"]:
        by_file[sd["file"]].append(sd)
    out = {}
    for f, seeds in by_file.items():
        seeds = sorted(seeds, key=lambda s: s["parent_range"][0])
        if any(s.get("deleted_file") for s in seeds):
            out[f] = (None, [])
            continue
        pdata = git.cat("%s:%s" % (case["parent"], f))
        cdata = git.cat("%s:%s" % (case["commit"], seeds[0].get("commit_file") or f))
        if pdata is None or cdata is None:
            raise RuntimeError("seed file %s missing in git objects" % f)
        data, ranges = build_partial_file(pdata, cdata, seeds)
        want = seeds[0].get("partial_blob")
        if want and blob_sha1(data) != want:
            raise RuntimeError("partial state of %s does not match the mined hash" % f)
        out[f] = (data, ranges)
    return out


def mirror_root():
    return os.environ.get("BENCH_MIRROR") or "/work/.mirror"


def gitdir_for(repo):
    base = os.path.join(mirror_root(), repo.replace("/", "+"))
    for cand in (os.path.join(base, "repo"), os.path.join(base, "repo", ".git"), base):
        if os.path.isdir(cand) and (os.path.exists(os.path.join(cand, "HEAD"))):
            return cand
    return os.path.join(base, "repo")
