#!/usr/bin/env bash
# Scaling over the GPUs of one node (issues 34, 36 and 37): strong, weak, transports, largest V.
#   OUT=... [PARTS=...] bench/device scaling
# The command line (MPI and NCCL on) under mpirun on P = 1, 2, 4, 8 GPUs up to all the node has:
#   dense    Floyd-Warshall, random V = 40,000 (density 0.001), strong scaling, OUT = /dev/null;
#   weak     V = 31,748 / 40,000 / 50,397 / 63,496 on 1 / 2 / 4 / 8 (V^3 / P constant);
#   transport  the dense run at P = 2 with each --transport (when the build has the option);
#   road     supernodal on the road-like V = 115,000, OUT = /dev/null;
#   largest  dense on 2 GPUs at a V whose matrix needs ~1.2x one GPU's memory (160,000 on H100s,
#            200,000 on H200s), and on all GPUs (when more than 2) at a V that fills ~80% of
#            them, stopped after LARGE_BUDGET seconds: the rate over the rounds done by then;
#   roadfile the road run with OUT a file on the node's disk (deleted after each run).
# Prints, and writes to $OUT/scaling.md, issue 34's table (max over `per_rank`, medians of the
# repeats), strong and weak scaling and the transport each run used; every run's --stats record
# is in $OUT/runs.jsonl, the GPUs in gpus.txt and topology.txt.
# A 2-GPU node takes ~8 minutes (build ~2); 4 GPUs add ~4 minutes, 8 more. DEADLINE (seconds since
# the start, default 570) skips the runs that would start after it and names them, so that a
# second call with PARTS set to those parts finishes the rest (the build in build/device/scaling
# is kept on a warm machine): on 4 GPUs, e.g., PARTS="dense weak transport road largest" then
# PARTS=roadfile.
# Environment (defaults in brackets):
#   PARTS      [dense weak transport road largest roadfile]
#   RANKS      [1 2 4 8, up to the GPUs found]     GPUS  [nvidia-smi -L's count]
#   REPEATS    [3] dense and weak runs each        ROAD_REPEATS [3]  ROADFILE_REPEATS [1]
#   TRANSPORTS [auto nccl ipc host]  TRANSPORT_P [2]  TRANSPORT_REPEATS [1]
#   DENSE_V [40000]  WEAK_V [31748 40000 50397 63496]  ROAD_V [115000]
#   LARGE_V [by GPU memory]  LARGE_ALL_V [by GPU memory]  LARGE_FILL [0.8]  LARGE_BUDGET [90]
#   RUN_LIMIT [150] seconds per run                WORK [/tmp/apsp-scaling] inputs, file outputs
#   BACKEND    passed as --backend when set        MPIRUN_EXTRA  more mpirun options
# BIN (the driver's: binaries already built) skips the build. On a CPU MPI build the same
# scenario checks itself on small sizes, e.g.
#   BIN=build/check GPUS=2 MPIRUN_EXTRA=--oversubscribe OMP_NUM_THREADS=1 DENSE_V=1500 ...
# (Was bench/gpu-scaling.sh.)
# shellcheck disable=SC2154,SC2034 # variables set and read by bench/device
targets=(apsp_cli) mpi=ON nccl=ON
setup
work=${WORK:-/tmp/apsp-scaling}
mkdir -p "$work"
deadline=${DEADLINE:-570}
parts=${PARTS:-dense weak transport road largest roadfile}
part() { [[ " $parts " == *" $1 "* ]]; }
[ -x "$apsp" ] || { log "no apsp binary at $apsp"; exit 1; }
has_transport=0
"$apsp" --help 2>&1 | grep -q -- '--transport' && has_transport=1
if [ $has_transport = 1 ]; then log "--transport: present"
else log "--transport: absent (every run takes the one path this build has)"; fi

# 2. The node: GPUs, their memory and links.
mem_mib=0
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=index,name,memory.total,clocks.max.sm,driver_version --format=csv,noheader \
    >"$out/gpus.txt" 2>&1
  nvidia-smi topo -m >"$out/topology.txt" 2>&1
  mem_mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits | head -1 | tr -dc 0-9)
  gpus=${GPUS:-$(nvidia-smi -L | wc -l)}
