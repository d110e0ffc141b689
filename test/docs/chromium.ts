// Headless Chromium for the docs tests: Debian's chromium driven by playwright-core, no browser download.
import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(chromiumPath);
const inCi = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';

/** Without Chromium a developer's run skips the browser tests (and says so); CI fails instead. */
export const skipBrowser = !hasChromium && !inCi;

export function announceSkip(what: string): void {
  if (!skipBrowser) return;
  process.stderr.write(
    `${what} skipped: no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH); with CI set it fails instead\n`,
  );
}

export async function launchChromium(): Promise<Browser> {
  if (!hasChromium)
    throw new Error(`CI needs Chromium at ${chromiumPath}: .ci/run installs Debian's chromium`);
  return chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
