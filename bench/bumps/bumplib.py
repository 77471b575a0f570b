"""Shared code of the Go dependency-bump benchmark (bench/bumps).

Git access, go.mod reading (through `go mod edit -json`, the Go
toolchain's own parser), the Go syntax helper (gosyntax/, go/parser),
bump detection, import ownership, -U0 diff parsing, module availability
(`go mod download -json`) and SARIF. Python 3 standard library only.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
BUMP_BASENAMES = {"go.mod", "go.sum", "go.work", "go.work.sum"}
MODFILE_BASENAMES = {"go.mod", "go.work"}


def bench_work():
    return os.environ.get("BENCH_WORK", "/tmp/ripple-bench")


def mirror_root():
    return os.environ.get("BENCH_MIRROR", "/work/.mirror")


def gitdir_for(repo):
    base = os.path.join(mirror_root(), repo.replace("/", "+"))
    for cand in (os.path.join(base, "repo", ".git"), os.path.join(base, "repo"), base):
        if os.path.isdir(cand) and os.path.exists(os.path.join(cand, "HEAD")) and \
                os.path.isdir(os.path.join(cand, "objects")):
            return cand
    return os.path.join(base, "repo")


def parts(path):
    return path.split("/")


def in_vendor(path):
    return "vendor" in parts(path)[:-1]


def excluded_code(path):
    """A .go path that is not the project's own code (vendored or test data)."""
    ps = parts(path)[:-1]
    return "vendor" in ps or "testdata" in ps


def is_bump_file(path):
    """go.mod, go.sum, go.work, go.work.sum (anywhere) and anything under a vendor/ folder."""
    return parts(path)[-1] in BUMP_BASENAMES or in_vendor(path)


def is_modfile(path):
    """A go.mod or go.work that declares the project's requirements (not vendored, not test data)."""
    ps = parts(path)
    return ps[-1] in MODFILE_BASENAMES and "vendor" not in ps[:-1] and "testdata" not in ps[:-1]


# ------------------------------------------------------------------ git


