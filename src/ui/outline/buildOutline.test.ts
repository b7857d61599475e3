import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { compareRecorded } from '../../core/session'
import { loadSource } from '../../formats/load'
import { AttemptResults } from '../../app/attemptResults'
import type { AttemptSummary } from '../../core/attemptSummary'
import { readCorpus } from '../../test/corpus'
import { buildOutline, type OutlineNode } from './buildOutline'
import { flattenOutline, groupIds, pathTo } from './flattenOutline'

/** The summaries of the source loaded last, as the store's results compute them. */
let results = new AttemptResults(null)

function load(name: string) {
  const source = loadSource(readCorpus(name), name)
  results = new AttemptResults(source)
  return source
}

function printSummary(summary: AttemptSummary | null): string {
  if (summary === null) return '(pending)'
  const finish = summary.code === null ? summary.finish : `${summary.finish} ${summary.code}`
  const counts = `${summary.errors ? ` ${summary.errors}✕` : ''}${summary.warnings ? ` ${summary.warnings}⚠` : ''}`
  const mark = summary.recorded
  const recorded =
    mark.kind === 'match'
      ? ' ✓'
      : mark.kind === 'mismatch'
        ? ' ✗'
        : mark.kind === 'interrupted'
          ? ` interrupted ${mark.match ? '✓' : '✗'}`
          : mark.kind === 'uncited'
            ? ' uncited'
            : ''
  return `${finish}${counts}${recorded}`
}

/** The outline as text: one line per node, indented by depth, events after a `·`. */
function printOutline(nodes: readonly OutlineNode[], depth = 0): string {
  return nodes
    .map((node) => {
      const pad = '  '.repeat(depth)
      switch (node.kind) {
        case 'event':
          return `${pad}· ${node.seq} ${node.type}${node.text ? ` ${node.text}` : ''}`
        case 'attempt':
          return `${pad}${node.label} ${printSummary(results.summary(node.attempt))}`
        case 'turn':
          return `${pad}${node.label} · ${node.end.text}\n${printOutline(node.children, depth + 1)}`
        default:
          return `${pad}${node.label}\n${printOutline(node.children, depth + 1)}`
      }
    })
    .filter((line) => line !== '')
    .join('\n')
    .replace(/\n+$/, '')
}

