import { execFileSync, spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { InspectReport } from './inspect'
import { run } from './run'
import { CORPUS_DIR } from '../test/corpus'

const corpus = fileURLToPath(CORPUS_DIR)
const files = readdirSync(corpus).filter((name) => name.endsWith('.jsonl'))

type Ran = { code: number; out: string; err: string }

/** Runs the command on real files. */
function cli(...argv: string[]): Ran {
  let out = ''
  let err = ''
  const code = run(argv, { out: (t) => (out += t), err: (t) => (err += t) })
  return { code, out, err }
}

/** Runs the command with `content` as the file's text. */
function cliOn(content: string, ...argv: string[]): Ran {
  let out = ''
  let err = ''
  const code = run(argv, { out: (t) => (out += t), err: (t) => (err += t) }, () => content)
  return { code, out, err }
}

function inspect(name: string): InspectReport {
  const { code, out } = cli('inspect', corpus + name, '--json')
  expect(code).toBe(0)
  expect(out.trim().split('\n')).toHaveLength(1) // exactly one JSON object
  return JSON.parse(out) as InspectReport
}

describe('chunkscope inspect --json', () => {
  it('reports every attempt of the retry log with the contract fields', () => {
    const report = inspect('acp-agent-empty-response-retry-session.jsonl')
    expect(report.format).toBe('dsh-session-jsonl')
    expect(report.streams.map((s) => [s.id, s.turn, s.step, s.attempt])).toEqual([
      ['t1.s1.a1', 1, 1, 1],
      ['t1.s1.a2', 1, 1, 2],
    ])
    const [failed, retried] = report.streams
    expect(failed?.finish).toMatchObject({ kind: 'error', failure: { code: 'EMPTY_RESPONSE' } })
    expect(failed?.recorded).toBeNull()
    expect(retried?.recorded).toMatchObject({ interrupted: false, match: true })
    expect(retried?.blocks).toEqual([{ type: 'text', text: 'Recovered.' }])
    expect(Object.keys(retried ?? {})).toEqual(
      expect.arrayContaining([
        'id',
        'seqs',
        'blocks',
        'error',
        'interruptedBlocks',
        'finish',
        'usage',
        'replayState',
        'ignored',
        'findings',
        'recorded',
      ]),
    )
  })

  const LEGACY = 'web-cordis-tool-round-legacy-session.jsonl'

  it.each(files.filter((name) => name !== LEGACY))('matches every recorded message of %s', (name) => {
    const report = inspect(name)
    const mismatched = report.streams.filter((s) => s.recorded !== null && !s.recorded.match).map((s) => s.id)
    expect(mismatched).toEqual([])
  })

  it('reports the hand-trimmed legacy file’s gaps and mismatches instead of crashing', () => {
    const report = inspect(LEGACY)
    const mismatches = report.streams.filter((s) => s.recorded !== null && !s.recorded.match)
    expect(mismatches.length).toBeGreaterThan(0)
    expect(mismatches.every((s) => s.findings.some((f) => f.rule === 'recorded-mismatch'))).toBe(true)
    expect(report.diagnostics.some((d) => d.message.includes('seq gap'))).toBe(true)
  })

  it('names the first divergence of a mismatch: the block-end after the missing deltas', () => {
    const first = inspect(LEGACY).streams[0]!
    // Read from the log by hand: block 0 opens at seq 5, its block-end at 99 is not how the recorded reasoning
    // begins, and the message cites seqs 6–86 and 88–98, which the log does not hold.
    expect(first.recorded?.firstDivergence).toMatchObject({ seq: 99, block: 0, cause: 'seq-gap' })
    expect(first.findings[0]).toMatchObject({ rule: 'recorded-mismatch', seq: 99 })
    expect(first.findings[0]!.message).toContain(
      'blocks 0 (reasoning: text), 1 (tool-call: id, name, arguments) differ',
    )
    const matching = inspect('acp-agent-text-turn-session.jsonl').streams[0]!
    expect(matching.recorded?.firstDivergence).toBeNull()
  })

  it('reports an assembly throw as blocks null with the harness message', () => {
    const chunks = [{ type: 'block-start', index: 0, blockType: 'video' }]
    const { code, out } = cliOn(JSON.stringify(chunks), 'inspect', 'x.json', '--json')
    expect(code).toBe(0)
    const stream = (JSON.parse(out) as InspectReport).streams[0]
    expect(stream).toMatchObject({
      id: 'stream',
      turn: null,
      seqs: [0],
      blocks: null,
      error: 'cannot assemble incomplete block of type "video"',
    })
  })
})

describe('streams the harness throws on', () => {
  // Messages checked against the harness's own assembler.ts run on these chunks.
  const thrown = JSON.stringify([
    { type: 'text-delta', index: 0, text: 'kept' },
    { type: 'block-end', index: 0, block: null },
    { type: 'text-delta', index: 0, text: 'never read' },
  ])

  it('inspect --json: blocks null, the harness message and the seq of the push that threw', () => {
    const { code, out } = cliOn(thrown, 'inspect', 'x.json', '--json')
    expect(code).toBe(0)
    expect((JSON.parse(out) as InspectReport).streams[0]).toMatchObject({
      blocks: null,
      error: "Cannot read properties of null (reading 'type')",
      errorSeq: 1,
      interruptedBlocks: [{ type: 'text', text: 'kept' }],
      interruptedBlocksError: null,
    })
  })

  it('inspect and lint say where it threw; lint fails on it', () => {
    expect(cliOn(thrown, 'inspect', 'x.json').out).toContain(
      "push throws at seq 1: Cannot read properties of null (reading 'type') (the harness reads no further chunk)",
    )
    const lint = cliOn(thrown, 'lint', 'x.json')
    expect(lint.code).toBe(1)
    expect(lint.out).toContain('seq 1: error unknown-chunk:')
  })

  it('a block type with terminal control characters is printed escaped in the error and the findings', () => {
    const chunks = JSON.stringify([{ type: 'block-start', index: 0, blockType: 'x\u001b]0;PWNED\u0007' }])
    const inspected = cliOn(chunks, 'inspect', 'x.json').out
    expect(inspected).toContain(
      'assembly error: cannot assemble incomplete block of type "x\\u{1b}]0;PWNED\\u{7}"',
    )
    expect(inspected + cliOn(chunks, 'lint', 'x.json').out).not.toContain('\u001b')
  })

  it('inspect --json: interruptedBlocks() over a closed text block whose text is a number', () => {
    const chunks = JSON.stringify([{ type: 'block-end', index: 0, block: { type: 'text', text: 5 } }])
    const stream = (JSON.parse(cliOn(chunks, 'inspect', 'x.json', '--json').out) as InspectReport).streams[0]
    expect(stream).toMatchObject({
      blocks: [{ type: 'text', text: 5 }],
      errorSeq: null,
      interruptedBlocks: null,
      interruptedBlocksError: 'block.text.trim is not a function',
    })
  })
})

describe('chunkscope lint', () => {
  it('exits 0 on a clean log, 1 on errors or mismatches, 2 when the file cannot be read', () => {
    expect(cli('lint', corpus + 'acp-agent-empty-response-retry-session.jsonl').code).toBe(0)
    const legacy = cli('lint', corpus + 'web-cordis-tool-round-legacy-session.jsonl')
    expect(legacy.code).toBe(1)
    expect(legacy.out).toContain('recorded-mismatch')
    expect(legacy.out).toContain(
      't1.s1.a1 seq 99: first divergence: block 0 text: seqs 6–86, 88–98 missing from the log',
    )
    const missing = cli('lint', corpus + 'no-such-file.jsonl')
    expect(missing.code).toBe(2)
    expect(missing.err).toMatch(/cannot read .*no such file/)
  })

  it('says why an unrecognised file cannot be read', () => {
    const { code, err } = cliOn('hello world\n', 'lint', 'notes.txt')
    expect(code).toBe(2)
    expect(err).toMatch(/unrecognised format/)
  })
})

describe('the installed command', () => {
  it('runs with plain node and never prints a stack trace for bad input', () => {
    const bin = fileURLToPath(new URL('../../bin/chunkscope.mjs', import.meta.url))
    const ok = execFileSync(
      process.execPath,
      [bin, 'inspect', corpus + 'acp-agent-text-turn-session.jsonl'],
      { encoding: 'utf8' },
    )
    expect(ok).toContain('t1.s1.a1')
    const bad = spawnSync(process.execPath, [bin, 'lint', '/nonexistent/file'], { encoding: 'utf8' })
    expect(bad.status).toBe(2)
    expect(bad.stderr).not.toMatch(/\n\s+at /)
  })

  it('ends quietly when its reader stops early (a pipe into head)', () => {
    const bin = fileURLToPath(new URL('../../bin/chunkscope.mjs', import.meta.url))
    const file = corpus + 'web-goal-multi-turn-actions-session.jsonl'
    // ~90 kB of output, more than a pipe buffers, so the writes after head exits meet a closed pipe.
    const piped = spawnSync(
      'sh',
      [
        '-c',
        `"$0" "$1" export "$2" --to dsh-jsonl | head -c 10 >/dev/null; echo "status $?"`,
        process.execPath,
        bin,
        file,
      ],
      { encoding: 'utf8' },
    )
    expect(piped.stdout).toBe('status 0\n')
    expect(piped.stderr).toBe('')
  })
})
