import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_ARGS, chromiumPath } from './src/test/chromium'

// E2E_PORT lets two checkouts on one machine run their suites side by side (reuseExistingServer would otherwise
// test the other checkout's build).
const PORT = Number(process.env['E2E_PORT'] ?? 5199)
const BASE_URL = `http://127.0.0.1:${PORT}`
const CI = Boolean(process.env['CI'])

const executablePath = chromiumPath()

export default defineConfig({
  testDir: 'e2e',
  // Not the default `test-results`: Playwright empties its outputDir at start, and Vitest's JSON report lives there.
  outputDir: 'test-results/e2e-artifacts',
  fullyParallel: true,
  forbidOnly: CI,
  retries: 0,
  workers: 2,
  // Per test, a guard against a hang rather than a speed check (bench/ measures speed): corpus pages take a few
  // seconds on an idle 2-core machine and several times that when it is shared.
  timeout: 60_000,
  // An assertion waits for what the page shows next, not for a speed: on a shared machine a worker's load can take
  // longer than Playwright's default 5 s, and waiting longer changes no verdict.
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e.json' }]],
  use: {
    baseURL: BASE_URL,
    trace: 'retain-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1440, height: 900 },
        // The UI follows the browser's language (docs/i18n.md): the specs read English unless they choose another.
        locale: 'en-US',
        launchOptions: {
          ...(executablePath === undefined ? {} : { executablePath }),
          args: CHROMIUM_ARGS,
        },
      },
    },
  ],
  webServer: {
    // The production build, served by `vite preview`: what users get, and pages load without on-demand transforms.
    // One strict port: a second server on another port would silently test stale code.
    command: `npx vite build --logLevel warn && npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: BASE_URL,
    reuseExistingServer: !CI,
    timeout: 180_000,
  },
})
