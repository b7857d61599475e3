import { describe, expect, it } from 'vitest'
import type { InspectReport } from './inspect'
import { run } from './run'
import { terminalOutput, terminalText } from './terminalText'
import { readCorpus } from '../test/corpus'

const PWNED = '\u001b]0;PWNED\u0007\u001b[2J'
/** Every character class a terminal acts on: C0, DEL, C1 (CSI), bidi overrides and isolates, a line separator. */
const CONTROLS = '\u0000\u0008\r\u001b\u007f\u0085\u009b\u061c\u200f\u202e\u2066\u2069\u2028'

function cliOn(content: string, ...argv: string[]): { code: number; out: string; err: string } {
  let out = ''
  let err = ''
  const code = run(argv, { out: (t) => (out += t), err: (t) => (err += t) }, () => content)
  return { code, out, err }
}

// oxlint-disable-next-line no-control-regex -- the test looks for exactly the characters a terminal acts on
const terminalActsOn = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/

describe('terminalOutput', () => {
  it('makes every control a terminal acts on visible and leaves text, tabs and newlines alone', () => {
    expect(terminalOutput(`a${PWNED}b\tc\n`)).toBe('a\\u001b]0;PWNED\\u0007\\u001b[2Jb\tc\n')
    expect(terminalOutput(CONTROLS)).not.toMatch(terminalActsOn)
    expect(terminalOutput('naïve 日本 🙂')).toBe('naïve 日本 🙂')
  })

  it('keeps JSON output parsing to the same values', () => {
    const value = { name: CONTROLS + PWNED, nested: [CONTROLS] }
    expect(JSON.parse(terminalOutput(JSON.stringify(value)))).toEqual(value)
  })
})

describe('chunkscope output from a hostile file', () => {
  // A real log whose tool-call names, and a chunk file whose block types and finish kind, carry escapes.
  const log = readCorpus('acp-agent-parallel-tool-calls-session.jsonl').replaceAll(
    '"name":"read"',
    `"name":${JSON.stringify(`read${PWNED}${CONTROLS}`)}`,
  )
  const chunks = [
    { type: 'block-start', index: 0, block: { type: `x${PWNED}` } },
    { type: 'block-end', index: 0, block: { type: `x${PWNED}` } },
    { type: 'finish', reason: { kind: `stop${PWNED}` } },
  ]
    .map((c) => JSON.stringify(c))
    .join('\n')

  it.each([
    ['inspect', log, `log${PWNED}.jsonl`],
    ['inspect', chunks + '\n', `chunks${CONTROLS}.ndjson`],
    ['lint', chunks + '\n', `chunks${PWNED}.ndjson`],
  ])('%s %#: the escapes show as text and no control character is printed', (command, content, name) => {
    const { out, err } = cliOn(content, command, name)
    // Escaped by the field (`\u{1b}`) or by the output as a whole (`\u001b`): visible either way.
    expect(out).toMatch(/\\u(001b|\{1b\})\]0;PWNED\\u(0007|\{7\})/)
    expect(out + err).not.toMatch(terminalActsOn)
  })

  it('inspect --json escapes them and still parses to the names in the file', () => {
    const { code, out } = cliOn(log, 'inspect', 'log.jsonl', '--json')
    expect(code).toBe(0)
    expect(out).not.toMatch(terminalActsOn)
    const report = JSON.parse(out) as InspectReport
    const names = report.streams.flatMap((s) => (s.blocks ?? []).map((b) => (b as { name?: string }).name))
    expect(names).toContain(`read${PWNED}${CONTROLS}`)
  })
})

describe('terminalText', () => {
  it('shows control, bidi and zero-width characters as escapes and keeps the rest', () => {
    expect(terminalText('\u001b]0;PWNED\u0007\u001b[2J')).toBe('\\u{1b}]0;PWNED\\u{7}\\u{1b}[2J')
    expect(terminalText('if (isAdmin) {\u202e } \u2066// check\u2069 {\u200b')).toBe(
      'if (isAdmin) {\\u{202e} } \\u{2066}// check\\u{2069} {\\u{200b}',
    )
    expect(terminalText('a\nb\rc\u0085d\u007f')).toBe('a\\u{a}b\\u{d}c\\u{85}d\\u{7f}')
    expect(terminalText('tab\tstays, ünïcödé and 漢字 too')).toBe('tab\tstays, ünïcödé and 漢字 too')
  })
})
