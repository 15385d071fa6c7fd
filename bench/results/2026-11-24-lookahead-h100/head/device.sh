#!/usr/bin/env bash
# Final check of the branch head on the GPU: the whole test suite, then V = 4096 and 11000 plain,
# after vs before (3 interleaved runs each) and the outputs compared.
cd "$(dirname "$0")"
export CUDA_MODULE_LOADING=EAGER
./apsp_tests --gtest_brief=1 > $OUT/tests.log 2>&1; echo "tests: exit $? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $OUT/tests.log | tr '\n' ' ')"
grep -E "Lookahead" $OUT/tests.log | head; ./apsp_tests --gtest_filter='*Lookahead*' 2>&1 | grep -E "OK|FAILED" | tee $OUT/lookahead.txt
w=/tmp/f; mkdir -p $w
for v in 4096 11000; do
  p=0.05; [ $v = 11000 ] && p=0.01
  ./apsp generate --vertices $v --density $p --seed 7 --max-weight 500 $w/g$v.in 2>/dev/null
  for rep in 1 2 3; do for b in before after; do
    e=./apsp; [ $b = before ] && e=before/apsp
    $e --backend cuda $w/g$v.in $w/o.$b --stats $w/s.json 2>/dev/null
    echo "$v $b $(python3 -c "import json; print(json.load(open('$w/s.json'))['seconds']['compute'])")" >> $OUT/runs.txt
  done; done
  echo "V=$v after vs before: $(./apsp compare $w/o.after $w/o.before)" | tee -a $OUT/runs-compare.txt
done
python3 - $OUT/runs.txt <<'P'
import sys, statistics, collections
d = collections.defaultdict(list)
for l in open(sys.argv[1]):
    v, b, c = l.split(); d[(int(v), b)].append(float(c))
for (v, b), xs in sorted(d.items()):
    c = statistics.median(xs); print(f"V={v} {b}: median {c*1e3:.3f} ms, {v**3/c/1e12:.2f} T ({' '.join(f'{x*1e3:.3f}' for x in xs)})")
P
