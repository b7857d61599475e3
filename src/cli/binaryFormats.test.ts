import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { InspectReport } from './inspect'
import { run, runBytes } from './run'
import { CORPUS_DIR } from '../test/corpus'

/** `chunkscope inspect --json` on the binary containers (fixtures from scripts/make-fixtures.mjs). */
const dir = fileURLToPath(new URL('../formats/fixtures/binary/', import.meta.url))
const corpus = fileURLToPath(CORPUS_DIR)
const fixtures = readdirSync(dir)

async function inspect(path: string): Promise<{ code: number; report: InspectReport; err: string }> {
  let out = ''
  let err = ''
  const code = await runBytes(['inspect', path, '--json'], { out: (t) => (out += t), err: (t) => (err += t) })
  return { code, report: JSON.parse(out) as InspectReport, err }
}

describe('chunkscope inspect --json on binary containers', () => {
  const NOT_A_STORE = 'sqlite-not-a-session-store.sqlite'

  it.each(fixtures.filter((name) => name !== NOT_A_STORE))('reads %s', async (name) => {
    const { code, report } = await inspect(dir + name)
    expect(code).toBe(0)
    expect(report.format).toMatch(/^dsh-(session-zstd|session-zip|sqlite)$/)
    expect(report.streams.length).toBeGreaterThan(0)
  })

  it('exits 2 on a SQLite database that is not a session store', async () => {
    const { code, report, err } = await inspect(dir + NOT_A_STORE)
    expect(code).toBe(2)
    expect(report.format).toBeNull()
    expect(err).toBe('')
  })

  it('reports a zstd log exactly as the plain log it was made from, bar the name', async () => {
    const name = 'web-goal-multi-turn-actions-session.jsonl'
    const { report } = await inspect(`${dir}${name}.zstd`)
    let out = ''
    run(['inspect', corpus + name, '--json'], { out: (t) => (out += t), err: () => {} })
    const plain = JSON.parse(out) as InspectReport
    expect(report.streams).toEqual(plain.streams)
    expect(report.diagnostics).toEqual(plain.diagnostics)
  })

  it('reads the same files handed in as bytes by the caller', async () => {
    let out = ''
    const bytes = readFileSync(dir + 'dsh-sessions.sqlite')
    const code = await runBytes(
      ['lint', 'store.sqlite'],
      { out: (t) => (out += t), err: () => {} },
      () => bytes,
    )
    expect(code).toBe(0)
    expect(out).toContain('store.sqlite')
  })
})

describe('chunkscope lint on damaged containers', () => {
  it.each([
    ['zip-crc-error.zip', /CRC-32 mismatch/],
    ['bad-checksum.session.jsonl.zstd', /content checksum mismatch/],
  ])('exits 1 on %s and counts the reader error in its summary', async (name, error) => {
    let out = ''
    const code = await runBytes(['lint', dir + name], { out: (t) => (out += t), err: () => {} })
    expect(code).toBe(1)
    expect(out).toMatch(error)
    const summary = out.trim().split('\n').at(-1)!
    expect(summary).toMatch(/: [1-9]\d* errors?, /)
  })
})
