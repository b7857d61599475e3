import type { Session } from '../../core/session'
import type { Diagnostic } from '../types'
import { readSseSource } from './readSse'

/** A whole file holding such an array: the Gemini route's stream, with a note saying which framing was read. */
export function readGeminiJsonArray(text: string): {
  diagnostics: Diagnostic[]
  sessions: Session[]
} {
  const read = readSseSource(text, 'gemini-sse', { framing: 'json-array' })
  const note: Diagnostic = {
    severity: 'info',
    message:
      'a Gemini stream without alt=sse (one JSON array): each element read as the SSE form reads a data: line; pi-ai always asks for SSE, so the harness itself never receives this framing',
  }
  return { ...read, diagnostics: [note, ...read.diagnostics] }
}
