#!/bin/sh
# Stands in for an nccl-tests binary on a machine without a GPU: replays a
# real captured output (REPLAY_FILE) a line at a time, as a run streams, and
# notes the arguments and NCCL_DEBUG it was started with (REPLAY_LOG).
printf '%s\n' "$*" > "$REPLAY_LOG"
echo "NCCL_DEBUG=$NCCL_DEBUG" >> "$REPLAY_LOG"
while IFS= read -r line; do
    printf '%s\n' "$line"
    sleep 0.005
done < "$REPLAY_FILE"
