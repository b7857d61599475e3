/** pi-ai's own stop reasons, before the harness route maps them to a finish (docs/protocol.md §9). */
export type PiAiStopReason = 'stop' | 'length' | 'toolUse' | 'error' | 'aborted'

/**
 * The `response` half of the replay envelope the harness's pi-ai route writes on its finish (docs/protocol.md §9,
 * "The harness's pi-ai route"): the same for every provider but for its api, provider, model and response id.
 */
export function piAiResponse(
  api: string,
  provider: string,
  model: string | null,
  // As the provider sent it (pi-ai copies it without checking its type).
  responseId: unknown,
  stopReason: PiAiStopReason,
) {
  return {
    kind: 'pi-ai',
    version: 2,
    api,
    provider,
    model: model ?? 'unknown',
    ...(responseId === undefined || responseId === null ? {} : { responseId }),
    stopReason,
  }
}