else
  echo "no nvidia-smi" >"$out/gpus.txt"
  gpus=${GPUS:-1}
fi
log "gpus: $gpus; $(head -1 "$out/gpus.txt")"
[ -s "$out/topology.txt" ] && cat "$out/topology.txt"
ranks=""
for p in ${RANKS:-1 2 4 8}; do [ "$p" -le "$gpus" ] && ranks="$ranks $p"; done
ranks=${ranks# }
log "ranks: $ranks"

# 3. Inputs, generated on the node side by side. Dense FW costs V^3 whatever the edges, so the
# largest runs take a grid (generated in O(V); random pairs would take minutes at V = 200,000).
dense_v=${DENSE_V:-40000} road_v=${ROAD_V:-115000}
read -r -a weak_v <<<"${WEAK_V:-31748 40000 50397 63496}"
fill=${LARGE_FILL:-0.8}
# One GPU's memory in bytes (0 where no nvidia-smi: set LARGE_V and LARGE_ALL_V).
mem_bytes=$((mem_mib * 1048576))
# 2 GPUs at ~1.2x one GPU's memory: V = 160,000 on 80 GB (H100), 200,000 on 141 GB (H200).
if [ -n "${LARGE_V:-}" ]; then large_v=$LARGE_V
elif [ "$mem_mib" -gt 100000 ]; then large_v=200000
elif [ "$mem_mib" -gt 0 ]; then large_v=160000
else large_v=0; fi
# All GPUs (when more than 2): V^2 * 4 bytes = FILL of their memory, a multiple of 1024.
large_all_v=${LARGE_ALL_V:-$(python3 -c "import math,sys; m,p,f=map(float,sys.argv[1:]); \
print(int(math.sqrt(f*p*m/4)) // 1024 * 1024)" "$mem_bytes" "$gpus" "$fill")}
declare -A graph
gen() {  # NAME ARGS...: generate $work/NAME.in unless there
  local name=$1
  shift
  graph[$name]=$work/$name.in
  [ -f "$work/$name.in" ] || "$apsp" generate "$@" "$work/$name.in" >/dev/null 2>>"$out/errors.log" &
}
{ part dense || part transport; } && gen "d$dense_v" --vertices "$dense_v" --density 0.001 --seed 7
if part weak; then
  i=0
  for p in 1 2 4 8; do
    [[ " $ranks " == *" $p "* ]] && gen "d${weak_v[$i]}" --vertices "${weak_v[$i]}" --density 0.001 --seed 7
    i=$((i + 1))
  done
fi
{ part road || part roadfile; } && gen "r$road_v" --class road --vertices "$road_v" --seed 3
if part largest; then
  [ "$large_v" -gt 0 ] && gen "g$large_v" --class grid --vertices "$large_v" --seed 7
  [ "$gpus" -gt 2 ] && [ "$large_all_v" -gt 0 ] &&
    gen "g$large_all_v" --class grid --vertices "$large_all_v" --seed 7
fi
wait
log "inputs ready after $(elapsed) s"

# 4. The runs. Each run: a --stats record with the run's labels appended to runs.jsonl, or its
# exit code and rank 0's last error line where it failed.
# shellcheck disable=SC2206 # MPIRUN_EXTRA: words
mpi=(mpirun --allow-run-as-root --bind-to none ${MPIRUN_EXTRA:-} -np)
backend=()
[ -n "${BACKEND:-}" ] && backend=(--backend "$BACKEND")
skipped=()
limit_for() {  # WANTED: seconds a run may take, the deadline's remainder at most (0: skip it)
  local left=$((deadline - $(elapsed)))
  [ "$left" -le 5 ] && { echo 0; return; }
  echo $(($1 < left ? $1 : left))
}
record() {  # LABELS-JSON RC STATS-FILE
  python3 - "$1" "$2" "$3" "$work/err.txt" >>"$out/runs.jsonl" <<'EOF'
import json, sys
labels, rc, stats, err = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
labels["rc"] = rc
try:
    labels["stats"] = json.load(open(stats)) if rc == 0 else None
except (OSError, ValueError) as e:
    labels["stats"], labels["rc"] = None, labels["rc"] or 99
if labels["stats"] is None:
    lines = [l.strip() for l in open(err, errors="replace").read().replace("\r", "\n").splitlines()]
    labels["error"] = next((l for l in reversed(lines) if l.startswith("apsp")), lines[-1] if lines else "")
print(json.dumps(labels))
EOF
}
solve() {  # PART NP V GRAPH OUTFILE ALGORITHM TRANSPORT REP
  local part=$1 np=$2 v=$3 in=$4 target=$5 algorithm=$6 transport=$7 rep=$8
  local limit
  limit=$(limit_for "${RUN_LIMIT:-150}")
  local label
  label="$part P=$np V=$v OUT=$([ "$target" = /dev/null ] && echo /dev/null || echo file) \
transport=$transport rep=$rep"
  if [ "$limit" = 0 ]; then
    skipped+=("$label")
    return
  fi
  local args=("$in" "$target" --algorithm "$algorithm" --stats "$work/s.json" "${backend[@]}")
  [ "$transport" != - ] && args+=(--transport "$transport")
  rm -f "$work/s.json"
  timeout -k 10 "$limit" "${mpi[@]}" "$np" "$apsp" "${args[@]}" >/dev/null 2>"$work/err.txt"
  local rc=$?
  cat "$work/err.txt" >>"$out/errors.log"
  record "{\"part\": \"$part\", \"np\": $np, \"vertices\": $v, \"out\": \"$([ "$target" = /dev/null ] &&
    echo null || echo file)\", \"transport_asked\": \"$transport\", \"rep\": $rep}" $rc "$work/s.json"
  echo "$label: exit $rc, $(python3 -c "import json,sys; r=json.loads(open(sys.argv[1]).readlines()[-1]);
s=r.get('stats'); print(r.get('error','') if not s else 'total %.2f s, compute %.2f s, transport %s' %
(max(q['total'] for q in s['per_rank']), max(q['compute'] for q in s['per_rank']), s.get('transport','-')))" \
    "$out/runs.jsonl")" | tee -a "$out/summary.txt"
}

