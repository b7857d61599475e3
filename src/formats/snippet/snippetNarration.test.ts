import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadSource } from '../load'
import { pickText } from '../lesson/lesson'

const fixture = (name: string) => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')

/** seq → narration, in the stream's own language. */
function narrationOf(text: string): Record<string, string> {
  const source = loadSource(text)
  const narration = source.lesson?.narration ?? {}
  return Object.fromEntries(Object.entries(narration).map(([seq, note]) => [seq, pickText(note, 'en')]))
}

describe('a snippet’s comments narrate the chunk they precede (docs/protocol.md §15)', () => {
  it('the seed article (seeds/000, line-number gutter and all): each numbered comment on its chunk', () => {
    const text = fixture('seed-000-example-chunks-gutter.txt')
    const source = loadSource(text)
    expect(source.format).toBe('js-snippet')
    // The article's own comments, in its own words; chunks 2 (the second delta) and 5 (the tool-call delta, with no
    // comment of its own) are not narrated; the comment after the last yield joins the finish.
    expect(narrationOf(text)).toEqual({
      '0': '1. 开启一个文本块，index 为 0',
      '1': '2. 文本增量，可拆成多个分片',
      '3': '3. 用完整块结束，index 与 block-start 一致',
      '4': '4. 工具调用块，index 为 1',
      '7': '5. 报告 token 用量，必须在 finish 之前',
      '8': "6. 最后一个分片，声明结束原因\n也可以是 { kind: 'tool-calls' } 请求执行工具",
    })
    expect(source.lesson?.stream).toBe(source.sessions[0]!.streams[0]!.id)
  })

  it('the Japanese article (seeds/004): two comment lines above a yield make one narration', () => {
    const narration = narrationOf(fixture('seed-004-example-chunks.ts.txt'))
    expect(narration['0']).toBe(
      '1. Start each content block with block-start.\nテキストブロックを開始、index は 0',
    )
    expect(narration['5']).toBe('ツール名とパラメータ増分。id は CallId ファクトリで生成')
    expect(narration['6']).toBe('完全なブロックで終了。arguments は結合済みの JSON テキスト')
  })

  it('comments inside a literal, in strings or above code that is no yield do not narrate', () => {
    const text = [
      '// header comment above the generator',
      'function* f() {',
      "  const url = 'https://example.com' // not above a yield",
      '  yield { type: "text-delta", index: 0, /* inside */ text: "// not a comment" }',
      '  /* block',
      '   * comment */',
      '  yield { type: "finish", reason: { kind: "stop" } }',
      '}',
    ].join('\n')
    expect(narrationOf(text)).toEqual({ '1': 'block\ncomment' })
  })

  it('a snippet without comments is no lesson', () => {
    expect(
      loadSource('function* f() { yield { type: "text-delta", index: 0, text: "x" } }').lesson,
    ).toBeUndefined()
  })
})
