import { describe, expect, it } from 'vitest'
import { seedExampleChunks } from '../../examples/seedExample'
import { buildFinalMessage } from './buildFinalMessage'

describe('buildFinalMessage', () => {
  it('assembles the seed example into a text block and a bash tool call', () => {
    expect(buildFinalMessage(seedExampleChunks)).toMatchInlineSnapshot(`
      {
        "blocks": [
          {
            "text": "I'll check the directory for you.",
            "type": "text",
          },
          {
            "arguments": "{"command":"ls -la"}",
            "id": "call_01",
            "name": "bash",
            "type": "tool-call",
          },
        ],
        "error": null,
        "finish": {
          "kind": "tool-calls",
        },
        "hasFinish": true,
        "usage": {
          "inputTokens": 120,
          "outputTokens": 18,
        },
      }
    `)
  })

  it('reads finish as stop when no finish chunk arrived', () => {
    const message = buildFinalMessage([{ type: 'text-delta', index: 0, text: 'partial' }])
    expect(message.hasFinish).toBe(false)
    expect(message.finish).toEqual({ kind: 'stop' })
    expect(message.blocks).toEqual([{ type: 'text', text: 'partial' }])
  })

  it('reports the assembler error for an open block of an unknown type instead of throwing', () => {
    const message = buildFinalMessage([{ type: 'block-start', index: 0, blockType: 'citation' }])
    expect(message.blocks).toEqual([])
    expect(message.error).toBe('cannot assemble incomplete block of type "citation"')
  })
})
