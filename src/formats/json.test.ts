import { describe, expect, it } from 'vitest'
import { peekObjects } from './json'

describe('peekObjects (what every sniffer looks at)', () => {
  it('gives the first non-blank lines, each as its object or null', () => {
    const text = '\n{"type":"session"}\n  \nnot json\n[1, 2]\n {"a": 1}\n{"b": 2}\n'
    expect(peekObjects(text, 4)).toEqual([{ type: 'session' }, null, null, { a: 1 }])
    expect(peekObjects(text, 0)).toEqual([])
  })

  it('does not parse a line longer than 1 MiB, and stops reading after `count` lines', () => {
    const huge = `{"text":"${'x'.repeat(1 << 20)}"}`
    expect(peekObjects(`${huge}\n{"a":1}\n`, 2)).toEqual([null, { a: 1 }])
    // A torn line after the peeked ones is never looked at.
    expect(peekObjects('{"a":1}\n{"b":', 1)).toEqual([{ a: 1 }])
  })
})