class Git:
    def __init__(self, gitdir):
        self.gitdir = gitdir
        self._cat = None
        self._lock = threading.Lock()

    def run(self, *args, input=None, check=True):
        p = subprocess.run(["git", "--git-dir", self.gitdir, "-c", "core.quotepath=false", *args],
                           input=input, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if check and p.returncode != 0:
            raise RuntimeError("git %s failed: %s" % (" ".join(args[:3]), p.stderr.decode(errors="replace")[:500]))
        return p.stdout

    def cat(self, obj):
        with self._lock:
            if self._cat is None:
                self._cat = subprocess.Popen(["git", "--git-dir", self.gitdir, "cat-file", "--batch"],
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
            self._cat.stdin.write(obj.encode("utf-8", "surrogateescape") + b"\n")
            self._cat.stdin.flush()
            header = self._cat.stdout.readline()
            if not header or header.rstrip().endswith((b"missing", b"ambiguous")):
                return None
            size = int(header.split()[2])
            data = self._cat.stdout.read(size)
            self._cat.stdout.read(1)
            return data

    def close(self):
        if self._cat is not None:
            try:
                self._cat.stdin.close()
                self._cat.wait(timeout=10)
            except Exception:  # noqa: BLE001
                self._cat.kill()
            self._cat = None


def diff_tree(git, a, b):
    """[(status, old_mode, new_mode, old_blob, new_blob, path)] of a..b, no rename detection."""
    out = git.run("diff-tree", "-r", "-z", "--no-renames", "--no-abbrev", a, b)
    toks = out.split(b"\0")
    res = []
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.startswith(b":"):
            m = t[1:].decode().split()
            res.append((m[4][0], m[0], m[1], m[2], m[3], toks[i + 1].decode("utf-8", "surrogateescape")))
            i += 2
        else:
            i += 1
    return res


ZERO = "0" * 40


def parse_u0(text):
    """{path: [(old_start, old_len, new_start, new_len, old_lines, new_lines)]} from `git diff -U0`."""
    files, cur, hunk = {}, None, None
    for line in text.split("\n"):
        if line.startswith("diff --git "):
            cur, hunk = None, None
        elif line.startswith("--- "):
            pass
        elif line.startswith("+++ "):
            p = line[4:]
            cur = p[2:] if p.startswith("b/") else None
            if cur is not None:
                files.setdefault(cur, [])
        elif line.startswith("@@") and cur is not None:
            m = re.match(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", line)
            os_, ol = int(m.group(1)), int(m.group(2)) if m.group(2) is not None else 1
            ns, nl = int(m.group(3)), int(m.group(4)) if m.group(4) is not None else 1
            hunk = (os_, ol, ns, nl, [], [])
            files[cur].append(hunk)
        elif hunk is not None and line.startswith("-"):
            hunk[4].append(line[1:])
        elif hunk is not None and line.startswith("+"):
            hunk[5].append(line[1:])
    return files


# ------------------------------------------------------------------ go.mod


class ModFiles:
    """go.mod / go.work contents as the Go toolchain reads them (`go mod edit -json`)."""

    def __init__(self):
        self.cache = {}
        self.tmp = tempfile.mkdtemp(prefix="bumps-modfile-")

    def parse(self, data, name="go.mod"):
        key = (hashlib.sha1(data).hexdigest(), name)
        if key in self.cache:
            return self.cache[key]
        d = tempfile.mkdtemp(dir=self.tmp)
        path = os.path.join(d, name)
        with open(path, "wb") as f:
            f.write(data)
        cmd = ["go", "work", "edit", "-json", path] if name == "go.work" else ["go", "mod", "edit", "-json", path]
        env = dict(os.environ, GOFLAGS="", GOWORK="off", GOTOOLCHAIN="local")
        p = subprocess.run(cmd, cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        shutil.rmtree(d, ignore_errors=True)
        res = None
        if p.returncode == 0:
            try:
                res = json.loads(p.stdout)
            except ValueError:
                res = None
        self.cache[key] = res
        return res

    def close(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


def requires(mf):
    """{path: (version, indirect)} of a parsed go.mod."""
    return {r["Path"]: (r["Version"], bool(r.get("Indirect"))) for r in (mf or {}).get("Require") or []}


def replaces(mf):
    """{old_path: (new_path, new_version)} of replacements to a module version (not to a folder)."""
    out = {}
    for r in (mf or {}).get("Replace") or []:
        new = r.get("New") or {}
        if new.get("Version"):
            out[r["Old"]["Path"]] = (new["Path"], new["Version"])
        else:
            out[r["Old"]["Path"]] = (None, None)  # a folder: not a module version
    return out


# Modules whose source is a reserved repository (the product's acceptance
# tests, never fetched, mined or swept): a commit bumping one is never a
# case, and its versions are never downloaded.
RESERVED_MODULES = (
    "github.com/prometheus/prometheus", "go.etcd.io/etcd", "github.com/etcd-io/etcd",
    "github.com/containerd/containerd", "go.k6.io/k6", "github.com/grafana/k6",
    "github.com/traefik/traefik", "google.golang.org/grpc", "github.com/grpc/grpc-go",
    "go.opentelemetry.io/otel", "github.com/open-telemetry/opentelemetry-go",
    "sigs.k8s.io/controller-runtime", "github.com/kubernetes-sigs/controller-runtime",
    "github.com/goreleaser/goreleaser", "github.com/cockroachdb/pebble", "github.com/rclone/rclone",
)


def reserved(path):
    """Whether a module path (or a replacement's) belongs to a reserved repository."""
    p = strip_major(path or "")
    return any(p == r or p.startswith(r + "/") for r in RESERVED_MODULES)


def reserved_bump(b):
    return any(reserved(x) for x in (b["module"], b.get("new_module"), *(b.get("replace_target") or [])))


_MAJOR = re.compile(r"^(.*?)(/v[0-9]+|\.v[0-9]+)$")


def strip_major(path):
    m = _MAJOR.match(path)
    if m and not (m.group(2) in ("/v0", "/v1") and m.group(2).startswith("/")):
        return m.group(1)
    return path


def bumps_between(old_mf, new_mf):
    """The dependency bumps from one go.mod (or go.work) to another.

    A require whose version changed; a require M replaced by M' with the
    same path apart from its major version suffix (M -> M/v2: one bump); a
    replace whose target version (or target module) changed. Each bump is
    a dict: module (the import path in the parent), new_module (when the
    path changed), old, new, via, fetch_old, fetch_new (path@version the
    module proxy must serve), indirect."""
    out = []
    ro, rn = requires(old_mf), requires(new_mf)
    po, pn = replaces(old_mf), replaces(new_mf)
    for path, (ov, oind) in ro.items():
        if path in rn and rn[path][0] != ov:
            nv, nind = rn[path]
            if path in pn or path in po:
                continue  # the effective version is the replacement's (handled below)
            out.append({"module": path, "old": ov, "new": nv, "via": "require",
                        "fetch_old": "%s@%s" % (path, ov), "fetch_new": "%s@%s" % (path, nv),
                        "indirect": oind and nind})
    gone = [p for p in ro if p not in rn and p not in po]
    added = [p for p in rn if p not in ro and p not in pn]
    for p in gone:
        for q in added:
            if strip_major(p) == strip_major(q) and p != q:
                out.append({"module": p, "new_module": q, "old": ro[p][0], "new": rn[q][0], "via": "require-major",
                            "fetch_old": "%s@%s" % (p, ro[p][0]), "fetch_new": "%s@%s" % (q, rn[q][0]),
                            "indirect": ro[p][1] and rn[q][1]})
                break
    for path, (npath_o, nver_o) in po.items():
        if path not in pn:
            continue
        npath_n, nver_n = pn[path]
        if not nver_o or not nver_n or (npath_o, nver_o) == (npath_n, nver_n):
            continue
        out.append({"module": path, "old": nver_o, "new": nver_n, "via": "replace",
                    "fetch_old": "%s@%s" % (npath_o, nver_o), "fetch_new": "%s@%s" % (npath_n, nver_n),
                    "indirect": False, "replace_target": [npath_o, npath_n]})
    return out


def module_paths(mf):
    return set(requires(mf)) | set(replaces(mf))


def owner_module(import_path, modules):
    """The longest module path of `modules` that import_path lies in (None if none)."""
    best = None
    for m in modules:
        if import_path == m or import_path.startswith(m + "/"):
            if best is None or len(m) > len(best):
                best = m
    return best


def guess_pkg_name(import_path):
    """The conventional package name of an import path (used only when the
    module's source is not at hand): last element, a /vN or .vN suffix and
    go-/-go affixes dropped."""
    ps = import_path.split("/")
    last = ps[-1]
    if re.fullmatch(r"v[0-9]+", last) and len(ps) > 1:
        last = ps[-2]
    last = re.sub(r"\.v[0-9]+$", "", last)
    if last.startswith("go-"):
        last = last[3:]
    if last.endswith("-go"):
        last = last[:-3]
    if last.endswith(".go"):
        last = last[:-3]
    return re.sub(r"[^A-Za-z0-9_]", "", last.replace("-", "_")).replace("_", "") or last


# ------------------------------------------------------------------ Go syntax


def gosyntax_bin():
    """Build bench/bumps/gosyntax once per source hash into $BENCH_WORK."""
    src = os.path.join(HERE, "gosyntax", "main.go")
    h = hashlib.sha1(open(src, "rb").read()).hexdigest()[:12]
    out = os.path.join(bench_work(), "bumps", "gosyntax-" + h)
    if not os.path.exists(out):
        os.makedirs(os.path.dirname(out), exist_ok=True)
        tmp = out + ".%d" % os.getpid()
        env = dict(os.environ, GOFLAGS="-buildvcs=false", GOWORK="off")
        p = subprocess.run(["go", "build", "-o", tmp, "./bench/bumps/gosyntax"], cwd=os.path.dirname(
            os.path.dirname(HERE)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        if p.returncode:
            raise RuntimeError("building gosyntax failed: %s" % p.stderr.decode(errors="replace"))
        os.replace(tmp, out)
    return out


class GoSyntax:
    """A running gosyntax helper: parse(name, bytes) -> dict."""

    def __init__(self):
        self.bin = gosyntax_bin()
        self.p = subprocess.Popen([self.bin], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._lock = threading.Lock()
        self.pkg_cache = {}

    def parse(self, name, data):
        with self._lock:
            self.p.stdin.write(b"%s\n%d\n" % (name.replace("\n", " ").encode("utf-8", "surrogateescape"), len(data)))
            self.p.stdin.write(data)
            self.p.stdin.flush()
            line = self.p.stdout.readline()
        if not line:
            raise RuntimeError("gosyntax died")
        return json.loads(line)

    def pkgname(self, d):
        if d not in self.pkg_cache:
            out = subprocess.run([self.bin, "-pkgname", d], stdout=subprocess.PIPE).stdout.decode()
            self.pkg_cache[d] = out.rstrip("\n").split("\t", 1)[1] if "\t" in out else ""
        return self.pkg_cache[d]

    def close(self):
        try:
            self.p.stdin.close()
            self.p.wait(timeout=10)
        except Exception:  # noqa: BLE001
            self.p.kill()


# ------------------------------------------------------------------ module proxy


def escape_module_path(p):
    return "".join("!" + c.lower() if c.isupper() else c for c in p)


def gomodcache():
    v = os.environ.get("GOMODCACHE")
    if v:
        return v
    try:
        return subprocess.run(["go", "env", "GOMODCACHE"], stdout=subprocess.PIPE).stdout.decode().strip()
    except OSError:
        return ""


def module_dir(path, version, cache=None):
    d = os.path.join(cache or gomodcache(), escape_module_path(path) + "@" + escape_module_path(version))
    return d if os.path.isdir(d) else None


class Availability:
    """Which module versions the module proxy (or the module cache) serves,
    by `go mod download -json` in a temporary folder; remembered in
    $BENCH_WORK/bumps/availability.json."""

    def __init__(self, timeout=600):
        self.path = os.path.join(bench_work(), "bumps", "availability.json")
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        try:
            self.known = json.load(open(self.path))
        except (OSError, ValueError):
            self.known = {}
        self.timeout = timeout
        self.downloads = 0

    def save(self):
        tmp = self.path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.known, f, indent=0, sort_keys=True)
        os.replace(tmp, self.path)

    def check(self, mvs):
        """{path@version: {"ok": bool, "dir": ..., "error": ...}} for every path@version."""
        todo = [mv for mv in dict.fromkeys(mvs) if mv not in self.known or
                (self.known[mv]["ok"] and not os.path.isdir(self.known[mv].get("dir") or ""))]
        if todo:
            self.known.update(download(todo, self.timeout))
            self.downloads += len(todo)
            self.save()
        return {mv: self.known[mv] for mv in mvs}


def download(mvs, timeout=600):
    d = tempfile.mkdtemp(prefix="bumps-dl-")
    env = dict(os.environ, GOFLAGS="-mod=mod", GOWORK="off", GOTOOLCHAIN="local")
    out = {}
    try:
        p = subprocess.run(["go", "mod", "download", "-json", *mvs], cwd=d, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, env=env, timeout=timeout)
        text = p.stdout.decode("utf-8", "replace")
        dec = json.JSONDecoder()
        i = 0
        while True:
            while i < len(text) and text[i].isspace():
                i += 1
            if i >= len(text):
                break
            obj, i = dec.raw_decode(text, i)
            mv = "%s@%s" % (obj.get("Path"), obj.get("Version"))
            if obj.get("Error"):
                out[mv] = {"ok": False, "error": obj["Error"].splitlines()[0][:300]}
            else:
                out[mv] = {"ok": True, "dir": obj.get("Dir")}
    except subprocess.TimeoutExpired:
        for mv in mvs:
            out.setdefault(mv, {"ok": False, "error": "timeout after %ds" % timeout, "transient": True})
    finally:
        shutil.rmtree(d, ignore_errors=True)
    for mv in mvs:
        # a query that `go mod download` rejects before asking (bad version syntax) prints no object
        out.setdefault(mv, {"ok": False, "error": "no answer from go mod download"})
    return out


def refusal_reason(err):
    e = err or ""
    for pat, why in (("403", "proxy 403 (version not served)"), ("404", "proxy 404 (unknown version)"),
                     ("410", "proxy 410 (gone)"), ("timeout", "timeout"), ("invalid version", "invalid version"),
                     ("no answer", "no answer")):
        if pat in e:
            return why
    return "other: " + e[:80]


# ------------------------------------------------------------------ SARIF


def sarif_results(doc):
    out = []
    for run in (doc or {}).get("runs", []) or []:
        for r in run.get("results", []) or []:
            level = r.get("level") or "warning"
            if r.get("kind") not in (None, "fail"):
                continue
            locs = r.get("locations") or []
            if not locs:
                out.append((level, "", None))
                continue
            pl = (locs[0] or {}).get("physicalLocation") or {}
            uri = ((pl.get("artifactLocation") or {}).get("uri")) or ""
            line = (pl.get("region") or {}).get("startLine")
            try:
                line = int(line) if line is not None else None
            except (TypeError, ValueError):
                line = None
            out.append((level, uri, line))
    return out


def norm_uri(uri, root):
    from urllib.parse import unquote, urlparse
    uri = unquote(urlparse(uri).path) if uri.startswith("file:") else unquote(uri)
    if os.path.isabs(uri):
        for r in {root, os.path.realpath(root)}:
            rel = os.path.relpath(os.path.realpath(uri), os.path.realpath(r))
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
