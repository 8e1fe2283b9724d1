#!/usr/bin/env bash
# Speed and memory of resilint against go vet and staticcheck, in one run.
#
# Targets: the standard library (in a copy of GOROOT, so that it can be
# edited) and public modules brought from the module proxy. For each target
# and tool it measures, with /usr/bin/time:
#
#   cold    a run on an empty GOCACHE (and an empty staticcheck cache)
#   re-run  the same run again, nothing changed (go vet and resilint)
#   edit    after appending a function to one file of a leaf package (one
#           that imports no other package of the target and has importers):
#           that package and its importers are analysed again
#
# and prints wall time and peak RSS (the largest single process of the
# tool's process tree), then resilint's ratios to go vet and the targets:
# peak RSS <= staticcheck's and <= 1.5 GiB; re-run <= 1.2x go vet's; edit
# <= 1.5x go vet's; cold <= 1.0x go vet's.
#
# Usage: scripts/bench.sh [target...]
#   target: std, or MODULE@VERSION (default: std and the three modules below)
#
# Each target's measurements hold flock /tmp/heavy.lock (set BENCH_LOCK to
# change it) so that no other heavy job runs beside them. Expect hours on a
# 2-core machine.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	targets=(std k8s.io/client-go@v0.37.2 github.com/containerd/containerd/v2@v2.4.2 vitess.io/vitess@v0.24.4)
fi
work=$(mktemp -d /tmp/resilint-bench-XXXXXX)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
export GOTOOLCHAIN=local GOFLAGS=-mod=readonly

echo "building resilint and installing staticcheck..." >&2
go build -o "$work/bin/resilint" ./cmd/resilint
GOBIN="$work/bin" go install honnef.co/go/tools/cmd/staticcheck@v0.8.2

python3 - "$work" "$repo" "${BENCH_LOCK:-/tmp/heavy.lock}" "${targets[@]}" <<'PY'
import fcntl, json, os, re, shutil, subprocess, sys, tempfile

work, repo, lock, targets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
bins = os.path.join(work, "bin")
base_env = dict(os.environ)

def sh(cmd, cwd=None, env=None, check=True):
    p = subprocess.run(cmd, cwd=cwd, env=env or base_env, capture_output=True, text=True)
    if check and p.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {p.returncode}\n{p.stderr}")
    return p.stdout

def prepare(target):
    """Returns (directory, patterns, env) of a target, downloaded and ready."""
    env = dict(base_env)
    if target == "std":
        goroot = sh(["go", "env", "GOROOT"]).strip()
        dst = os.path.join(work, "goroot")
        shutil.copytree(goroot, dst, symlinks=True)
        subprocess.run(["chmod", "-R", "u+w", dst], check=True)
        env["GOROOT"] = dst
        env["PATH"] = os.path.join(dst, "bin") + os.pathsep + env["PATH"]
        return os.path.join(dst, "src"), ["std"], env
    info = json.loads(sh(["go", "mod", "download", "-json", target], env=dict(env, GOFLAGS="-mod=mod")))
    dst = os.path.join(work, "src", target.replace("/", "_"))
    shutil.copytree(info["Dir"], dst)
    subprocess.run(["chmod", "-R", "u+w", dst], check=True)
    sh(["go", "mod", "download"], cwd=dst, env=dict(env, GOFLAGS="-mod=mod"))
    # Test dependencies that module graph pruning left out (the copy's
    # go.mod gains their requirements).
    sh(["go", "list", "-e", "-deps", "-test", "./..."], cwd=dst, env=dict(env, GOFLAGS="-mod=mod"))
    env["GOPROXY"] = "off"  # everything is downloaded: no network while timing
    return dst, ["./..."], env