describe('buildOutline over the corpus', () => {
  it('an empty-response retry: the failed attempt, the retry events, then the attempt the message cites', () => {
    const outline = buildOutline(load('acp-agent-empty-response-retry-session.jsonl'))
    expect(printOutline(outline.roots)).toMatchInlineSnapshot(`
      "· 0 agent/inbox/spliced
      Turn 1 · completed
        · 2 agent/inbox/spliced
        Step 1
          · 4 user/message “This prompt first receives an empty completion, then a retri…”
          · 5 user/message “Current runtime context. This snapshot supersedes earlier ru…”
          · 6 session/title “This prompt first receives an”
          · 7 request/header initial · deepseek-v4-flash
          · 8 request/context deepseek-v4-flash
          a1 error EMPTY_RESPONSE uncited
          · 11 llm/retry 1/2 EMPTY_RESPONSE · wait 1 ms
          · 12 llm/retry-started #1
          a2 stop ✓"
    `)
    expect(outline.attempts.map((a) => a.id)).toEqual(['t1.s1.a1', 't1.s1.a2'])
  })

  it('a cancelled turn: the interrupted message matches interruptedBlocks()', () => {
    const outline = buildOutline(load('acp-agent-cancel-session.jsonl'))
    const step = printOutline(outline.roots).split('\n').slice(-2)
    expect(step).toEqual(['    · 8 request/context deepseek-v4-flash', '    a1 no finish 1⚠ interrupted ✓'])
    expect(printOutline(outline.roots)).toContain('Turn 1 · aborted user')
  })

  it('compaction recovery: the failed attempt, compaction events, then the attempt after the finish', () => {
    const text = printOutline(buildOutline(load('headless-agent-compaction-recovery-session.jsonl')).roots)
    expect(text.split('\n').slice(-7)).toEqual([
      '  Step 2',
      '    a1 error CONTEXT_WINDOW_EXCEEDED 1⚠ uncited',
      '    · 19 compaction/start',
      '    · 20 compaction/summary “The request established a durable compaction premise.”',
      '    · 21 user/message “This is an automatically generated checkpoint condensing an …”',
      '    · 22 compaction/end',
      '    a2 stop ✓',
    ])
  })

  it('crash repair: a message with no provenance and an interrupted turn show as events', () => {
    const text = printOutline(buildOutline(load('headless-agent-tool-outcome-unknown-session.jsonl')).roots)
    expect(text).toMatchInlineSnapshot(`
      "Turn 1 · interrupted
        · 1 user/message “Perform one side-effecting remote mutation.”
        Step 1
          · 3 assistant/message no sourceEventSeqs · 1 tool-call
          · 4 tool/call write_remote
          · 5 tool/result write_remote · isError
      · 8 session/end-seed
      · 9 agent/inbox/spliced
      Turn 2 · completed
        · 11 agent/inbox/spliced
        Step 1
          · 13 user/message “Continue safely from the interrupted operation.”
          · 14 session/title “Perform one side-effecting remote mutati”
          · 15 request/header initial · deepseek-v4-flash
          · 16 request/context deepseek-v4-flash
          a1 stop 1⚠ ✓"
    `)
  })

  it('the trimmed legacy log: mismatching attempts, and orphan turns with no turn/end', () => {
    const source = load('web-cordis-tool-round-legacy-session.jsonl')
    const outline = buildOutline(source)
    const text = printOutline(outline.roots)
    expect(text.split('\n').filter((line) => !line.includes('·'))).toEqual([
      '  Step 1',
      '    a1 tool-calls 1✕ ✗',
      '  Step 2',
      '    a1 tool-calls 1✕ ✗',
      '  Step 3',
      '    a1 tool-calls 1✕ ✗',
      '  Step 4',
      '    a1 stop 1✕ ✗',
      '  Step 1',
      '    a1 stop uncited',
      '  Step 1',
      '    a1 tool-calls uncited',
      '  Step 2',
      '    a1 stop uncited',
    ])
    expect(text).toContain('Turn 2 · no turn/end')
    expect(text).toContain('    · 104 tool/call cordis_inspect\n    · 105 tool/result cordis_inspect · ok')
    // The user message after turn 1's end belongs to no turn: it sits between the turns.
    expect(text).toContain('· 250 user/message')
    for (const node of outline.attempts) {
      const mark = results.summary(node.attempt)!.recorded
      const comparison = compareRecorded(node.attempt)
      expect(mark.kind === 'match').toBe(comparison?.match === true)
    }
  })

  it('a subagent child session keeps its step structure', () => {
    const outline = buildOutline(load('acp-agent-subagent-max-tokens-partial-child-session.jsonl'))
    const text = printOutline(outline.roots)
    expect(text).toContain('Turn 1 · max-tokens')
    expect(text).toContain('· 19 todo/write')
    expect(text.split('\n').filter((line) => /^\s+a\d/.test(line))).toEqual([
      '    a1 tool-calls ✓',
      '    a1 max-tokens ✓',
    ])
  })

  it('every attempt of every corpus log: ✓ exactly when compareRecorded matches', () => {
    for (const name of [
      'web-goal-multi-turn-actions-session.jsonl',
      'acp-agent-packed-chunks-session.jsonl',
      'acp-agent-max-tokens-continue-session.jsonl',
    ]) {
      const outline = buildOutline(load(name))
      for (const node of outline.attempts) {
        const comparison = compareRecorded(node.attempt)
        const mark = results.summary(node.attempt)!.recorded
        expect(mark.kind, `${name} ${node.id}`).toBe(comparison === null ? 'uncited' : 'match')
      }
    }
  })
})

describe('bare chunk files and several sessions', () => {
  it('a bare chunk file is one row "stream"', () => {
    const text = '{"type":"text-delta","index":0,"text":"hi"}\n{"type":"finish","reason":{"kind":"stop"}}\n'
    const outline = buildOutline(loadSource(text))
    expect(outline.roots.map((node) => [node.kind, node.id, 'label' in node ? node.label : ''])).toEqual([
      ['attempt', 'stream', 'stream'],
    ])
    // delta-without-start and usage-missing (warnings; a delta-only stream is tolerated); no message to compare with.
    expect(printOutline(outline.roots)).toBe('stream stop 2⚠')
  })

  it('later sessions are labelled by their header id and origin, their keys prefixed', () => {
    const first = load('acp-agent-text-turn-session.jsonl')
    const child = load('acp-agent-subagent-max-tokens-partial-child-session.jsonl')
    const outline = buildOutline({ ...first, sessions: [...first.sessions, ...child.sessions] })
    expect(outline.roots.map((node) => (node.kind === 'session' ? node.label : node.kind))).toEqual([
      `session ${first.sessions[0]!.header!.id!.slice(0, 8)}`,
      `subagent ${child.sessions[0]!.header!.id!.slice(0, 8)}`,
    ])
    expect(outline.attempts.map((a) => a.id)).toEqual(['t1.s1.a1', '1/t1.s1.a1', '1/t1.s2.a1'])
  })
})

