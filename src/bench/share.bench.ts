import { readdirSync, readFileSync } from 'node:fs'
import { buildStreamSession } from '../core/session'
import { loadSource } from '../formats/load'
import { linkFloor, proseStream, sessionFloor, shownFloor, v1LinkLength } from './floor'
import { linkBreakdown } from './shareBreakdown'
import { layOut, LONG_STRING, splitPayload } from '../formats/share/layout'
import type { LoadedSource } from '../formats/types'
import { buildSharePayload, type SharePayload, type ShareScope } from '../formats/share/payload'
import { FULL_REDACTION } from '../formats/share/redact'
import { decodeShareLink, encodeShareLink } from '../formats/share/shareLink'
import { encodeBody } from '../formats/share/codecV2'
import { toNdjson } from '../formats/export/ndjson'
import { generateStream } from '../test/generate'
import { flatten, median, printTable, type Row } from './report'
import { loadBaseline, saveResults } from './baseline'

// Share links: how long the link gets for generated streams, plain and redacted, and what encoding and opening cost.
const sizes = [1_000, 10_000, 100_000]
const title = 'share links, generated streams'
const rows: Row[] = []

for (const n of sizes) {
  const chunks = generateStream(n)
  const source: LoadedSource = {
    format: 'chunk-json',
    diagnostics: [],
    sessions: [buildStreamSession(chunks)],
  }
  const attempt = source.sessions[0]!.streams[0]!
  const ndjsonChars = toNdjson(chunks).length
  const variants: [string, ShareScope][] = [
    ['plain', {}],
    ['redacted', { redact: FULL_REDACTION }],
    ['window 500', { window: { from: n >> 1, to: (n >> 1) + 500 } }],
    ['window 500, redacted', { window: { from: n >> 1, to: (n >> 1) + 500 }, redact: FULL_REDACTION }],
  ]
  for (const [label, options] of variants) {
    const payload = buildSharePayload({ source, attempt, streamKey: 'stream', k: n >> 1 }, options)
    let encodeMs = Infinity
    let fragment = ''
    for (let run = 0; run < 3; run++) {
      const start = performance.now()
      fragment = await encodeShareLink(payload)
      encodeMs = Math.min(encodeMs, performance.now() - start)
    }
    let decodeMs = Infinity
    for (let run = 0; run < 3; run++) {
      const start = performance.now()
      const decoded = await decodeShareLink(fragment)
      decodeMs = Math.min(decodeMs, performance.now() - start)
      if ('error' in decoded) throw new Error(decoded.error)
    }
    const name = `${n.toLocaleString('en')} chunks, ${label}`
    rows.push({
      name: `${name}: link length`,
      value: fragment.length + 1,
      unit: 'chars',
      reference: { label: 'chunk NDJSON', value: ndjsonChars },
    })
    rows.push({ name: `${name}: encode`, value: encodeMs, unit: 'ms' })
    rows.push({ name: `${name}: decode + open`, value: decodeMs, unit: 'ms' })
  }
}

printTable(title, rows, loadBaseline())
saveResults(flatten(title, rows))

// Link length against the floor (the stream's content alone, deflated, base64url): 1,000 chunks of real prose in
// 1–4-character deltas, every attempt of the corpus shared on its own ("Only this attempt"), and every corpus log
// shared whole (its floor: the content of all its attempts). Each row gives today's v5 link and what v4, v3, the
// v2 layout (deflated columns) and v1 (deflated JSON) make of the same payload; the goal is 1.15× the floor
// (docs/protocol.md §14), which an attempt whose content is a few characters cannot reach: it must still carry
// its file name, failure message and clocks. For those the row also gives the "shown floor" (floor.ts): the
// same deflate floor over every string the opener shows. A last table says where the attempt links' characters
// go, by section (shareBreakdown.ts).
const floorTitle = 'share links vs the floor'
const GOAL = 1.15
const floorRows: Row[] = []
const prose = proseStream(readFileSync('fixtures/prose/seed-article.txt', 'utf8'), 1_000)
const proseSource: LoadedSource = {
  format: 'chunk-json',
  diagnostics: [],
  sessions: [buildStreamSession(prose)],
}
const prosePayload = buildSharePayload({
  source: proseSource,
  attempt: proseSource.sessions[0]!.streams[0]!,
  streamKey: 'stream',
  k: 0,
})
floorRows.push(
  await ratioRow(`1,000 chunks of prose (${prose.length} chunks)`, prosePayload, linkFloor(prose)),
)
// Read from the working directory (the bench runs from the checkout's root, bundled into dist-bench/).
const corpus = readdirSync('fixtures/dsh')
  .filter((name) => name.endsWith('.jsonl'))
  .sort()
