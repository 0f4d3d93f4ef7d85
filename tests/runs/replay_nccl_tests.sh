#!/bin/sh
# Stands in for an nccl-tests binary on a machine without a GPU: replays a
# real captured output (REPLAY_FILE) a line at a time, as a run streams, and
# notes the arguments and NCCL_DEBUG it was started with (REPLAY_LOG).
# Under mpirun, rank 0 prints and the others wait for it, as in nccl-tests.
# With REPLAY_DIR (shared by every host) and REPLAY_SLOW_HOST, a run that
# includes that host replays REPLAY_SLOW_FACTOR (4) times slower: a slow node.
# REPLAY_FILE_<binary name> (REPLAY_FILE_alltoall_perf) replays that collective's own capture.
eval "own=\${REPLAY_FILE_$(basename "$0" | tr -c 'A-Za-z0-9_\n' _):-}"
[ -n "$own" ] && REPLAY_FILE=$own
rank=${OMPI_COMM_WORLD_RANK:-0}
size=${OMPI_COMM_WORLD_SIZE:-1}
job=${PMIX_NAMESPACE:-job}
if [ -n "$REPLAY_DIR" ]; then hostname > "$REPLAY_DIR/$job.rank$rank"; fi
if [ "$rank" != 0 ]; then
    i=0
    while [ -n "$REPLAY_DIR" ] && [ ! -e "$REPLAY_DIR/$job.done" ] && [ $i -lt 2400 ]; do sleep 0.05; i=$((i + 1)); done
    exit 0
fi
[ -n "$REPLAY_LOG" ] && { printf '%s\n' "$*" > "$REPLAY_LOG"; echo "NCCL_DEBUG=$NCCL_DEBUG" >> "$REPLAY_LOG"; }
factor=1
if [ -n "$REPLAY_DIR" ] && [ -n "$REPLAY_SLOW_HOST" ]; then
    i=0
    while [ "$(ls "$REPLAY_DIR" | grep -c "^$job.rank")" -lt "$size" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
    if cat "$REPLAY_DIR/$job".rank* | grep -qx "$REPLAY_SLOW_HOST"; then factor=${REPLAY_SLOW_FACTOR:-4}; fi
fi
# Result rows (a number first, eleven fields or more) get their times multiplied and bandwidths divided by the factor.
awk -v f="$factor" -v d="${REPLAY_DELAY:-0.005}" '
    $1 ~ /^[0-9]+$/ && NF >= 11 && f != 1 {
        n = NF - 8
        line = ""
        for (i = 1; i <= n; i++) line = line sprintf("%12s", $i) "  "
        for (p = 0; p < 2; p++) {
            b = n + 1 + 4 * p
            line = line sprintf(" %9.2f %7.2f %7.2f %6s", $b * f, $(b + 1) / f, $(b + 2) / f, $(b + 3))
        }
        print line
        fflush()
        system("sleep " d)
        next
    }
    { print; fflush(); system("sleep " d) }' "$REPLAY_FILE"
status=$?
[ -n "$REPLAY_DIR" ] && touch "$REPLAY_DIR/$job.done"
exit $status
