import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { countPlaywright, countReport, countVitest } from './ci-summary.mjs'

describe('countVitest', () => {
  it('reads passed and failed tests', () => {
    const report = { numPassedTests: 7, numFailedTests: 2, success: false, testResults: [] }
    expect(countVitest(report)).toEqual({ passed: 7, failed: 2 })
  })

  it('counts a test file that failed to load as a failure', () => {
    const report = {
      numPassedTests: 3,
      numFailedTests: 0,
      success: false,
      testResults: [
        { status: 'passed', assertionResults: [{ status: 'passed' }] },
        { status: 'failed', assertionResults: [] },
      ],
    }
    expect(countVitest(report)).toEqual({ passed: 3, failed: 1 })
  })

  it('never reports an unsuccessful run as zero failures', () => {
    expect(countVitest({ numPassedTests: 4, numFailedTests: 0, success: false })).toEqual({
      passed: 4,
      failed: 1,
    })
  })
})

describe('countPlaywright', () => {
  it('counts flaky tests as passed and unexpected ones as failed', () => {
    const report = { stats: { expected: 5, unexpected: 1, flaky: 1, skipped: 2 }, errors: [] }
    expect(countPlaywright(report)).toEqual({ passed: 6, failed: 1 })
  })

  it('counts global errors when no test failed', () => {
    const report = { stats: { expected: 0, unexpected: 0, flaky: 0 }, errors: [{ message: 'webServer' }] }
    expect(countPlaywright(report)).toEqual({ passed: 0, failed: 1 })
  })
})

describe('countReport', () => {
  it('counts a missing report as one failure and says so', () => {
    const warnings: string[] = []
    const counts = countReport('/nonexistent/unit.json', countVitest, (message) => warnings.push(message))
    expect(counts).toEqual({ passed: 0, failed: 1 })
    expect(warnings).toEqual(['ci-summary: /nonexistent/unit.json is missing: counted as 1 failure'])
  })

  it('counts an unreadable report as one failure', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'ci-summary-')), 'e2e.json')
    writeFileSync(path, '{"stats": ')
    expect(countReport(path, countPlaywright, () => {})).toEqual({ passed: 0, failed: 1 })
  })
})
