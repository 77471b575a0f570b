"""Bootstrap: run the calling script under a venv of its own that has the
pinned Java parser (tree-sitter + tree-sitter-java from PyPI).

The venv lives in $BENCH_JAVA_VENV (default ~/.cache/ripple-bench-java/venv)
and is created on first use; a stamp file records the pinned requirements so
that a change of pins rebuilds it.
"""
import os
import subprocess
import sys

REQUIREMENTS = ["tree-sitter==0.25.2", "tree-sitter-java==0.23.5"]


def _venv_dir():
    return os.environ.get("BENCH_JAVA_VENV") or os.path.expanduser("~/.cache/ripple-bench-java/venv")


def _have_parser():
    try:
        import tree_sitter  # noqa: F401
        import tree_sitter_java  # noqa: F401
    except ImportError:
        return False
    try:
        from importlib.metadata import version
        want = dict(r.split("==") for r in REQUIREMENTS)
        return all(version(k) == v for k, v in want.items())
    except Exception:  # noqa: BLE001
        return False


def ensure():
    """Return when the parser is importable; otherwise re-exec the script
    under the benchmark's venv (creating it first)."""
    if _have_parser():
        return
    venv = _venv_dir()
    py = os.path.join(venv, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(venv):
        sys.exit("bench/java: %s lacks %s (remove it and retry)" % (venv, " ".join(REQUIREMENTS)))
    stamp = os.path.join(venv, ".bench-java-requirements")
    want = "\n".join(REQUIREMENTS) + "\n"
    if not (os.path.exists(py) and os.path.exists(stamp) and open(stamp).read() == want):
        import fcntl
        os.makedirs(os.path.dirname(venv), exist_ok=True)
        with open(venv + ".lock", "w") as lk:
            fcntl.flock(lk, fcntl.LOCK_EX)
            if not (os.path.exists(py) and os.path.exists(stamp) and open(stamp).read() == want):
                print("bench/java: creating %s with %s" % (venv, " ".join(REQUIREMENTS)), file=sys.stderr)
                subprocess.run([sys.executable, "-m", "venv", venv], check=True, stdout=sys.stderr)
                subprocess.run([py, "-m", "pip", "install", "-q", *REQUIREMENTS], check=True, stdout=sys.stderr)
                with open(stamp, "w") as f:
                    f.write(want)
    os.execv(py, [py, os.path.abspath(sys.argv[0])] + sys.argv[1:])
