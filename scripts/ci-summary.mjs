#!/usr/bin/env node
// Sums Vitest's and Playwright's JSON reports into the one line CI reads: `N passed, N failed`.
// A missing or unreadable report counts as one failure of its suite, so a crash can never look green.
import { readFileSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

/** @param {any} report Vitest's `--reporter=json` output. */
export function countVitest(report) {
  const files = Array.isArray(report?.testResults) ? report.testResults : []
  // A file that failed to load (syntax error, failing import) has no failed test of its own.
  const brokenFiles = files.filter(
    (/** @type {any} */ file) =>
      file.status === 'failed' &&
      !(file.assertionResults ?? []).some((/** @type {any} */ test) => test.status === 'failed'),
  ).length
  const passed = Number(report?.numPassedTests ?? 0)
  let failed = Number(report?.numFailedTests ?? 0) + brokenFiles
  if (failed === 0 && report?.success === false) failed = 1
  return { passed, failed }
}

/** @param {any} report Playwright's JSON reporter output. */
export function countPlaywright(report) {
  const stats = report?.stats ?? {}
  const passed = Number(stats.expected ?? 0) + Number(stats.flaky ?? 0)
  let failed = Number(stats.unexpected ?? 0)
  // Global errors (web server did not start, a spec file failed to load) may leave no failed test behind.
  if (failed === 0 && Array.isArray(report?.errors) && report.errors.length > 0) failed = report.errors.length
  return { passed, failed }
}

/**
 * @param {string} path
 * @param {(report: any) => { passed: number, failed: number }} count
 * @param {(message: string) => void} warn
 */
export function countReport(path, count, warn) {
  let text
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    warn(`ci-summary: ${path} is missing: counted as 1 failure`)
    return { passed: 0, failed: 1 }
  }
  try {
    return count(JSON.parse(text))
  } catch (error) {
    warn(`ci-summary: ${path} is not valid JSON (${String(error)}): counted as 1 failure`)
    return { passed: 0, failed: 1 }
  }
}

function main() {
  const [unitPath = 'test-results/unit.json', e2ePath = 'test-results/e2e.json'] = process.argv.slice(2)
  const warn = (/** @type {string} */ message) => process.stderr.write(`${message}\n`)
  const unit = countReport(unitPath, countVitest, warn)
  const e2e = countReport(e2ePath, countPlaywright, warn)
  const passed = unit.passed + e2e.passed
  const failed = unit.failed + e2e.failed
  process.stdout.write(`${passed} passed, ${failed} failed\n`)
  process.exitCode = failed === 0 ? 0 : 1
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main()
