#!/bin/bash
port=4200; path=${1:-/api/v1/events/evt_x}
for round in 1 2; do for v in old new; do
  port=$((port+1)); d=/work/main; [ $v = old ] && d=/work/wt/reposql
  cd $d; DATABASE_URL=sqlite:/tmp/ab-$v.db PORT=$port HOST=127.0.0.1 LOG_LEVEL=warn REVIEW_WORKERS=false RATE_LIMIT_PER_IP=1000000 node --max-semi-space-size=32 dist/cli.js serve >/dev/null 2>&1 &
  pid=$!; cd /work/main
  sleep 3
  npx autocannon -c 10 -d 2 http://127.0.0.1:$port$path >/dev/null 2>&1
  echo "$v $(npx autocannon -c 50 -d 6 http://127.0.0.1:$port$path 2>&1 | grep -E '^│ Req/Sec' | awk '{print $8}')"
  kill $pid; wait $pid 2>/dev/null
done; done
