/**
 * The event types of Cohere's v2 chat stream (docs/protocol.md §9, "Cohere v2 chat"): hyphenated, where Anthropic's
 * are underscored. One list for the reader's detection and for the recogniser of other providers' bodies.
 */
export const COHERE_EVENTS: ReadonlySet<string> = new Set([
  'message-start',
  'content-start',
  'content-delta',
  'content-end',
  'tool-plan-delta',
  'tool-call-start',
  'tool-call-delta',
  'tool-call-end',
  'citation-start',
  'citation-end',
  'message-end',
])
