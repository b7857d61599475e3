import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chunksOf } from '../core/chunkList'
import { heldSessionOf, type RowBatches } from '../core/chunkStore'
import type { Columns } from '../core/columns'
import { COLUMN_BATCH, encodeChunks, encodeEvents } from '../core/columnWriter'
import { expectListReads } from '../test/chunkListChecks'
import { corpusFiles, readCorpus } from '../test/corpus'
import { generateStream } from '../test/generate'
import { loadColumns } from './columnSource'
import { flatRunText } from '../test/flatRunLines'
import { streamAsSessionLog, toSessionJsonl } from './export/sessionJsonl'
import { loadSource } from './load'
import type { LoadedSource } from './types'
import { checkPackedRow } from './packedRow'

/**
 * The column readers' fast paths (a packed row's members checked in one pass and written per run, ranges noted
 * while writing, reused scratch arrays, cached strings and tool pairs) against the general object readers, on
 * lines nobody tuned them for: random records in odd JSON (whitespace, \u escapes, unicode, duplicate keys, 1e3,
 * -0), fields missing or of the wrong type, and numbers the columns cannot hold. Equal means every diagnostic word for
 * word, every event and chunk, and the held lists reading every field as the arrays do.
 */
function expectSame(text: string): boolean {
  const columnar = loadColumns(text, 'input')
  const objects = loadSource(text, 'input')
  expect(columnar.diagnostics).toStrictEqual(objects.diagnostics)
  columnar.sessions.forEach((session, s) =>
    session.streams.forEach((attempt, a) =>
      expectListReads(chunksOf(attempt), objects.sessions[s]!.streams[a]!.chunks),
    ),
  )
  expect(columnar).toStrictEqual(objects)
  expectSameBatches(columnar, objects)
  return columnar.sessions.some((session) => heldSessionOf(session) !== undefined)
}

/**
 * The batches the readers wrote while parsing are, byte for byte, those a fresh encoder makes of the object readers'
 * records batch by batch (reused scratch arrays, runs written at once and ranges noted on the way change nothing).
 */
function expectSameBatches(columnar: LoadedSource, objects: LoadedSource): void {
  const written: Columns[] = []
  const encoded: Columns[] = []
  columnar.sessions.forEach((session, s) => {
    const held = heldSessionOf(session)
    const plain = objects.sessions[s]!
    const kinds: [RowBatches, (from: number, to: number) => Columns][] =
      held === undefined
        ? []
        : held.events.length > 0
          ? [[held.events, (from, to) => encodeEvents(plain.events.slice(from, to))]]
          : held.streams.map((rows, a) => [
              rows as RowBatches,
              (from, to) => encodeChunks(plain.streams[a]!.chunks.slice(from, to)),
            ])
    for (const [rows, encode] of kinds)
      rows.batches.forEach((batch, b) => {
        written.push(batch.columns)
        encoded.push(encode(b * COLUMN_BATCH, b * COLUMN_BATCH + batch.length))
      })
  })
  expect(written).toStrictEqual(encoded)
}

/** JSON text of a value in a random but valid spelling. */
type Spelling = { space: string; exponent: boolean; escape: boolean; duplicate: boolean }