# Dense strong and weak scaling, the repeats interleaved so that a drift spreads over all P.
for rep in $(seq "${REPEATS:-3}"); do
  i=0
  for p in 1 2 4 8; do
    [[ " $ranks " == *" $p "* ]] || { i=$((i + 1)); continue; }
    part dense && solve dense $p "$dense_v" "${graph[d$dense_v]}" /dev/null fw - $rep
    wv=${weak_v[$i]}
    if part weak && ! { part dense && [ "$wv" = "$dense_v" ]; }; then
      solve weak $p "$wv" "${graph[d$wv]}" /dev/null fw - $rep
    fi
    i=$((i + 1))
  done
done

# Each transport at TRANSPORT_P ranks on the dense graph.
tp=${TRANSPORT_P:-2}
if part transport; then
  if [ $has_transport = 0 ]; then
    log "transport: skipped, this build has no --transport"
  elif [[ " $ranks " != *" $tp "* ]]; then
    log "transport: skipped, P = $tp is not among the ranks ($ranks)"
  else
    for rep in $(seq "${TRANSPORT_REPEATS:-1}"); do
      for t in ${TRANSPORTS:-auto nccl ipc host}; do
        solve transport "$tp" "$dense_v" "${graph[d$dense_v]}" /dev/null fw "$t" $rep
      done
    done
  fi
fi

# Supernodal on the road-like graph, OUT = /dev/null.
if part road; then
  for rep in $(seq "${ROAD_REPEATS:-3}"); do
    for p in $ranks; do solve road $p "$road_v" "${graph[r$road_v]}" /dev/null supernodal - $rep; done
  done
fi

