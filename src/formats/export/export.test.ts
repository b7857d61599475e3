import { spawnSync } from 'node:child_process'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { BlockAssembler } from '../../core/BlockAssembler'
import { buildStreamSession, type SessionEvent } from '../../core/session'
import { sourced, tcd, td } from '../../test/chunks'
import { corpusFiles, readCorpus } from '../../test/corpus'
import { generateStream } from '../../test/generate'
import { loadSource } from '../load'
import {
  assembleMessage,
  exportStream,
  streamAsSessionLog,
  toMessageJson,
  toNdjson,
  toSessionJsonl,
  toVitestFile,
} from './index'

const strip = (events: readonly SessionEvent[]) =>
  events.map(({ line: _line, packed: _packed, ...rest }) => rest)

describe('harness session JSONL in the canonical packed layout', () => {
  it.each(corpusFiles())('%s: loading the export back gives identical events', (name) => {
    const source = loadSource(readCorpus(name), name)
    const session = source.sessions[0]!
    const again = loadSource(toSessionJsonl(session), name)
    expect(again.format).toBe('dsh-session-jsonl')
    expect(again.sessions[0]!.header).toEqual(session.header)
    expect(strip(again.sessions[0]!.events)).toEqual(strip(session.events))
    // The same rows are packed as the harness packed them.
    expect(again.sessions[0]!.events.map((e) => e.packed ?? null)).toEqual(
      session.events.map((e) => e.packed ?? null),
    )
  })

  // The harness's own files, byte for byte (one file orders surfaceOp before sourceEventSeqs; events keep no key order).
  it.each(corpusFiles().filter((name) => name !== 'headless-agent-tool-outcome-unknown-session.jsonl'))(
    '%s: the export is the harness file byte for byte',
    (name) => {
      const text = readCorpus(name)
      expect(toSessionJsonl(loadSource(text, name).sessions[0]!)).toBe(text)
    },
  )

  it('packs only runs of ≥ 3 consecutive deltas of one kind, index, turn, step, id and name', () => {
    const event = (seq: number, chunk: object, extra: object = {}): SessionEvent => ({
      type: 'assistant/chunk',
      seq,
      time: 100 + seq * 3,
      data: { turn: 1, step: 1, chunk },
      line: seq + 2,
      ...extra,
    })
    const events = [
      event(0, td(0, 'a')),
      event(1, td(0, 'b')),
      event(2, td(1, 'c')), // index changes: the first run has 2 members, stays plain
      event(3, td(1, 'd')),
      event(4, td(1, 'e')),
      event(5, tcd(2, 'c1', 'read', '{')), // name present on every member
      event(6, tcd(2, 'c1', 'read', '"a"')),
      event(7, tcd(2, 'c1', 'read', ':1}')),
      event(8, tcd(2, 'c1', undefined, 'x')), // name absent: a new run
      event(9, tcd(2, 'c1', undefined, 'y')),
      event(10, tcd(2, 'c1', undefined, 'z'), { sourceEventSeqs: [1] }), // extra field: never packed
      event(11, { ...td(3, 'q'), extra: true }),
    ]
    const text = toSessionJsonl({ header: null, events })
    const rows = text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string })
    expect(rows.map((row) => row.type)).toEqual([
      'assistant/chunk',
      'assistant/chunk',
      'text-chunks',
      'tool-call-chunks',
      'assistant/chunk',
      'assistant/chunk',
      'assistant/chunk',
      'assistant/chunk',
    ])
    expect(rows[2]).toEqual({
      type: 'text-chunks',
      seq0: 2,
      time0: 106,
      data: { turn: 1, step: 1, index: 1, dt: [3, 3], texts: ['c', 'd', 'e'] },
    })
    expect(rows[3]).toMatchObject({ data: { id: 'c1', name: 'read', args: ['{', '"a"', ':1}'] } })
    const back = loadSource(text).sessions[0]!.events
    expect(strip(back)).toEqual(strip(events))
  })

  it('a bare stream becomes a one-turn log whose stream has the same chunks', () => {
    const chunks = generateStream(2000)
    const text = toSessionJsonl(streamAsSessionLog(chunks))
    const session = loadSource(text).sessions[0]!
    expect(session.streams.map((s) => s.id)).toEqual(['t1.s1.a1'])
    expect(session.streams[0]!.chunks.map((s) => [s.chunk, s.time])).toEqual(
      chunks.map((s) => [s.chunk, s.time]),
    )
    expect(text.split('\n').filter((line) => line.includes('-chunks"')).length).toBeGreaterThan(0)
  })
})

