#!/usr/bin/env bash
# Runs the packages' tests and the packed-install smoke test again on the other supported Node majors.
# Node 20 is the machine's own and runs them in the README's test command; 22 and 24 come from the
# npm registry's `node` package (real binaries, installed by npx), so nothing but npm is needed.
# Usage: scripts/test-node-majors.sh [major ...]   (default: 22 24); FIN_NODE_MAJORS="22" also works.
set -euo pipefail
cd "$(dirname "$0")/.."

majors=("$@")
[ ${#majors[@]} -gt 0 ] || read -r -a majors <<<"${FIN_NODE_MAJORS:-22 24}"

# The browser test (test/docs) needs nothing from Node's version; the rest of the root tests are docs checks.
suites=(packages test/release)

failed=()
for major in "${majors[@]}"; do
  start=$SECONDS
  # npx fetches the binary once; vitest then runs on it directly (not under npx, whose npm_config_* settings
  # would leak into the npx calls the tests make), with it first on PATH for the processes the tests spawn.
  node_bin=$(npx -y -p "node@$major" -- node -p process.execPath | tail -n 1)
  version=$("$node_bin" --version)
  [ "${version%%.*}" = "v$major" ] || { echo "expected Node $major, got $version from $node_bin" >&2; exit 1; }
  echo "+ Node $version: vitest run ${suites[*]}"
  # Every major runs even when one fails, so a single CI run shows them all.
  if PATH="$(dirname "$node_bin"):$PATH" "$node_bin" node_modules/vitest/vitest.mjs run "${suites[@]}"; then
    echo "Node $major: passed in $((SECONDS - start)) s"
  else
    echo "Node $major: FAILED after $((SECONDS - start)) s"
    failed+=("$major")
  fi
done
[ ${#failed[@]} -eq 0 ] || { echo "tests failed on Node ${failed[*]}" >&2; exit 1; }