describe('flattenOutline', () => {
  it('shows children of expanded groups only, with tree levels and positions', () => {
    const outline = buildOutline(load('acp-agent-empty-response-retry-session.jsonl'))
    const collapsed = flattenOutline(outline.roots, new Set())
    expect(collapsed.map((row) => [row.node.id, row.level, row.posInSet, row.setSize, row.expanded])).toEqual(
      [
        ['0:e0', 1, 1, 2, null],
        ['0:t1', 1, 2, 2, false],
      ],
    )
    const all = flattenOutline(outline.roots, new Set(groupIds(outline.roots)))
    expect(all.length).toBe(outline.size)
    const a2 = all.find((row) => row.node.id === 't1.s1.a2')!
    expect([a2.level, a2.parentId]).toEqual([3, '0:t1.s1'])
    expect(pathTo(outline.roots, 't1.s1.a2')).toEqual(['0:t1', '0:t1.s1'])
    expect(pathTo(outline.roots, 'nope')).toEqual([])
  })
})

describe('buildOutline for multi-session sources', () => {
  const fixtures = new URL('../../formats/fixtures/', import.meta.url)

  it("a zip's subagent session sits under its parent session", async () => {
    const { loadBytes } = await import('../../formats/loadBytes')
    const name = 'binary/dsh-session-11111111-1111-4111-8111-111111111111.zip'
    const source = await loadBytes(new Uint8Array(readFileSync(new URL(name, fixtures))), name)
    const outline = buildOutline(source)
    expect(outline.roots.map((node) => `${node.kind} ${'label' in node ? node.label : ''}`)).toEqual([
      'session session 11111111',
    ])
    const parent = outline.roots[0]!
    const last = 'children' in parent ? parent.children.at(-1) : undefined
    expect(last?.kind).toBe('session')
    expect(last && 'label' in last ? last.label : '').toBe('subagent 22222222')
    // Streams of both sessions are still listed, the parent's first.
    expect(outline.attempts.map((a) => a.id)).toEqual([
      't1.s1.a1',
      't1.s2.a1',
      't1.s3.a1',
      't1.s4.a1',
      '1/t1.s1.a1',
      '1/t1.s2.a1',
    ])
    expect(pathTo(outline.roots, '1/t1.s1.a1')[0]).toBe('0:session')
  })

  it('HAR entries show their request: method, host and path, time', () => {
    const source = loadSource(readFileSync(new URL('devtools-capture.har', fixtures), 'utf8'))
    const outline = buildOutline(source)
    const har = outline.attempts.filter((a) => a.request !== undefined)
    expect(har.map((a) => `${a.label} ${a.request}`)).toEqual([
      'har2 POST api.deepseek.com/chat/completions 10:00:03',
      expect.stringMatching(/^har3 POST api\.anthropic\.com\/v1\/messages \d\d:\d\d:\d\d$/),
      expect.stringMatching(/^har4 POST api\.deepseek\.com\/chat\/completions \d\d:\d\d:\d\d$/),
    ])
    expect(har[0]!.requestDetail).toContain('https://api.deepseek.com/chat/completions')
  })
})

describe('live capture sessions', () => {
  const captured = (fields: Record<string, unknown>) => {
    const header = JSON.stringify({
      type: 'session',
      version: 0,
      id: 'browser-2026-x',
      delegationDepth: 0,
      ...fields,
    })
    const chunk = JSON.stringify({
      type: 'assistant/chunk',
      seq: 2,
      data: { turn: 1, step: 1, chunk: { type: 'finish', reason: { kind: 'stop' } } },
    })
    const text = `${header}\n{"type":"turn/start","seq":0,"data":{"turn":1}}\n{"type":"step/start","seq":1,"data":{"turn":1,"step":1}}\n${chunk}\n`
    const one = loadSource(text, 'x')
    // Two sessions: a single one is shown without its session row.
    return buildOutline({ ...one, sessions: [one.sessions[0]!, one.sessions[0]!] }).roots
  }
  it('are named by what was asked, not by their id', () => {
    const label = (fields: Record<string, unknown>) => {
      const nodes = captured(fields)
      const session = nodes.find((node) => node.kind === 'session')
      return session?.label
    }
    expect(
      label({
        chunkscopeBrowser: { url: 'https://api.deepseek.com/chat/completions', model: 'deepseek-chat' },
      }),
    ).toBe('deepseek-chat · api.deepseek.com')
    expect(label({ chunkscopeProxy: { model: 'mock-text', method: 'POST' } })).toBe('mock-text · proxy')
  })
})

describe('a live attempt still arriving', () => {
  it('reads "streaming" with nothing to warn about, until its finish comes', async () => {
    const { summarizeAttempt } = await import('../../core/attemptSummary')
    const { analyzeStream } = await import('../../core/analyzeStream')
    const source = load('web-goal-multi-turn-actions-session.jsonl')
    const attempt = source.sessions[0]!.streams[0]!
    const open = { ...analyzeStream(attempt.chunks.slice(0, 2)), findings: [] }
    expect(summarizeAttempt(attempt, open, null, true)).toMatchObject({
      finish: 'streaming',
      tone: 'muted',
      recorded: { kind: 'none' },
    })
    expect(summarizeAttempt(attempt, open, null, false).finish).toBe('no finish')
  })
})
