import { describe, expect, it } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import { loadSource } from '../load'
import { readCorpus } from '../../test/corpus'
import { bugReport } from './bugReport'

describe('bug report', () => {
  it('the cordis attempt: what was loaded, the mismatch, its first divergence, the link, the chunks around it', () => {
    const file = 'web-cordis-tool-round-legacy-session.jsonl'
    const source = loadSource(readCorpus(file), file)
    const attempt = source.sessions[0]!.streams[0]!
    const findings = [
      { rule: 'recorded-mismatch', severity: 'error', seq: 99, pos: 2, message: 'blocks() differs' } as const,
      ...analyzeStream(attempt.chunks).findings,
    ]
    const text = bugReport({
      name: file,
      format: source.format,
      attempt,
      findings,
      link: 'https://x/#v1.abc',
    })
    expect(text).toContain(`- **Loaded:** \`${file}\` (dsh-session-jsonl), stream \`t1.s1.a1\`, 6 chunks`)
    expect(text).toContain('- **Finding:** error `recorded-mismatch` at seq 99: blocks() differs')
    expect(text).toContain(
      '- **First divergence:** seq 99, block 0 text: seqs 6–86, 88–98 missing from the log',
    )
    expect(text).toContain('- **Link:** https://x/#v1.abc')
    // The fenced block holds the chunks around position 2, each readable back as a chunk with its seq.
    const block = /```ndjson\n([\s\S]*?)\n```/.exec(text)![1]!.split('\n')
    const rows = block.map((line) => JSON.parse(line) as { seq: number; chunk: unknown })
    expect(rows.map((row) => row.seq)).toEqual(attempt.chunks.slice(0, 6).map((c) => c.seq))
    expect(rows[2]!.chunk).toEqual(attempt.chunks[2]!.chunk)
  })

  it('a fence longer than any backtick run in the stream', () => {
    const attempt = {
      ...loadSource('{"type":"text-delta","index":0,"text":"```js"}\n').sessions[0]!.streams[0]!,
    }
    const text = bugReport({ name: 'x.ndjson', format: null, attempt, findings: [], link: null })
    expect(text).toContain('````ndjson\n')
    expect(text).not.toContain('**Link:**')
  })
})
