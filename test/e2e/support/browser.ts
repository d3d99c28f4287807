// Debian's Chromium driven by playwright-core, with a fresh profile per run. Playwright starts
// the browser in its own process group and kills it when this process exits.
import { chromium, type BrowserContext } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { sandboxEnv } from './codeServer';

export async function launchBrowser(executablePath: string, sandbox: string): Promise<BrowserContext> {
  const profile = join(sandbox, 'chromium-profile');
  mkdirSync(profile, { recursive: true });
  return chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    // HOME/XDG point into the sandbox too: Chromium otherwise creates ~/.pki and ~/.cache.
    env: sandboxEnv(sandbox) as Record<string, string>,
    viewport: { width: 1400, height: 900 },
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}
