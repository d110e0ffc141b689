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

# Each major's results also go to a JSON report, so the end of the log names every failed test (CI shows the
# tail of a long log: one major's failures must not scroll away behind the next major's passing run).
reports=$(mktemp -d)
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
  if PATH="$(dirname "$node_bin"):$PATH" "$node_bin" node_modules/vitest/vitest.mjs run "${suites[@]}" \
    --reporter=default --reporter=json --outputFile.json="$reports/node$major.json"; then
    echo "Node $major: passed in $((SECONDS - start)) s"
  else
    echo "Node $major: FAILED after $((SECONDS - start)) s"
    failed+=("$major")
  fi
done
[ ${#failed[@]} -eq 0 ] && exit 0
for major in "${failed[@]}"; do
  echo "::: failed on Node $major:"
  node -e '
    const report = require(process.argv[1]);
    for (const file of report.testResults ?? []) {
      const failures = file.assertionResults.filter((test) => test.status === "failed");
      if (file.status === "failed" && failures.length === 0) console.log(`${file.name}: ${(file.message ?? "").split("\n")[0]}`);
      for (const test of failures) console.log(`${file.name} > ${test.fullName}: ${(test.failureMessages[0] ?? "").split("\n")[0]}`);
    }' "$reports/node$major.json" || echo "(no JSON report for Node $major)"
done
echo "tests failed on Node ${failed[*]}" >&2
exit 1
