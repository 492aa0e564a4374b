#!/usr/bin/env bash
# Instructions a deal, counted by valgrind (callgrind), of the bare playout and of the engine in
# bench/throughput.py: a run of N seeded deals less a run of none, over N. Counts do not move with the
# machine's load, as wall-clock rates do. Usage: bash bench/instructions.sh [N]   (PIQUET_PURE=1 for the source)
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-300}
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null .venv/bin/python bench/throughput.py "$@" 2>&1 \
        | awk '/Collected/ {print $4}'
}
declare -A per_deal
for side in bare engine; do
    per_deal[$side]=$(( ($(count --count "$side" --deals "$N") - $(count --count "$side" --deals 0)) / N ))
    echo "$side: ${per_deal[$side]} instructions a deal"
done
.venv/bin/python -c "from piquet.core import native; print('engine:', native.engine())"
echo "baseline / engine: $(.venv/bin/python -c "print(f'{${per_deal[bare]} / ${per_deal[engine]}:.2f}')")"
