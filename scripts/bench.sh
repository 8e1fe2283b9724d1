#!/usr/bin/env bash
# Speed and memory of resilint against go vet on the standard library, cold.
#
# For each tool it empties a fresh GOCACHE, runs the tool on `std` from
# GOROOT/src, and prints wall time and peak RSS (largest process), then the
# ratio resilint / go vet. Target: resilint <= 0.7x go vet.
#
# Usage: scripts/bench.sh [runs]   (default 1 run each; the median is shown)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/resilint" ./cmd/resilint
src=$(go env GOROOT)/src

python3 - "$work" "$src" "$runs" <<'PY'
import os, resource, statistics, subprocess, sys, tempfile, time, shutil
work, src, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])

def measure(cmd):
    # Run in a child python so that RUSAGE_CHILDREN covers only this tool.
    code = r'''
import os, resource, subprocess, sys, time
t = time.monotonic()
p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.monotonic() - t
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(wall, ru.ru_maxrss, ru.ru_utime + ru.ru_stime, p.returncode)
'''
    cache = tempfile.mkdtemp(dir=work)
    env = dict(os.environ, GOCACHE=cache)
    out = subprocess.run([sys.executable, "-c", code] + cmd, cwd=src, env=env, capture_output=True, text=True).stdout.split()
    shutil.rmtree(cache, ignore_errors=True)
    return float(out[0]), int(out[1]) / 1024, float(out[2]), int(out[3])

tools = {
    "resilint std": [os.path.join(work, "resilint"), "std"],
    "go vet std": ["go", "vet", "std"],
}
res = {}
for name, cmd in tools.items():
    samples = [measure(cmd) for _ in range(runs)]
    wall = statistics.median(s[0] for s in samples)
    rss = statistics.median(s[1] for s in samples)
    cpu = statistics.median(s[2] for s in samples)
    res[name] = (wall, rss, cpu)
    codes = sorted({s[3] for s in samples})
    print(f"{name:14}  wall {wall:7.1f} s   cpu {cpu:7.1f} s   peak RSS {rss:7.0f} MiB   exit {codes}")
r, v = res["resilint std"], res["go vet std"]
print(f"ratio resilint/go vet: wall {r[0]/v[0]:.2f}x   cpu {r[2]/v[2]:.2f}x   peak RSS {r[1]/v[1]:.2f}x   (target: wall <= 0.70x)")
PY
