import { readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { generateStream } from '../test/generate'
import { generateSessionLog } from '../test/generateSession'
import { corpusFiles, readCorpus } from '../test/corpus'
import { mutate, random } from '../test/hostile'
import { streamAsSessionLog, toSessionJsonl } from './export/sessionJsonl'
import { ColumnPieces, loadColumns, pieceFormat, readSessionColumns } from './columnSource'
import { detectFormat } from './registry'

/**
 * A text read in pieces (the loading worker decodes a file as it reads it) against the same text read whole: the
 * source ColumnPieces gives equals loadColumns's, diagnostics and line numbers included, wherever the pieces end —
 * inside a line, between a CR and its LF, right after a line end, at a BOM — and it gives null exactly where
 * loadColumns leaves the columns for loadSource.
 */
function expectPiecesSame(text: string, cuts: readonly number[]): void {
  const format = detectFormat(text)
  if (format !== 'dsh-session-jsonl' && format !== 'chunk-ndjson')
    throw new Error(`not a line format: ${format}`)
  const pieces = new ColumnPieces(format, 'input', text.length)
  let from = 0
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    pieces.add(text.slice(from, cut))
    from = cut
  }
  pieces.add(text.slice(from))
  const whole = loadColumns(text, 'input')
  const read = pieces.end()
  // Null where the column reader gives up on the whole text too (loadColumns then reads it with loadSource).
  const gaveUp = format === 'dsh-session-jsonl' && readSessionColumns(text) === null
  expect(read).toStrictEqual(gaveUp ? null : whole)
}

/** `count` random cut points of `text`, and a cut at each side of every CR, LF and BOM among its first 2,000 characters. */
function cutsOf(text: string, count: number, next: () => number): number[] {
  const cuts: number[] = []
  for (let k = 0; k < count; k++) cuts.push(Math.floor(next() * (text.length + 1)))
  for (let at = 0; at < Math.min(text.length, 2000); at++)
    if ('\r\n\ufeff'.includes(text[at]!)) cuts.push(at, at + 1)
  return cuts
}

const bare = (n: number) =>
  generateStream(n)
    .map((c) => JSON.stringify(c.chunk))
    .join('\n') + '\n'

describe('ColumnPieces', () => {
  const next = random(7)
  const log = toSessionJsonl(streamAsSessionLog(generateStream(3_000)))

  it('reads generated logs and chunk files in random pieces as loadColumns reads them whole', () => {
    for (const text of [log, bare(3_000), generateSessionLog({ targetChars: 200_000 }).text]) {
      for (let round = 0; round < 4; round++) expectPiecesSame(text, cutsOf(text, 1 + round * 20, next))
      // One character a piece.
      expectPiecesSame(
        text.slice(0, 4000),
        Array.from({ length: 4000 }, (_, at) => at),
      )
    }
  })

  it('reads CRLF line ends, a BOM, a BOM starting a later line, blank lines and a torn last line alike', () => {
    const crlf = log.replace(/\n/g, '\r\n')
    const lines = bare(2_000).split('\n')
    lines.splice(5, 0, '', '  ', '\ufeff' + lines[5]!)
    lines.splice(40, 0, '\ufeff\ufeff')
    for (const text of [
      crlf,
      `\ufeff${crlf}`,
      `\ufeff\ufeff${log}`,
      lines.join('\n'),
      `\ufeff${lines.join('\r\n')}`,
      log.slice(0, -30),
      `${log.slice(0, -1)}\r`,
      bare(500).slice(0, -1),
    ])
      for (let round = 0; round < 3; round++) expectPiecesSame(text, cutsOf(text, 30, next))
  })

  it('on every corpus log and seeded mutations of them (damage, gaps, out of order: null, as loadColumns falls back)', () => {
    const logs = corpusFiles()
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => new TextEncoder().encode(readCorpus(name)))
    const mutations = random(20_261_202)
    for (const bytes of logs) {
      const text = new TextDecoder().decode(bytes)
      expectPiecesSame(text, cutsOf(text, 12, next))
      for (let k = 0; k < 4; k++) {
        const mutated = new TextDecoder().decode(mutate(bytes, mutations, logs).bytes)
        const format = detectFormat(mutated)
        if (format === 'dsh-session-jsonl' || format === 'chunk-ndjson')
          expectPiecesSame(mutated, cutsOf(mutated, 12, next))
      }
    }
  })
})

describe('pieceFormat', () => {
  /** Every text fixture, each made long by repeating its lines (so that a start of 256 Ki characters exists). */
  function longTexts(): string[] {
    const texts: string[] = []
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name)
        if (statSync(path).isDirectory()) walk(path)
        else if (!/\.(zst|zip|sqlite|db|bin|gz|har)$/.test(name)) texts.push(readFileSync(path, 'utf8'))
      }
    }
    walk('src/formats/fixtures')
    for (const name of corpusFiles()) texts.push(readCorpus(name))
    return texts
      .filter((text) => text.length > 0)
      .map((text) => {
        let long = text.endsWith('\n') ? text : `${text}\n`
        while (long.length < 600_000) long += long
        return long
      })
  }

  it('finds from a start what detectFormat finds in the whole text, or leaves it to the whole text', () => {
    let decided = 0
    for (const text of longTexts()) {
      const whole = detectFormat(text)
      for (
        let end = text.indexOf('\n', 1 << 18);
        end !== -1 && end < 500_000;
        end = text.indexOf('\n', end + 50_000)
      ) {
        const found = pieceFormat(text.slice(0, end + 1))
        if (found === null) continue
        decided += 1
        expect(found).toBe(whole)
      }
    }
    // The session logs and chunk files among them are decided from their start.
    expect(decided).toBeGreaterThan(5)
  })

  it('waits for a line end, 256 Ki characters and 20 non-blank lines', () => {
    const text = bare(20_000)
    const end = text.indexOf('\n', 1 << 18)
    expect(pieceFormat(text.slice(0, end + 1))).toBe('chunk-ndjson')
    expect(pieceFormat(text.slice(0, end))).toBeNull()
    expect(pieceFormat(text.slice(0, text.lastIndexOf('\n', (1 << 18) - 2) + 1))).toBeNull()
    const few = `${'\n'.repeat(1 << 18)}${text.split('\n').slice(0, 19).join('\n')}\n`
    expect(pieceFormat(few)).toBeNull()
    expect(detectFormat(few)).toBe('chunk-ndjson')
  })
})
