import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { analyzeStream } from '../../core/analyzeStream'
import { RULES, type Finding } from '../../core/checks'
import type { AnyChunk } from '../../core/protocol'
import { EXAMPLES } from '../../examples'
import { loadSource } from '../../formats/load'
import { anyStream, oddStream } from '../../test/arbitraries'
import { corpusFiles, readCorpus } from '../../test/corpus'
import { isMessageKey, translate } from '../i18n/translate'
import { findingText } from './findingText'

const findingsOf = (chunks: readonly AnyChunk[]): readonly Finding[] =>
  analyzeStream(chunks.map((chunk, i) => ({ seq: i + 1, time: null, chunk }))).findings

function sourceFindings(text: string, name: string): Finding[] {
  return loadSource(text, name).sessions.flatMap((session) =>
    session.streams.flatMap((stream) => analyzeStream(stream.chunks).findings),
  )
}

/** The English catalogue, filled with a finding's values, must say exactly what the core's message says. */
function expectEnglishSame(findings: readonly Finding[]): void {
  for (const finding of findings) {
    expect({ rule: finding.rule, params: finding.params !== undefined }).toEqual({
      rule: finding.rule,
      params: true,
    })
    expect(findingText(finding)).toBe(finding.message)
  }
}

describe('findingText', () => {
  it('says in English what the core says, for every finding of random and odd streams', () => {
    fc.assert(
      fc.property(fc.oneof(anyStream(), oddStream), (chunks) => expectEnglishSame(findingsOf(chunks))),
      {
        numRuns: 400,
      },
    )
  })

  it('says in English what the core says, for every finding of the examples and the corpus', () => {
    const findings = [
      ...EXAMPLES.flatMap((example) => sourceFindings(example.source(), example.id)),
      ...corpusFiles().flatMap((name) => sourceFindings(readCorpus(name), name)),
    ]
    expect(findings.length).toBeGreaterThan(20)
    expectEnglishSame(findings)
  })

  it('has a catalogue message for every rule the stream checks raise', () => {
    // recorded-mismatch compares with a stored message (ui/findings/buildFindings.ts) and wire-sequence reads the
    // captured wire (core/wireSequence.ts): both stay English; the catalogue test (i18n/catalogues.test.ts) holds
    // every language to the English keys.
    const rules = Object.keys(RULES).filter((id) => id !== 'recorded-mismatch' && id !== 'wire-sequence')
    expect(rules.filter((rule) => !isMessageKey(`finding.${rule}`))).toEqual([])
  })

  it('renders the same finding in Chinese and Japanese, keeping the protocol words', () => {
    const [finding] = findingsOf([
      { type: 'block-start', index: 0, blockType: 'text' },
      { type: 'block-end', index: 0, block: { type: 'text', text: 'a' } },
      { type: 'text-delta', index: 0, text: 'late' },
    ]).filter((f) => f.rule === 'delta-after-end')
    expect(finding).toBeDefined()
    expect(findingText(finding!, (key, params) => translate('zh-CN', key, params))).toBe(
      '发往块 0 的 text-delta 出现在它的 block-end 之后；已忽略',
    )
    expect(findingText(finding!, (key, params) => translate('ja', key, params))).toBe(
      'ブロック 0 の block-end の後に届いた text-delta。無視されます',
    )
  })
})
