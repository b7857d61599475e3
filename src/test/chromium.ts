import { existsSync } from 'node:fs'

/**
 * How this project starts Chromium (Playwright e2e and the UI benchmark): the system browser when there is one
 * (CHROMIUM_PATH, else Debian's /usr/bin/chromium), else Playwright's own installed one — never a download.
 */
export function chromiumPath(): string | undefined {
  const fromEnv = process.env['CHROMIUM_PATH']
  if (fromEnv) return fromEnv
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined
}

/** Flags for a sandboxed CI machine with no GPU and no network beyond loopback. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]
