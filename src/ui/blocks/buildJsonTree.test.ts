import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { buildJsonTree, jsonTreeValue, type JsonNode } from './buildJsonTree'

/** One line per value, indented by depth; `…` marks a part still open. */
function print(node: JsonNode | null, depth = 0, label = ''): string {
  const pad = '  '.repeat(depth) + label
  if (node === null) return `${pad}(pending)`
  switch (node.kind) {
    case 'object':
      return [
        `${pad}{${node.closed ? '}' : '…'}`,
        ...node.entries.map((e) =>
          print(e.value, depth + 1, `${JSON.stringify(e.key)}${e.keyClosed ? '' : '…'}: `),
        ),
      ].join('\n')
    case 'array':
      return [`${pad}[${node.closed ? ']' : '…'}`, ...node.items.map((item) => print(item, depth + 1))].join(
        '\n',
      )
    case 'string':
      return `${pad}${JSON.stringify(node.value)}${node.closed ? '' : '…'}`
    case 'number':
    case 'boolean':
    case 'null':
      return `${pad}${node.text}`
  }
}

describe('buildJsonTree', () => {
  it('shows the parts of a streaming tool call read so far', () => {
    const tree = buildJsonTree('{"city": "Par')
    expect(tree.status).toBe('incomplete')
    expect(print(tree.root)).toMatchInlineSnapshot(`
      "{…
        "city": "Par"…"
    `)
  })

  it('reads nested containers, scalars and escapes', () => {
    const tree = buildJsonTree('{"a": [1, -2.5e3, true, null, "x\\n\\u00e9"], "b": {}, "c": []}')
    expect(tree.status).toBe('complete')
    expect(tree.nodeCount).toBe(9)
    expect(print(tree.root)).toMatchInlineSnapshot(`
      "{}
        "a": []
          1
          -2.5e3
          true
          null
          "x\\né"
        "b": {}
        "c": []"
    `)
  })

  it('keeps a key that is still arriving, and a pending value', () => {
    expect(print(buildJsonTree('{"comm').root)).toMatchInlineSnapshot(`
      "{…
        "comm"…: (pending)"
    `)
    expect(print(buildJsonTree('{"command": ').root)).toMatchInlineSnapshot(`
      "{…
        "command": (pending)"
    `)
  })

  it('treats prefixes of numbers and literals as incomplete, never as complete', () => {
    const status = (texts: string[]) => texts.map((text) => [text, buildJsonTree(text).status])
    const incomplete = [
      '',
      '  ',
      '-',
      '1.',
      '1e',
      '1e+',
      'tr',
      'fals',
      'n',
      '"abc',
      '"a\\',
      '"\\u00',
      '[',
      '{"a":1',
    ]
    expect(status(incomplete)).toEqual(incomplete.map((text) => [text, 'incomplete']))
    const complete = ['0', '12', '-0.5', '1E+2', 'true', 'null', '"x"', '[]', ' {} ']
    expect(status(complete)).toEqual(complete.map((text) => [text, 'complete']))
  })

  it('reports the offset of the first character that cannot continue JSON', () => {
    const cases: [string, number][] = [
      ['{"a":1}x', 7],
      ['{"a" 1}', 5],
      ['[1,]', 3],
      ['{"a":1,}', 7],
      ['01', 1],
      ['-a', 1],
      ['1.e', 2],
      ['trux', 3],
      ['"\\x"', 2],
      ['"\\u12g4"', 5],
      ['"a\nb"', 2],
      ["{'a':1}", 1],
      ['[1 2]', 3],
    ]
    const read = (text: string) => {
      const tree = buildJsonTree(text)
      return [text, tree.status, tree.errorAt, typeof tree.error]
    }
    expect(cases.map(([text]) => read(text))).toEqual(
      cases.map(([text, at]) => [text, 'invalid', at, 'string']),
    )
  })

  it('keeps what it parsed before an error', () => {
    const tree = buildJsonTree('{"a": [1, 2}')
    expect(tree.status).toBe('invalid')
    expect(print(tree.root)).toMatchInlineSnapshot(`
      "{…
        "a": […
          1
          2"
    `)
  })

  it('parses every JSON value back to itself, and every prefix of it is a valid prefix', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const text = JSON.stringify(value, null, pretty ? 2 : undefined)
        const tree = buildJsonTree(text)
        expect(tree.status).toBe('complete')
        expect(jsonTreeValue(tree.root)).toEqual(JSON.parse(text))
        for (let end = 0; end < text.length; end++)
          expect(buildJsonTree(text.slice(0, end)).status).not.toBe('invalid')
      }),
      { numRuns: 200 },
    )
  })

  it('agrees with JSON.parse on arbitrary text, and the text before an error is a valid prefix', () => {
    const alphabet = fc.constantFrom(...'{}[]",:.-+eE0123456789 tfalsenrull\\u\nx')
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 24 }), (chars) => {
        const text = chars.join('')
        const tree = buildJsonTree(text)
        let parsed = true
        try {
          JSON.parse(text)
        } catch {
          parsed = false
        }
        expect(tree.status === 'complete').toBe(parsed)
        const before = tree.status === 'invalid' ? text.slice(0, tree.errorAt!) : ''
        expect(buildJsonTree(before).status).not.toBe('invalid')
      }),
      { numRuns: 2000 },
    )
  })

  it('survives deep nesting without recursion', () => {
    const text = '['.repeat(100_000)
    const tree = buildJsonTree(text)
    expect(tree.status).toBe('incomplete')
    expect(tree.nodeCount).toBe(100_000)
  })
})