# The largest matrices: --progress lines stamped with their arrival time on each rank (each rank's
# stderr through its own stamper, not mpirun's forwarding), the run stopped after LARGE_BUDGET
# seconds; the rate is that of the rounds between the first and the last stamped line.
cat >"$work/stamp.py" <<'EOF'
import os, sys, time
while True:
    chunk = os.read(0, 65536)
    if not chunk:
        break
    now = time.time()
    for piece in chunk.replace(b"\r", b"\n").split(b"\n"):
        if piece.strip():
            sys.stdout.write("%.3f %s\n" % (now, piece.strip().decode(errors="replace")))
    sys.stdout.flush()
EOF
cat >"$work/stamped.sh" <<'EOF'
#!/usr/bin/env bash
# stamped.sh PREFIX COMMAND...: COMMAND's stderr, stamped, to PREFIX.RANK (mpirun's child stays
# COMMAND itself, so that mpirun's signals reach it).
prefix=$1
shift
exec "$@" 2> >(exec python3 -u "$(dirname "$0")/stamp.py" >"$prefix.${OMPI_COMM_WORLD_RANK:-0}")
EOF
chmod +x "$work/stamped.sh"
largest() {  # NP V
  local np=$1 v=$2
  local budget=${LARGE_BUDGET:-90}
  local limit
  limit=$(limit_for $((budget + 30)))
  if [ "$limit" = 0 ]; then
    skipped+=("largest P=$np V=$v")
    return
  fi
  [ "$limit" -lt $((budget + 30)) ] && budget=$((limit - 30 > 10 ? limit - 30 : 10))
  local prefix=$out/progress-P$np-V$v
  rm -f "$prefix".* "$work/s.json"
  local t0
  t0=$(date +%s.%N)
  timeout -k 10 "$budget" "${mpi[@]}" "$np" "$work/stamped.sh" "$prefix" "$apsp" "${graph[g$v]}" \
    /dev/null --algorithm fw --progress --stats "$work/s.json" "${backend[@]}" >/dev/null 2>>"$out/errors.log"
  local rc=$?
  # A rank that outlived mpirun would hold its GPU's memory through the next runs: say so.
  for _ in $(seq 20); do pgrep -x apsp >/dev/null || break; sleep 1; done
  pgrep -x apsp >/dev/null && log "largest P=$np V=$v: apsp processes remain after mpirun: $(pgrep -x apsp | tr '\n' ' ')"
  python3 - "$np" "$v" "$rc" "$t0" "$budget" "$prefix.0" "$work/s.json" "$prefix".* >>"$out/runs.jsonl" <<'EOF'
import json, os, re, sys
np, v, rc, t0, budget, stamped, stats = sys.argv[1:8]
r = {"part": "largest", "np": int(np), "vertices": int(v), "out": "null", "rc": int(rc),
     "budget_s": int(budget), "stats": None}
try:
    r["stats"] = json.load(open(stats)) if int(rc) == 0 else None
except (OSError, ValueError):
    pass
rounds = []
for line in open(stamped, errors="replace") if os.path.exists(stamped) else []:
    m = re.match(r"([\d.]+) \[apsp\] round (\d+)/(\d+)", line)
    if m:
        rounds.append((float(m.group(1)), int(m.group(2)), int(m.group(3))))
errors = [l.split(" ", 1)[1].strip() for p in sys.argv[8:] if os.path.exists(p)
          for l in open(p, errors="replace") if " apsp" in l and "[apsp]" not in l]
if errors:
    r["error"] = errors[0]
if len(rounds) >= 2:
    (ta, da, total), (tb, db, _) = rounds[0], rounds[-1]
    r["rounds"] = {"first": da, "last": db, "total": total, "seconds": tb - ta,
                   "first_line_after_s": ta - float(t0)}
    r["rate"] = float(v) ** 3 * (db - da) / total / (tb - ta)
print(json.dumps(r))
EOF
  echo "largest P=$np V=$v: exit $rc$([ $rc = 124 ] && echo ", stopped at $budget s"), $(python3 -c "import json,sys
r=json.loads(open(sys.argv[1]).readlines()[-1]); q=r.get('rounds')
print('%.2f T over rounds %d-%d of %d (first %.1f%%)' % (r['rate']/1e12, q['first'], q['last'], q['total'],
100*q['last']/q['total']) if q else 'no rate: ' + r.get('error', 'fewer than two progress lines'))" \
    "$out/runs.jsonl")" | tee -a "$out/summary.txt"
}
if part largest; then
  if [[ " $ranks " == *" 2 "* ]] && [ "$large_v" -gt 0 ]; then largest 2 "$large_v"; fi
  if [ "$gpus" -gt 2 ] && [ "$large_all_v" -gt 0 ]; then largest "${ranks##* }" "$large_all_v"; fi