describe('NDJSON and message exports', () => {
  it.each(corpusFiles())('%s: NDJSON of every stream reads back as the same chunks', (name) => {
    const source = loadSource(readCorpus(name), name)
    for (const attempt of source.sessions[0]!.streams) {
      const back = loadSource(toNdjson(attempt.chunks))
      expect(back.sessions[0]!.streams[0]!.chunks.map((s) => s.chunk)).toEqual(
        attempt.chunks.map((s) => s.chunk),
      )
    }
  })

  it('the message is what the assembler yields', () => {
    const chunks = generateStream(700)
    const assembler = new BlockAssembler()
    for (const s of chunks) assembler.push(s.chunk)
    const message = JSON.parse(toMessageJson(chunks.map((s) => s.chunk)))
    expect(message).toEqual({
      role: 'assistant',
      content: assembler.blocks(),
      usage: assembler.usage,
      finish: { kind: 'stop' },
      hasFinish: true,
    })
  })

  it('an unfinished stream carries what a cancel keeps; an unknown open block its error', () => {
    const open = assembleMessage([{ type: 'block-start', index: 0, blockType: 'video' }])
    expect(open).toMatchObject({ content: null, error: 'cannot assemble incomplete block of type "video"' })
    expect(open.interruptedContent).toEqual([])
    expect(assembleMessage([{ type: 'text-delta', index: 0, text: 'half' }]).interruptedContent).toEqual([
      { type: 'text', text: 'half' },
    ])
  })

  it('exportStream names files and picks the right content', () => {
    const name = 'acp-agent-packed-chunks-session.jsonl'
    const source = loadSource(readCorpus(name), name)
    const session = source.sessions[0]!
    const attempt = session.streams[1]!
    expect(exportStream({ session, attempt, name }, 'dsh-jsonl')).toMatchObject({
      fileName: 'acp-agent-packed-chunks-session.jsonl',
      text: readCorpus(name),
    })
    expect(exportStream({ session, attempt, name }, 'ndjson').fileName).toBe(
      'acp-agent-packed-chunks-session-t1.s2.a1.ndjson',
    )
    expect(exportStream({ session, attempt, name }, 'vitest').fileName).toMatch(/t1\.s2\.a1\.test\.ts$/)
    const bare = buildStreamSession(generateStream(10))
    expect(
      loadSource(exportStream({ session: bare, attempt: bare.streams[0]! }, 'dsh-jsonl').text).format,
    ).toBe('dsh-session-jsonl')
  })
})

const LEGACY = 'web-cordis-tool-round-legacy-session.jsonl'

describe('Vitest regression file', () => {
  const generated = fileURLToPath(new URL('./__generated__/', import.meta.url))
  const root = fileURLToPath(new URL('../../../', import.meta.url))

  it('is self-contained, passes as generated, and fails when the assembly changes', () => {
    const name = 'acp-agent-max-tokens-continue-session.jsonl'
    const source = loadSource(readCorpus(name), name)
    const files: Record<string, string> = {}
    const importPath = '../../../core/BlockAssembler'
    source.sessions[0]!.streams.forEach((attempt, i) => {
      files[`corpus-${i}`] = toVitestFile(
        attempt.chunks.map((s) => s.chunk),
        { title: `${name} ${attempt.id}`, importPath },
      )
    })
    files['generated'] = toVitestFile(
      generateStream(400).map((s) => s.chunk),
      { importPath },
    )
    files['unknown-open'] = toVitestFile(
      sourced([{ type: 'block-start', index: 0, blockType: 'video' }]).map((s) => s.chunk),
      {
        importPath,
      },
    )
    files['proto'] = toVitestFile([{ type: 'mystery', ['__proto__']: { polluted: 1 } } as never], {
      importPath,
    })
    // Asserting the recorded message: the hand-trimmed cordis attempt assembles to something else than its
    // assistant/message (the deltas are missing from the log), so its test fails; a matching attempt's passes.
    const cordis = loadSource(readCorpus(LEGACY), LEGACY)
    const mismatching = cordis.sessions[0]!.streams[0]!
    files['recorded-mismatch'] = exportStream(
      { session: cordis.sessions[0]!, attempt: mismatching, name: LEGACY, importPath },
      'vitest-recorded',
    ).text
    const matching = source.sessions[0]!.streams.find((attempt) => attempt.recorded !== null)!
    files['recorded-match'] = exportStream(
      { session: source.sessions[0]!, attempt: matching, name, importPath },
      'vitest-recorded',
    ).text
    expect(files['recorded-mismatch']).toContain(
      '// First divergence: seq 99, block 0 text: seqs 6–86, 88–98 missing from the log',
    )
    // A copy whose expectation no longer holds must fail: the file really asserts.
    files['broken'] = files['generated']!.replace(
      'toEqual({"kind":"stop"})',
      'toEqual({"kind":"tool-calls"})',
    )
    expect(files['broken']).not.toBe(files['generated'])
    expect(files['generated']).toContain(`import { BlockAssembler } from '${importPath}'`)

    const stamp = `${process.pid}-${Date.now()}`
    mkdirSync(generated, { recursive: true })
    const paths = Object.entries(files).map(([key, text]) => {
      const path = `${generated}${key}-${stamp}.test.ts`
      writeFileSync(path, text)
      return path
    })
    try {
      const vitest = fileURLToPath(new URL('../../../node_modules/vitest/vitest.mjs', import.meta.url))
      const ran = spawnSync(process.execPath, [vitest, 'run', '--reporter=json', ...paths], {
        cwd: root,
        encoding: 'utf8',
        timeout: 120_000,
      })
      const report = JSON.parse(ran.stdout) as { testResults: { name: string; status: string }[] }
      const status = Object.fromEntries(
        report.testResults.map((result) => [
          result.name.slice(generated.length).replace(`-${stamp}.test.ts`, ''),
          result.status,
        ]),
      )
      expect(status).toEqual({
        ...Object.fromEntries(Object.keys(files).map((key) => [key, 'passed'])),
        broken: 'failed',
        'recorded-mismatch': 'failed',
      })
    } finally {
      for (const path of paths) rmSync(path, { force: true })
    }
  }, 120_000)
})
