#!/usr/bin/env bash
# Every C++ file in the repository matches the project's .clang-format (Debian 12's clang-format 14).
# Prints the files that do not, and how to fix them; exits 1 if there are any.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.cpp' '*.h')
bad=()
for f in "${files[@]}"; do
    clang-format --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if ((${#bad[@]})); then
    printf 'not formatted with .clang-format: %s\n' "${bad[@]}" >&2
    echo "fix with: clang-format -i ${bad[*]}" >&2
    exit 1
fi
echo "check-format: ${#files[@]} files match .clang-format"
