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

for major in "${majors[@]}"; do
  start=$SECONDS
  echo "+ Node $major: vitest run ${suites[*]}"
  npx -y -p "node@$major" -- node -e '
    const want = process.argv[1];
    const got = process.versions.node.split(".")[0];
    if (got !== want) { console.error(`expected Node ${want}, got ${process.version}`); process.exit(1); }
    console.log(`Node ${process.version}`);' "$major"
  npx -y -p "node@$major" -- node node_modules/vitest/vitest.mjs run "${suites[@]}"
  echo "Node $major: done in $((SECONDS - start)) s"
done