function spell(value: unknown, style: Spelling): string {
  const { space } = style
  if (typeof value === 'number') {
    if (Object.is(value, -0)) return '-0'
    if (style.exponent && Number.isInteger(value) && value !== 0 && value % 1000 === 0)
      return `${value / 1000}e3`
    return JSON.stringify(value)
  }
  if (typeof value === 'string') {
    const quoted = JSON.stringify(value)
    // A letter spelled as \u00XX decodes to the same string.
    return style.escape ? quoted.replace(/[a-z]/, (c) => `\\u00${c.charCodeAt(0).toString(16)}`) : quoted
  }
  if (Array.isArray(value)) return `[${space}${value.map((v) => spell(v, style)).join(`,${space}`)}${space}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined)
    // A duplicate key: JSON.parse keeps the last one, so a decoy first changes nothing.
    const decoy = style.duplicate && entries.length > 0 ? `"${entries[0]![0]}":${space}"decoy",` : ''
    const fields = entries.map(([k, v]) => `${JSON.stringify(k)}${space}:${space}${spell(v, style)}`)
    return `{${space}${decoy}${fields.join(`,${space}`)}${space}}`
  }
  return JSON.stringify(value)
}

const odd = <T>(usual: fc.Arbitrary<T>, ...others: unknown[]) =>
  fc.oneof({ weight: 8, arbitrary: usual as fc.Arbitrary<unknown> }, fc.constantFrom(...others))
const text = fc.oneof(
  fc.constantFrom('zebra ', '思考 ', 'delta\n', '{"k": ', '\t', '', 'ok. ', '🙂', 'x'.repeat(70)),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
)
const member = fc.record({ text, gap: odd(fc.integer({ min: -3, max: 40 }), -0, 1.5, 2 ** 53, '1') })
const turnOrStep = odd(fc.integer({ min: 0, max: 3 }), -0, 2.5, 'one', null, 2 ** 40, undefined)
const index = odd(fc.integer({ min: 0, max: 4 }), -0, 1.5, null, '1', 1e300, 70_000, undefined)
const time = odd(
  fc.integer({ min: 1_780_000_000_000, max: 1_780_000_100_000 }),
  -0,
  0.5,
  null,
  undefined,
  2 ** 60,
)

/** One record of a log: a packed row, a chunk event or another event; `seqs` it takes. */
const record = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('packed' as const),
      type: fc.constantFrom('text-chunks', 'reasoning-chunks', 'tool-call-chunks'),
      members: fc.array(member, { minLength: 0, maxLength: 700 }),
      turn: turnOrStep,
      step: turnOrStep,
      index,
      time,
      id: odd(fc.constantFrom('call_1', 'call_2'), 7, undefined),
      name: odd(fc.constantFrom('bash', 'read', undefined), 1),
      extra: fc.constantFrom(undefined, undefined, undefined, 'x'),
    }),
  },
  fc.record({
    kind: fc.constant('chunk' as const),
    chunk: fc.oneof(
      fc.record({ type: fc.constantFrom('text-delta', 'reasoning-delta'), index, text }),
      fc.record({
        type: fc.constant('tool-call-delta'),
        index,
        id: fc.constantFrom('call_1', 'c'),
        argumentsDelta: text,
      }),
      fc.record({ index, type: fc.constant('text-delta'), text }),
      fc.record({
        type: fc.constant('block-start'),
        index,
        blockType: fc.constantFrom('text', 'tool-call', 7),
      }),
      fc.constant({ type: 'finish', reason: { kind: 'stop' } }),
      fc.constant('not a chunk'),
    ),
    turn: turnOrStep,
    step: turnOrStep,
    time,
  }),
  fc.record({
    kind: fc.constant('event' as const),
    type: fc.constantFrom('turn/start', 'step/start', 'assistant/message', 'llm/retry-started'),
    turn: turnOrStep,
    time,
  }),
)

function logText(records: readonly unknown[], style: Spelling, skip: number): string {
  const lines = [spell({ type: 'session', version: 0, id: 's', createdAt: 1 }, style)]
  let seq = 0
  for (const r of records as { kind: string; [key: string]: unknown }[]) {
    const at = seq
    seq += r.kind === 'packed' ? Math.max(1, (r['members'] as unknown[]).length) : 1
    // Now and then a seq is skipped: a gap the reader reports, the same either way.
    if (skip > 0 && at % skip === skip - 1) seq += 1
    if (r.kind === 'packed') {
      const members = r['members'] as { text: string; gap: unknown }[]
      const tool = r['type'] === 'tool-call-chunks'
      const data = {
        turn: r['turn'],
        step: r['step'],
        index: r['index'],
        dt: members.slice(1).map((m) => m.gap),
        ...(tool ? { id: r['id'], name: r['name'], args: members.map((m) => m.text) } : {}),
        ...(tool ? {} : { texts: members.map((m) => m.text) }),
        extra: r['extra'],
      }
      lines.push(spell({ type: r['type'], seq0: at, time0: r['time'], data }, style))
    } else if (r.kind === 'chunk') {
      const data = { turn: r['turn'], step: r['step'], chunk: r['chunk'] }
      lines.push(spell({ type: 'assistant/chunk', seq: at, time: r['time'], data }, style))
    } else {
      const data = { turn: r['turn'], step: 1, message: { content: [] } }
      lines.push(
        spell({ type: r['type'], seq: at, time: r['time'], data, sourceEventSeqs: [at - 2, at - 1] }, style),
      )
    }
  }
  return lines.join('\n') + '\n'
}

const spelling = fc.record({
  space: fc.constantFrom('', '', ' ', '\t', ' \r\n '.slice(0, 2)),
  exponent: fc.boolean(),
  escape: fc.boolean(),
  duplicate: fc.boolean(),
})

describe('the column readers’ fast paths ≡ the object readers', () => {
  it('on random session logs in odd JSON, with fields missing or of every wrong type', () => {
    let held = 0
    fc.assert(
      fc.property(
        fc.array(record, { maxLength: 12 }),
        spelling,
        fc.constantFrom(0, 0, 5),
        (records, style, skip) => {
          if (expectSame(logText(records, style, skip))) held += 1
        },
      ),
      { numRuns: 150 },
    )
    // Most logs are read as columns (the others are no session log the columns cover, and loadSource reads them).
    expect(held).toBeGreaterThan(100)
  }, 120_000)

  // Past a batch's 50,000 rows: a packed row straddles the boundary (its members' times go on across it).
  it('across batches: a generated log with random records after its rows', () => {
    const base = toSessionJsonl(streamAsSessionLog(generateStream(55_000)))
      .trimEnd()
      .split('\n')
    const records = fc.sample(fc.array(record, { minLength: 20, maxLength: 20 }), {
      numRuns: 1,
      seed: 11,
    })[0]!
    // The random records go after the generated ones (their seqs continue), then the log ends.
    const last = JSON.parse(base.at(-1)!) as { seq: number }
    const extra = logText(records, { space: '', exponent: true, escape: true, duplicate: true }, 0)
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) =>
        line.replace(/"seq0?":(-?\d+)/, (match, n) => match.replace(n, String(Number(n) + last.seq + 1))),
      )
    expect(expectSame([...base, ...extra].join('\n') + '\n')).toBe(true)
  }, 120_000)

  // Runs of lines parsed in one call (flatRuns.ts), with lines made to spoil a run among them.
  it('on random chunk NDJSON, its runs of held lines broken by lines made to fool them', () => {
    let held = 0
    fc.assert(
      fc.property(flatRunText, (text) => {
        if (expectSame(text)) held += 1
      }),
      { numRuns: 120 },
    )
    expect(held).toBeGreaterThan(60)
  }, 120_000)

  it('on every corpus log and its chunk NDJSON', () => {
    for (const name of corpusFiles().filter((file) => file.endsWith('.jsonl'))) {
      const log = readCorpus(name)
      expect(expectSame(log)).toBe(true)
      const chunks = loadSource(log).sessions.flatMap((s) => s.streams.flatMap((a) => a.chunks))
      expectSame(chunks.map((c) => JSON.stringify(c.chunk)).join('\n') + '\n')
    }
  })
})

describe('a packed row refused by the one-pass check gets the message of the first rule it breaks (§7)', () => {
  const row = (texts: unknown[], dt: unknown[], time0: unknown = 10) => ({
    type: 'text-chunks',
    seq0: 0,
    time0,
    data: { turn: 1, step: 1, index: 0, dt, texts },
  })
  const ok = Array.from({ length: 300 }, (_, k) => `t${k}`)
  const gaps = Array.from({ length: 299 }, () => 5)
  it('names the member, the gap or the count', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 298 }), (k) => {
        const texts = ok.slice()
        texts[k] = 7 as unknown as string
        expect(checkPackedRow(row(texts, gaps), 'text-chunks')).toBe(
          `texts[${k}] is not a string (got number)`,
        )
        const badGaps: unknown[] = gaps.slice()
        badGaps[k] = 1.5
        expect(checkPackedRow(row(ok, badGaps), 'text-chunks')).toBe(
          `dt[${k}] is not a safe integer (got 1.5)`,
        )
        // A bad text is reported before a bad gap, wherever each is.
        expect(checkPackedRow(row(texts, badGaps.reverse()), 'text-chunks')).toBe(
          `texts[${k}] is not a string (got number)`,
        )
        const huge = gaps.slice()
        huge[k - 1] = Number.MAX_SAFE_INTEGER
        expect(checkPackedRow(row(ok, huge), 'text-chunks')).toBe(
          `time of member ${k} leaves the safe integer range`,
        )
        expect(checkPackedRow(row(ok, gaps.slice(k)), 'text-chunks')).toBe(
          `dt has ${299 - k} entries, expected 299 (one fewer than the 300 texts)`,
        )
      }),
      { numRuns: 40 },
    )
    expect(checkPackedRow(row([], []), 'text-chunks')).toBe('texts is empty')
    expect(checkPackedRow(row(ok, 'x' as unknown as unknown[]), 'text-chunks')).toBe(
      'dt is not an array (got string)',
    )
  })
})
