import { describe, expect, it } from 'vitest'
import { readCorpus } from '../test/corpus'
import { deepUsageLog, nested } from '../test/hostile'
import { nestsDeeperThan, parseJson, parseJsonUnless, valueNestsDeeperThan } from './json'
import { loadSource } from './load'
import { MAX_JSON_DEPTH } from './limits'

/**
 * JSON nested past MAX_JSON_DEPTH is refused record by record: the record's line is named, everything else is
 * kept, and nothing downstream (JSON.stringify, structured clone to the page) meets a value deep enough to overflow.
 */
const plain = loadSource(readCorpus('acp-agent-text-turn-session.jsonl'))

describe('nesting depth', () => {
  it('is measured on the text, brackets inside strings not counting', () => {
    expect(nestsDeeperThan(nested(3), 3)).toBe(false)
    expect(nestsDeeperThan(nested(4), 3)).toBe(true)
    expect(nestsDeeperThan(`["${'['.repeat(50)}\\"${'{'.repeat(50)}"]`, 3)).toBe(false)
    // An escaped backslash ends the string; an escaped quote does not.
    expect(nestsDeeperThan(`["a\\\\",${nested(4)}]`, 3)).toBe(true)
    expect(nestsDeeperThan(`["a\\"${nested(4)}"]`, 3)).toBe(false)
    expect(nestsDeeperThan(`"unterminated ${nested(10)}`, 3)).toBe(false)
    expect(parseJson(nested(MAX_JSON_DEPTH)).ok).toBe(true)
    expect(parseJson(nested(MAX_JSON_DEPTH + 1))).toEqual({
      ok: false,
      reason: 'nested deeper than 512 levels (the most a reader accepts)',
      deep: true,
    })
    expect(valueNestsDeeperThan(JSON.parse(nested(600)), 512)).toBe(true)
    expect(valueNestsDeeperThan(JSON.parse(nested(512)), 512)).toBe(false)
  })

  it.each([5_000, 10_000, 100_000])('a usage chunk nested %i deep costs its own line only', (depth) => {
    const { text, line } = deepUsageLog(depth)
    const source = loadSource(text)
    expect(source.diagnostics).toContainEqual({
      line,
      severity: 'error',
      message: `line ${line}: nested deeper than 512 levels (the most a reader accepts); line skipped`,
    })
    const events = source.sessions[0]!.events
    const expected = plain.sessions[0]!.events.filter((e) => e.line !== line)
    expect(events).toEqual(expected)
    expect(() => JSON.stringify(source)).not.toThrow()
  })

  // The reader skips the depth scan of a packed row that passes §7 with flat turn, step and index (json.ts,
  // parseJsonUnless): a row deep anywhere else, or broken and deep, is still refused for its depth.
  it('refuses a deep packed row for its depth, however the row is otherwise', () => {
    const deep = JSON.parse(nested(600)) as unknown
    const row = (data: Record<string, unknown>, extra = '') =>
      JSON.stringify({
        type: 'text-chunks',
        seq0: 0,
        time0: 1,
        data: { turn: 1, step: 1, index: 0, dt: [1], texts: ['a', 'b'], ...data },
      }).slice(0, extra === '' ? undefined : -1) + extra
    const lines = [
      row({ turn: deep }),
      row({ index: deep }),
      row({ texts: ['a', deep] }),
      row({ dt: [deep] }),
      row({ extra: deep }),
      row({ turn: deep }, ','),
      row({}, `,"x":${nested(600)}}`),
    ]
    for (const line of lines) {
      const header = JSON.stringify({ type: 'session', version: 0, id: 's', createdAt: 1 })
      const { diagnostics } = loadSource(`${header}\n${line}\n`)
      expect(diagnostics[0]).toEqual({
        line: 2,
        severity: 'error',
        message: 'line 2: nested deeper than 512 levels (the most a reader accepts); line skipped',
      })
      expect(parseJsonUnless(line, () => false)).toEqual(parseJson(line))
    }
    // A long chunk event is not scanned when it nests a few levels; one nested deeper is, and is refused.
    const text = 'x'.repeat(3000)
    const event = (chunk: unknown) =>
      JSON.stringify({ type: 'assistant/chunk', seq: 0, time: 1, data: { turn: 1, step: 1, chunk } })
    const blockEnd = event({ type: 'block-end', index: 0, block: { type: 'text', text } })
    expect(parseJsonUnless(blockEnd, () => false)).toEqual(parseJson(blockEnd))
    const deepEnd = event({ type: 'block-end', index: 0, block: { type: 'text', text, x: deep } })
    const header = JSON.stringify({ type: 'session', version: 0, id: 's', createdAt: 1 })
    expect(loadSource(`${header}\n${deepEnd}\n`).diagnostics[0]!.message).toBe(
      'line 2: nested deeper than 512 levels (the most a reader accepts); line skipped',
    )
    const fine = row({})
    expect(parseJsonUnless(fine, () => false)).toEqual(parseJson(fine))
  })

  it('drops only the deep item of a JSON array of chunks, or of NDJSON', () => {
    const ok = { type: 'text-delta', index: 0, text: 'hi' }
    const deep = { type: 'usage', usage: { inputTokens: 1, outputTokens: 1, x: JSON.parse(nested(2_000)) } }
    const array = loadSource(JSON.stringify([ok, deep, ok]))
    expect(array.sessions[0]!.streams[0]!.chunks).toHaveLength(2)
    expect(array.diagnostics).toContainEqual({
      severity: 'error',
      message: 'item 1: nested deeper than 512 levels (the most a reader accepts); skipped',
    })
    const ndjson = loadSource([ok, deep, ok, ok].map((c) => JSON.stringify(c)).join('\n') + '\n')
    expect(ndjson.sessions[0]!.streams[0]!.chunks).toHaveLength(3)
    expect(ndjson.diagnostics.map((d) => d.message)).toContain(
      'line 2: nested deeper than 512 levels (the most a reader accepts); line skipped',
    )
  })

  it('keeps every other yield of a snippet whose literal nests 100,000 deep', () => {
    const snippet = [
      'async function* stream() {',
      "  yield { type: 'block-start', index: 0, block: { type: 'text' } }",
      "  yield { type: 'text-delta', index: 0, text: 'hi' }",
      `  yield { type: 'usage', usage: { inputTokens: 1, outputTokens: 2, x: ${nested(100_000)} } }`,
      "  yield { type: 'block-end', index: 0, block: { type: 'text', text: 'hi' } }",
      "  yield { type: 'finish', reason: { kind: 'stop' } }",
      '}',
      '',
    ].join('\n')
    const source = loadSource(snippet)
    expect(source.format).toBe('js-snippet')
    expect(source.sessions[0]!.streams[0]!.chunks.map((c) => (c.chunk as { type: string }).type)).toEqual([
      'block-start',
      'text-delta',
      'block-end',
      'finish',
    ])
    expect(source.diagnostics.map((d) => d.message).join('\n')).toMatch(
      /line 4.*nested deeper than 512 levels/,
    )
  })
})
