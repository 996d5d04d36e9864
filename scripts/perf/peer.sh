#!/usr/bin/env bash
# The portal beside Better Auth and beside the floor (issue 46), from the project root after `npm run build`:
#     bash scripts/perf/peer.sh        # about 17 minutes: the peer harness (~12), then the floor (~5)
# 1. ../shared/perf/better-auth-peer/run.sh: portal (A) and Better Auth (B), three interleaved repeats.
# 2. The floor (C, scripts/perf/floor): the same static-assets router, one D1 read by primary key for a signed-in
#    call; one insert, one conditional update returning and one insert for a code pair. Portal and floor are
#    interleaved, three repeats (scripts/perf/floor-bench.mjs).
# Prints one table: portal/Better Auth and portal/floor for each path. FLOOR_ONLY=1 skips step 1.
set -euo pipefail
ROOT=$PWD
WORK=${WORK:-/tmp/better-auth-peer}
FLOOR=/tmp/portal-perf-floor
export PATH="$ROOT/node_modules/node/bin:$PATH"
[ -d dist ] || { echo "run npm run build first" >&2; exit 2; }
[ -n "${FLOOR_ONLY:-}" ] || WORK=$WORK bash ../shared/perf/better-auth-peer/run.sh

rm -rf "$FLOOR" && mkdir -p "$FLOOR/results"
wrangler=$ROOT/node_modules/.bin/wrangler
"$wrangler" d1 migrations apply DB --local --persist-to "$FLOOR/a" >/dev/null
( exec setsid "$wrangler" dev --ip 127.0.0.1 --port 8851 --persist-to "$FLOOR/a" --show-interactive-dev-session=false --log-level warn >"$FLOOR/results/a-dev.log" 2>&1 ) &
A_PID=$!
( cd scripts/perf/floor && "$wrangler" d1 migrations apply DB --local --persist-to "$FLOOR/c" >/dev/null \
  && exec setsid "$wrangler" dev --ip 127.0.0.1 --port 8853 --persist-to "$FLOOR/c" --show-interactive-dev-session=false --log-level warn >"$FLOOR/results/c-dev.log" 2>&1 ) &
C_PID=$!
stop() { kill -TERM -- "-$A_PID" "-$C_PID" 2>/dev/null || true; }
trap stop EXIT
for url in http://127.0.0.1:8851/login http://127.0.0.1:8853/health; do
  for i in $(seq 120); do curl -sf -o /dev/null "$url" && break; sleep 1; done
done
RESULTS="$FLOOR/results" node scripts/perf/floor-bench.mjs | tee "$FLOOR/results/floor.log"
stop; trap - EXIT
node - "$WORK/results" "$FLOOR/results/floor-summary.json" <<'JS'
const { readdirSync, readFileSync, existsSync } = require('node:fs');
const [peerDir, floorFile] = process.argv.slice(2);
const peerFile = existsSync(peerDir) && readdirSync(peerDir).filter((f) => f.startsWith('summary-')).sort().pop();
const peer = peerFile ? JSON.parse(readFileSync(`${peerDir}/${peerFile}`, 'utf8')) : {};
const floor = JSON.parse(readFileSync(floorFile, 'utf8'));
const rows = {};
for (const key of new Set([...Object.keys(peer), ...Object.keys(floor)])) {
  rows[key] = {
    'portal/Better Auth': peer[key] ? +peer[key].ratioAB.toFixed(2) : '',
    'portal/floor': floor[key] ? +floor[key].ratioAC.toFixed(2) : '',
  };
}
console.log(`peer: ${peerFile ? `${peerDir}/${peerFile}` : 'not run'}; floor: ${floorFile} (req/s and pairs/s: higher is better; ms: lower)`);
console.table(rows);
JS
