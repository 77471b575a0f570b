#!/usr/bin/env python3
"""JSX props on real history: partial states of React commits.

For each commit of a TypeScript repository that changes a component's
props in a .tsx file, a partial state is built: the parent commit with
only the .tsx files whose diff touches a props type (an inline
`React.FC<{...}>`, a destructured `{...}: {...}` parameter, or a line
naming `Props`) replaced by their state at the commit, every other file
(the elements the developer updated) left as it was. `hook check` runs
on parent..partial and on parent..commit (the real, complete commit).

Reported per commit: the findings about JSX elements (messages naming a
`<Tag>`), whether each lies in a file the real commit changed (the
developer had to update it: a true positive by that measure), and the
errors on the real commit (false alarms).

    bench/ts-jsx-partials.py MIRROR_REPO [--hook bin/hook] [--since 2023-01-01]
        [--paths 'packages/*/src/**/*.tsx'] [--max 20] [COMMIT...]

MIRROR_REPO is a fetched mirror (/work/.mirror/microsoft+playwright/repo);
it is cloned with --shared --no-checkout under $BENCH_WORK (default
/tmp/ripple-bench) and never written. Without COMMITs, the commits since
--since whose .tsx diff under --paths matches the props patterns are
taken, newest first, up to --max.
"""
import argparse
import json
import os
import re
import subprocess
import sys

PROPS = re.compile(r'^[-+].*(React\.FC<\{|FC<\{|\}: *(React\.)?(PropsWithChildren<)?\{|Props\b)', re.M)


def git(repo, *args, env=None):
    r = subprocess.run(['git', '-C', repo, *args], capture_output=True, text=True, env=env)
    if r.returncode != 0:
        raise RuntimeError('git %s: %s' % (' '.join(args), r.stderr.strip()))
    return r.stdout


def check(hook, repo, base, head):
    r = subprocess.run([hook, 'check', '-format', 'json', '-base', base, '-head', head],
                       cwd=repo, capture_output=True, text=True)
    if r.returncode not in (0, 1):
        raise RuntimeError('hook check %s..%s: %s' % (base, head, r.stderr.strip()))
    return json.loads(r.stdout).get('findings') or []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('mirror')
    ap.add_argument('commits', nargs='*')
    ap.add_argument('--hook', default='hook')
    ap.add_argument('--since', default='2023-01-01')
    ap.add_argument('--paths', default='*.tsx')
    ap.add_argument('--max', type=int, default=20)
    a = ap.parse_args()
    work = os.environ.get('BENCH_WORK', '/tmp/ripple-bench')
    os.makedirs(work, exist_ok=True)
    repo = os.path.join(work, 'jsx-' + os.path.basename(os.path.dirname(os.path.abspath(a.mirror))))
    if not os.path.isdir(repo):
        subprocess.run(['git', 'clone', '-q', '--shared', '--no-checkout', a.mirror, repo], check=True)
    commits = a.commits or git(repo, 'log', '--since=' + a.since, '--format=%h', '--no-merges',
                               '-G', r'FC<\{|Props', '--', a.paths).split()[:a.max]
    index = os.path.join(work, 'jsx-index')
    totals = dict(commits=0, jsx_errors=0, jsx_errors_in_changed=0, jsx_warnings=0, notes=0, real_errors=0, tool_failures=0)
    for c in commits:
        changed = set(git(repo, 'diff', '--name-only', c + '^', c).split())
        seeds = [f for f in changed if f.endswith('.tsx') and PROPS.search(git(repo, 'diff', '-U0', c + '^', c, '--', f))]
        if not seeds:
            continue
        env = dict(os.environ, GIT_INDEX_FILE=index)
        git(repo, 'read-tree', c + '^', env=env)
        for f in seeds:
            try:
                blob = git(repo, 'rev-parse', c + ':' + f).strip()
            except RuntimeError:  # deleted by the commit
                git(repo, 'update-index', '--force-remove', f, env=env)
                continue
            git(repo, 'update-index', '--add', '--cacheinfo', '100644,%s,%s' % (blob, f), env=env)
        tree = git(repo, 'write-tree', env=env).strip()
        partial = git(repo, 'commit-tree', tree, '-p', c + '^', '-m', 'partial').strip()
        try:
            fs = check(a.hook, repo, c + '^', partial)
            real = [f for f in check(a.hook, repo, c + '^', c) if f['level'] == 'error']
        except RuntimeError as e:
            totals['tool_failures'] += 1
            print('%s tool failure: %s' % (c, str(e)[-160:]))
            continue
        jsx = [f for f in fs if re.search(r'<[A-Za-z][\w.]*>', f['message'])]
        totals['commits'] += 1
        totals['real_errors'] += len(real)
        print('%s seeds %d findings %d jsx %d real-commit errors %d' % (c, len(seeds), len(fs), len(jsx), len(real)))
        for f in jsx:
            lv = f['level']
            key = {'error': 'jsx_errors', 'warning': 'jsx_warnings'}.get(lv, 'notes')
            totals[key] += 1
            inside = f['path'] in changed
            if lv == 'error' and inside:
                totals['jsx_errors_in_changed'] += 1
            print('    %-7s %s:%d %s%s' % (lv, f['path'], f['line'], f['message'][:120], '' if inside else '  [not changed by the commit]'))
        for f in real:
            print('    REAL    %s:%d %s' % (f['path'], f['line'], f['message'][:120]))
    print(' '.join('%s %d' % kv for kv in totals.items()))


if __name__ == '__main__':
    sys.exit(main())