fi

# Supernodal on the road-like graph, OUT a file on the node's disk (V^2 * 4 bytes: 52.9 GB at
# 115,000), deleted after each run.
if part roadfile; then
  need=$((road_v * road_v * 4))
  avail=$(($(df --output=avail -B1 "$work" | tail -1)))
  if [ "$avail" -lt $((need + need / 20)) ]; then
    log "roadfile: skipped, $avail bytes free in $work, $need needed"
  else
    for rep in $(seq "${ROADFILE_REPEATS:-1}"); do
      for p in $ranks; do
        solve roadfile $p "$road_v" "${graph[r$road_v]}" "$work/road.out" supernodal - $rep
        rm -f "$work/road.out"
      done
    done
  fi
fi
[ ${#skipped[@]} -gt 0 ] && log "skipped at the deadline ($deadline s): ${skipped[*]}"

# 5. The tables.
python3 - "$out/runs.jsonl" "$dense_v" "$road_v" "${weak_v[*]}" "$(head -1 "$out/gpus.txt")" \
  "$gpus" >"$out/scaling.md" <<'EOF'
import collections, json, statistics, sys
path, dense_v, road_v, weak_v, gpu, gpus = sys.argv[1:7]
dense_v, road_v, weak_v = int(dense_v), int(road_v), [int(x) for x in weak_v.split()]
runs = [json.loads(l) for l in open(path) if l.strip()]
node = f"{gpus}x {gpu.split(',')[1].strip() if ',' in gpu else gpu}"

def transport(s):
    t = s.get("transport", "-")
    return t if isinstance(t, str) else t.get("name", json.dumps(t, separators=(",", ":")))

def row(s):  # each column the max over the ranks, as issue 34 counts them
    pr = s["per_rank"] or [s["seconds"]]
    return {"compute": max(q["compute"] for q in pr),
            "setup": max(q["read"] + q["plan"] + q["upload"] for q in pr),
            "communication": max(q.get("communication", 0) for q in pr),
            "write": max(q.get("write", 0) + q.get("commit", 0) for q in pr),
            "total": max(q["total"] for q in pr),
            "rows": (s.get("supernodal") or {}).get("rows"),
            "transport": transport(s)}

groups = collections.defaultdict(list)
failed = []
for r in runs:
    if r["part"] == "largest":
        continue
    if r.get("stats"):
        groups[(r["part"], r["out"], r["np"], r["vertices"], r["transport_asked"])].append(row(r["stats"]))
    else:
        failed.append(r)

def med(rows, key):
    values = [x[key] for x in rows if x[key] is not None]
    return statistics.median(values) if values else None

def find(part, out, np, v, t="-"):
    rows = groups.get((part, out, np, v, t))
    if not rows and part == "weak":  # the weak run at dense_v is the dense one
        rows = groups.get(("dense", out, np, v, t))
    return rows

print(f"# Scaling on {node}\n")
print("Times are `--stats` seconds, each column the max over `per_rank`, medians of the repeats "
      "(n). compute includes communication (which includes waiting for the pivot's owner).\n")
print("| case | node | OUT | ranks | V | compute | read + plan + upload | communication | total "
      "| transport | n |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
base = {}
for key in sorted(groups, key=lambda k: (["dense", "weak", "transport", "road", "roadfile"]
                                         .index(k[0]), k[3], k[2], k[4])):
    part, out, np, v, t = key
    rows = groups[key]
    c, s, m, tot = (med(rows, k) for k in ("compute", "setup", "communication", "total"))
    b = find(part, out, 1, v)
    note = ""
    if np > 1 and b and part in ("dense", "road", "roadfile"):
        note = f" (strong {med(b, 'compute') / (np * c):.3f})" if part == "dense" else ""
    w = f" (write {med(rows, 'write'):.2f} s)" if out == "file" else ""
    ts = sorted({x["transport"] for x in rows})
    asked = "" if t == "-" else f"asked {t}: "
    print(f"| {part} | {node} | {'/dev/null' if out == 'null' else 'file'} | {np} | {v} | {c:.3f} s{note} "
          f"| {s:.3f} s | {'-' if np == 1 else f'{m:.3f} s'} | {tot:.3f} s{w} | {asked}{', '.join(ts)} "
          f"| {len(rows)} |")

print("\n## Scaling (medians)\n")
d1 = find("dense", "null", 1, dense_v)
for np in sorted({k[2] for k in groups if k[0] == "dense" and k[2] > 1}):
    dp = find("dense", "null", np, dense_v)
    if d1 and dp:
        print(f"- dense V = {dense_v}, P = {np}: compute strong {med(d1, 'compute') / (np * med(dp, 'compute')):.3f}, "
              f"total {med(dp, 'total') / med(d1, 'total'):.3f} x one GPU's, "
              f"read + plan + upload {med(dp, 'setup') - med(d1, 'setup'):+.3f} s against one GPU's")
w1 = find("weak", "null", 1, weak_v[0])
for i, np in enumerate((1, 2, 4, 8)):
    wp = find("weak", "null", np, weak_v[i]) if np > 1 and i < len(weak_v) else None
    if w1 and wp:
        print(f"- weak V = {weak_v[0]} on 1 -> {weak_v[i]} on {np}: compute "
              f"{med(w1, 'compute') / med(wp, 'compute'):.3f}")
for part in ("road", "roadfile"):
    r1 = find(part, "null" if part == "road" else "file", 1, road_v)
    for np in sorted({k[2] for k in groups if k[0] == part and k[2] > 1}):
        rp = find(part, "null" if part == "road" else "file", np, road_v)
        if r1 and rp:
            rows = ""
            if med(r1, "rows") and med(rp, "rows"):
                rows = f", rows {med(r1, 'rows'):.3f} -> {med(rp, 'rows'):.3f} s ({med(r1, 'rows') / med(rp, 'rows'):.2f}x)"
            print(f"- supernodal road V = {road_v}, OUT {'/dev/null' if part == 'road' else 'a file'}, "
                  f"P = {np}: total {med(rp, 'total') / med(r1, 'total'):.3f} x one rank's{rows}")
one_rate = dense_v ** 3 / med(d1, "compute") if d1 else None
for r in runs:
    if r["part"] != "largest":
        continue
    q = r.get("rounds")
    if r.get("stats"):
        s = r["stats"]
        rate = r["vertices"] ** 3 / max(x["compute"] for x in s["per_rank"])
        what = f"whole run, compute rate {rate / 1e12:.2f} T, transport {transport(s)}"
    elif q:
        rate = r["rate"]
        what = (f"rate over the first {100 * q['last'] / q['total']:.1f}% of rounds (rounds "
                f"{q['first']}-{q['last']} of {q['total']}, {q['seconds']:.1f} s; stopped at "
                f"{r['budget_s']} s): {rate / 1e12:.2f} T")
    else:
        print(f"- largest P = {r['np']}, V = {r['vertices']}: no rate (exit {r['rc']}): {r.get('error', '')}")
        continue
    vs = f", {rate / (r['np'] * one_rate):.3f} x {r['np']} x one GPU's rate at {dense_v}" if one_rate else ""
    print(f"- largest P = {r['np']}, dense V = {r['vertices']} ({r['vertices'] ** 2 * 4 / 2 ** 30:.0f} GiB): "
          f"{what}{vs}")
for r in failed:
    print(f"- failed: {r['part']} P = {r['np']} V = {r['vertices']} transport {r['transport_asked']}: "
          f"exit {r['rc']}: {r.get('error', '')}")
EOF
cat "$out/scaling.md"
log "total $(elapsed) s"
