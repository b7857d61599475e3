import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { InspectReport } from './inspect'
import { run } from './run'

/** `chunkscope inspect --json` on the text formats (fixtures in src/formats/fixtures/). */
const fixture = (name: string) =>
  readFileSync(new URL(`../formats/fixtures/${name}`, import.meta.url), 'utf8')

function inspect(name: string): { code: number; report: InspectReport } {
  let out = ''
  const code = run(['inspect', name, '--json'], { out: (t) => (out += t), err: () => {} }, () =>
    fixture(name),
  )
  return { code, report: JSON.parse(out) as InspectReport }
}

describe('chunkscope inspect --json on captured and pasted formats', () => {
  it('reads a DeepSeek SSE capture', () => {
    const { code, report } = inspect('deepseek-reasoner-tool-calls.sse')
    expect(code).toBe(0)
    expect(report.format).toBe('openai-sse')
    expect(report.streams.map((s) => s.id)).toEqual(['stream'])
    expect(report.streams[0]!.finish).toEqual({ kind: 'tool-calls' })
    expect(report.streams[0]!.blocks).toHaveLength(4)
  })

  it('reads a truncated Anthropic SSE capture as pi-ai does: its cut last line fails to parse', () => {
    const { code, report } = inspect('anthropic-truncated.sse')
    expect(code).toBe(0)
    expect(report.format).toBe('anthropic-sse')
    expect(report.streams[0]!.finish).toMatchObject({ kind: 'error', failure: { code: 'PI_AI_ERROR' } })
    expect(report.diagnostics).toContainEqual(expect.objectContaining({ severity: 'error', line: 46 }))
  })

  it("shows the Anthropic route's skipped server blocks and usage.iterations in --json", () => {
    const { report } = inspect('anthropic/vercel-compaction.1.sse')
    const messages = report.diagnostics.map((d) => d.message)
    expect(messages).toContainEqual(expect.stringContaining('skipped 1 content block and 1 delta to it'))
    expect(messages).toContainEqual(expect.stringContaining('usage.iterations (2)'))
  })

  it.each([
    ['devtools-capture.har', 'har', ['har2', 'har3', 'har4', '1/t1.s1.a1', '1/t1.s1.a2', '2/t1.s1.a1']],
    ['dsh-live-two-sessions.ndjson', 'dsh-live-recording', ['t1.s1.a1', 't1.s1.a2', '1/t1.s1.a1']],
    ['tutorial-simplified-tools.ndjson', 'simplified-stream', ['stream']],
    ['seed-004-example-chunks.ts.txt', 'js-snippet', ['stream']],
  ])('reads %s as %s', (name, format, ids) => {
    const { code, report } = inspect(name)
    expect(code).toBe(0)
    expect(report.format).toBe(format)
    expect(report.streams.map((s) => s.id)).toEqual(ids)
  })
})