def leaf_file(dir, patterns, env):
    """The file to edit: of the target's packages that import no other of
    them and have importers among them, the one with the median number of
    importers; its first Go file."""
    pkgs = []
    out = sh(["go", "list", "-e", "-json=ImportPath,Dir,GoFiles,Imports"] + patterns, cwd=dir, env=env)
    dec = json.JSONDecoder()
    i = 0
    while i < len(out):
        while i < len(out) and out[i].isspace():
            i += 1
        if i >= len(out):
            break
        p, i = dec.raw_decode(out, i)
        pkgs.append(p)
    inside = {p["ImportPath"] for p in pkgs}
    importers = {p["ImportPath"]: 0 for p in pkgs}
    for p in pkgs:
        for imp in p.get("Imports", []):
            if imp in importers:
                importers[imp] += 1
    leaves = [p for p in pkgs if p.get("GoFiles") and importers[p["ImportPath"]] > 0
              and not any(imp in inside for imp in p.get("Imports", []))
              and not p["ImportPath"].startswith("vendor/") and "/internal/" not in "/" + p["ImportPath"] + "/"]
    if not leaves:
        leaves = [p for p in pkgs if p.get("GoFiles") and importers[p["ImportPath"]] > 0]
    leaves.sort(key=lambda p: (importers[p["ImportPath"]], p["ImportPath"]))
    p = leaves[len(leaves) // 2]
    return os.path.join(p["Dir"], p["GoFiles"][0]), p["ImportPath"], importers[p["ImportPath"]]

def measure(cmd, cwd, env):
    """Wall seconds, peak RSS (MiB) of the largest process, exit code, stderr."""
    tf = os.path.join(work, "time.out")
    full = ["/usr/bin/time", "-f", "%e %M", "-o", tf] + cmd
    p = subprocess.run(full, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall, rss = open(tf).read().split()[-2:]
    # Each figure as it is taken, so that an interrupted run keeps them.
    print(f"   {float(wall):.2f} s, {int(rss) / 1024:.0f} MiB, exit {p.returncode}", file=sys.stderr, flush=True)
    return float(wall), int(rss) / 1024, p.returncode, p.stderr

def fresh(env, name):
    d = tempfile.mkdtemp(dir=work, prefix=name + "-")
    return d

EDIT = "\n// ResilintBenchEdit is appended by scripts/bench.sh.\nfunc ResilintBenchEdit() int { return 1 }\n"

rows = []
for target in targets:
    print(f"== {target}: preparing", file=sys.stderr, flush=True)
    dir, patterns, env = prepare(target)
    npkgs = len(sh(["go", "list"] + patterns, cwd=dir, env=env).split())
    nunits = len(sh(["go", "list", "-deps", "-test"] + patterns, cwd=dir, env=env).split())
    edit, editpkg, nimp = leaf_file(dir, patterns, env)
    orig = open(edit).read()
    res = {}
    # One target's measurements under one hold of the lock, so that they run
    # in the same conditions (and no other heavy job beside them).
    lockf = open(lock, "a")
    print(f"== {target}: waiting for {lock}", file=sys.stderr, flush=True)
    fcntl.flock(lockf, fcntl.LOCK_EX)
    tools = {
        "go vet": ["go", "vet"] + patterns,
        "resilint": [os.path.join(bins, "resilint"), "-v"] + patterns,
    }
    for name, cmd in tools.items():
        cache = fresh(env, "gocache")
        e = dict(env, GOCACHE=cache)
        print(f"== {target}: {name} cold", file=sys.stderr, flush=True)
        cold = measure(cmd, dir, e)
        print(f"== {target}: {name} re-run", file=sys.stderr, flush=True)
        rerun = measure(cmd, dir, e)
        with open(edit, "a") as f:
            f.write(EDIT)
        try:
            print(f"== {target}: {name} after the edit", file=sys.stderr, flush=True)
            edited = measure(cmd, dir, e)
        finally:
            with open(edit, "w") as f:
                f.write(orig)
        res[name] = (cold, rerun, edited)
        shutil.rmtree(cache, ignore_errors=True)
    print(f"== {target}: staticcheck cold", file=sys.stderr, flush=True)
    cache, scache = fresh(env, "gocache"), fresh(env, "sccache")
    sc = measure([os.path.join(bins, "staticcheck")] + patterns, dir, dict(env, GOCACHE=cache, STATICCHECK_CACHE=scache))
    shutil.rmtree(cache, ignore_errors=True)
    shutil.rmtree(scache, ignore_errors=True)
    fcntl.flock(lockf, fcntl.LOCK_UN)
    lockf.close()
    counts = [re.search(r"resilint: \d+ packages analysed.*", r[3]) for r in res["resilint"]]
    own = max([int(m.group(1)) for r in res["resilint"] for m in [re.search(r"peak memory of one package's analysis (\d+) MiB", r[3])] if m] or [0])
    findings = sum(1 for l in res["resilint"][0][3].splitlines() if re.match(r"^\S+\.go:\d+:\d+: ", l))
    rows.append((target, npkgs, nunits, editpkg, nimp, res, sc, counts, findings, own))
    if target != "std":
        shutil.rmtree(dir, ignore_errors=True)

print()
print("target                                   pkgs  units  tool          cold s  cold MiB  re-run s  edit s")
for target, npkgs, nunits, editpkg, nimp, res, sc, counts, findings, own in rows:
    for name in ("go vet", "resilint"):
        cold, rerun, edited = res[name]
        print(f"{target:40} {npkgs:5} {nunits:6}  {name:12} {cold[0]:7.1f}  {cold[1]:8.0f}  {rerun[0]:8.2f}  {edited[0]:6.2f}   (exit {cold[2]})")
    print(f"{target:40} {npkgs:5} {nunits:6}  {'staticcheck':12} {sc[0]:7.1f}  {sc[1]:8.0f}         -       -   (exit {sc[2]})")
print()
ok = True
for target, npkgs, nunits, editpkg, nimp, res, sc, counts, findings, own in rows:
    v, r = res["go vet"], res["resilint"]
    # The largest process of each tool's tree (the compiler, often, for all
    # three); resilint's own largest unit is printed beside it.
    peak = round(max(x[1] for x in r))
    checks = [
        ("peak RSS", f"{peak} MiB (largest unit {own} MiB)", f"<= staticcheck {round(sc[1])} MiB and <= 1536 MiB", peak <= round(sc[1]) and peak <= 1536),
        ("re-run", f"{r[1][0] / v[1][0]:.2f}x go vet", "<= 1.2x", r[1][0] <= 1.2 * v[1][0]),
        ("edit", f"{r[2][0] / v[2][0]:.2f}x go vet", "<= 1.5x", r[2][0] <= 1.5 * v[2][0]),
        ("cold", f"{r[0][0] / v[0][0]:.2f}x go vet", "<= 1.0x", r[0][0] <= 1.0 * v[0][0]),
    ]
    print(f"{target}: {findings} findings; edited {editpkg} ({nimp} importers)")
    for c in counts:
        if c:
            print("   ", c.group(0))
    for what, got, want, good in checks:
        ok = ok and good
        print(f"    {what:9} {got:28} target {want:48} {'ok' if good else 'MISSED'}")
print()
print("all targets met" if ok else "some targets missed")
PY