const attemptRatios: { v2: number; v3: number; v5: number }[] = []
const sections = new Map<string, number>()
const sessionRows: Row[] = []
for (const file of corpus) {
  const source = loadSource(readFileSync(`fixtures/dsh/${file}`, 'utf8'), file)
  const streams = source.sessions[0]!.streams
  for (const attempt of streams) {
    const payload = buildSharePayload({ source, attempt, streamKey: attempt.id, k: 0 }, { scope: 'stream' })
    const { shell, columns } = await splitPayload(payload, async () => {})
    const shown = shownFloor(layOut(shell, columns, LONG_STRING).textString)
    const row = await ratioRow(`${file} ${attempt.id}`, payload, linkFloor(attempt.chunks), shown)
    floorRows.push(row)
    attemptRatios.push({ v2: row.v2Ratio, v3: row.v3Ratio, v5: row.value })
    for (const [section, chars] of await linkBreakdown(payload))
      sections.set(section, (sections.get(section) ?? 0) + chars)
  }
  const whole = buildSharePayload({ source, attempt: streams[0]!, streamKey: streams[0]!.id, k: 0 })
  const floor = sessionFloor(streams.map((attempt) => attempt.chunks))
  sessionRows.push(await ratioRow(`${file} whole session`, whole, floor))
}
const summary = (label: string, pick: (values: number[]) => number): Row => ({
  name: `corpus attempts, ${label}: link ÷ floor`,
  value: pick(attemptRatios.map((r) => r.v5)),
  unit: 'x',
  reference: {
    label: `v3 ${pick(attemptRatios.map((r) => r.v3))}x; v2`,
    value: pick(attemptRatios.map((r) => r.v2)),
  },
})
const within = (values: number[]) => values.filter((ratio) => ratio <= GOAL).length
floorRows.push(
  summary('median', median),
  summary('best', (values) => Math.min(...values)),
  summary('max', (values) => Math.max(...values)),
  {
    name: `corpus attempts within ${GOAL}x of the floor`,
    value: within(attemptRatios.map((r) => r.v5)),
    unit: 'attempts',
    reference: {
      label: `of ${attemptRatios.length}; v3 ${within(attemptRatios.map((r) => r.v3))}; v2`,
      value: within(attemptRatios.map((r) => r.v2)),
    },
  },
  ...sessionRows,
)
printTable(floorTitle, floorRows, loadBaseline())
saveResults(flatten(floorTitle, floorRows))

// Where the characters of the corpus attempts' links go: each section's bits over all of them, in base64url
// characters (the frame and `v5.` prefix, 5–6 characters a link, not counted).
const breakdownRows: Row[] = [...sections]
  .sort((a, b) => b[1] - a[1])
  .map(([section, chars]) => ({ name: section, value: Math.round(chars), unit: 'chars' }))
console.log(`\n## share links of the ${attemptRatios.length} corpus attempts, by section (v5)`)
for (const row of breakdownRows)
  console.log(`${row.name.padEnd(44)} ${String(row.value).padStart(12)}  chars`)

async function ratioRow(
  name: string,
  payload: unknown,
  floor: number,
  shown?: number,
): Promise<Row & { v2Ratio: number; v3Ratio: number }> {
  const chars = (await encodeShareLink(payload as SharePayload)).length
  const v4 = (await encodeShareLink(payload as SharePayload, { version: 4 })).length
  const v3 = (await encodeShareLink(payload as SharePayload, { version: 3 })).length
  // A v2 link of the same payload: `v2.` and the base64url of the 5-byte frame and its body.
  const v2 = 'v2.'.length + Math.ceil(((5 + (await encodeBody(payload)).length) * 4) / 3)
  const v1 = await v1LinkLength(payload)
  const ratio = (n: number) => Math.round((n / floor) * 100) / 100
  const shownNote =
    shown === undefined ? '' : `, shown floor ${shown} (${Math.round((chars / shown) * 100) / 100}x)`
  return {
    name: `${name}: link ÷ floor`,
    value: ratio(chars),
    unit: 'x',
    reference: {
      label: `v5 ${chars} chars, v4 ${v4} (${ratio(v4)}x), v3 ${v3} (${ratio(v3)}x), v2 ${v2} (${ratio(v2)}x), v1 ${v1} (${ratio(v1)}x)${shownNote}; floor, in chars`,
      value: floor,
    },
    goal: `≤ ${GOAL}`,
    v2Ratio: ratio(v2),
    v3Ratio: ratio(v3),
  }
}
