import type { LlmFailure } from '../core/protocol'
import { STOP, chunk, textBlock, textDeltas } from './chunks'
import { SessionLog } from './sessionLog'

/**
 * The lessons that need a harness session log (docs/protocol.md §6): what the harness writes around a model attempt that
 * fails and is retried, and around one the user cancels. Both are one turn with one step.
 */

const CREATED_AT = 1785821397000

/** A 503 mid-answer, retried after a backoff: two attempts of one step; the message cites only the second. */
export function errorRetryLog(): string {
  const log = new SessionLog({ id: '3f6d2a9e-51c4-4b7a-9e0d-7c2b8a41f5e3', createdAt: CREATED_AT })
  log.turnStart(1)
  log.stepStart(1, 1)
  log.userMessage('Explain a race condition in one sentence.', 'b1e7c0d2-4a5f-4e39-8c61-0f9a2d7e3b48')
  const failure: LlmFailure = {
    message: '503 Service Unavailable: the model is overloaded, please try again',
    code: 'SERVER',
    status: 503,
  }
  log.attempt(1, 1, [
    chunk.start(0, 'text'),
    ...textDeltas(0, ['A race condition is ', 'a bug where ']),
    chunk.usage({ inputTokens: 24, outputTokens: 6 }),
    chunk.finish({ kind: 'error', failure }),
  ])
  const retryId = '9a4c7e21-6b3d-4f85-a0e2-58d1c9f7b604'
  log.retry({ retryId, turn: 1, step: 1, retry: 1, maxRetries: 5, delayMs: 500, failure })
  const second = log.attempt(1, 1, [
    ...textBlock(0, [
      'A race condition is ',
      'a bug where the result depends on ',
      'which of two concurrent operations ',
      'happens to finish first.',
    ]),
    chunk.usage({ inputTokens: 24, outputTokens: 19 }),
    chunk.finish(STOP),
  ])
  log.assistantMessage(second, { id: 'e5b08f3a-2c71-4d96-b4e8-13a6f0c9d257' })
  log.stepEnd(1, 1)
  log.turnEnd(1, { kind: 'completed' })
  return log.toJsonl()
}

/** The user cancels while text streams: no finish chunk; the harness keeps the text as an interrupted message. */
export function cancelledLog(): string {
  const log = new SessionLog({ id: '7c1e5b83-0d2f-4a69-b7e4-2f8a6c3d9e10', createdAt: CREATED_AT })
  log.turnStart(1)
  log.stepStart(1, 1)
  log.userMessage('Write a short story about a lighthouse keeper.', '4d2a8f61-93b0-4c5e-a1d7-6e0b3f9c2a85')
  const attempt = log.attempt(1, 1, [
    chunk.start(0, 'text'),
    ...textDeltas(0, [
      'The lighthouse keeper ',
      'had not seen a ship ',
      'in eleven years. ',
      'Every night she lit the lamp anyway, ',
      'and every morning she wrote ',
    ]),
  ])
  log.wait(1200)
  log.assistantMessage(attempt, { id: 'a83f0e6c-5d14-4b27-9c0a-d2e71b6f4c39', interrupted: true })
  log.stepEnd(1, 1)
  log.turnEnd(1, { kind: 'aborted', reason: { kind: 'user' } })
  return log.toJsonl()
}
