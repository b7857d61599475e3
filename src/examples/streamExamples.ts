import type { StreamChunk } from '../core/protocol'
import { STOP, TOOL_CALLS, block, chunk, textBlock, textDeltas } from './chunks'

/**
 * The bare-chunk lessons: one stream each, short enough to step through in front of a class. Each shows one rule of
 * the BlockAssembler (docs/protocol.md §3) or one check (§5); everything else about the stream is well-behaved.
 */

/** No block-start, no block-end: the first delta opens block 0 implicitly and the block assembles from deltas. */
export const deltaOnlyChunks: StreamChunk[] = [
  ...textDeltas(0, [
    'The build failed because ',
    '`vite.config.ts` imports a plugin ',
    'that is not installed. ',
    'Run `npm i -D @vitejs/plugin-react` ',
    'and try again.',
  ]),
  chunk.usage({ inputTokens: 412, outputTokens: 31 }),
  chunk.finish(STOP),
]

/** The adapter re-sends its last delta after the block-end: ignored, the frozen block keeps its text. */
export const stragglerChunks: StreamChunk[] = [
  ...textBlock(0, ['All tests pass: ', '42 passed, ', '0 failed.']),
  chunk.text(0, '0 failed.'),
  chunk.usage({ inputTokens: 958, outputTokens: 12 }),
  chunk.finish(STOP),
]

/** A second block-end for block 0 that says something else: ignored, the first close wins. */
export const duplicateEndChunks: StreamChunk[] = [
  ...textBlock(0, ['Deployed ', 'version 2.4.1 ', 'to staging.']),
  chunk.end(0, block.text('Deployed version 2.4.1 to production.')),
  chunk.usage({ inputTokens: 233, outputTokens: 11 }),
  chunk.finish(STOP),
]

/** A second block-start for block 0, as reasoning: ignored, the block stays text and keeps streaming. */
export const duplicateStartChunks: StreamChunk[] = [
  chunk.start(0, 'text'),
  chunk.text(0, 'Here is the plan: '),
  chunk.start(0, 'reasoning'),
  chunk.text(0, 'first the schema, '),
  chunk.text(0, 'then the API.'),
  chunk.end(0, block.text('Here is the plan: first the schema, then the API.')),
  chunk.usage({ inputTokens: 187, outputTokens: 13 }),
  chunk.finish(STOP),
]

/** The token limit hits while a tool call streams: every tool call is dropped, the text is kept. */
export const maxTokensChunks: StreamChunk[] = [
  ...textBlock(0, ['I’ll save the summary ', 'to a file.']),
  chunk.start(1, 'tool-call'),
  chunk.toolCall(1, 'call_00_q3summary', '{"path":"summary.md",', 'write_file'),
  chunk.toolCall(1, 'call_00_q3summary', '"content":"# Q3 review\\n\\n'),
  chunk.toolCall(1, 'call_00_q3summary', 'Revenue grew 12%, driven by'),
  chunk.usage({ inputTokens: 2140, outputTokens: 256 }),
  chunk.finish({ kind: 'max-tokens' }),
]

/** Everything but the finish: the stream reads as stop, and the checker says the finish is missing. */
export const noFinishChunks: StreamChunk[] = [
  ...textBlock(0, ['The last error in the log ', 'is a timeout ', 'at 14:02.']),
  chunk.usage({ inputTokens: 3012, outputTokens: 14 }),
]

/**
 * DeepSeek's adapter opens one reasoning and one text block as their first deltas arrive, keeps both open and closes
 * them together at `[DONE]` (docs/protocol.md §9): the blocks overlap, which is information, not an error.
 */
export const deepseekChunks: StreamChunk[] = [
  chunk.start(0, 'reasoning'),
  chunk.reasoning(0, 'The user asks for the capital of Australia. '),
  chunk.reasoning(0, 'Many people guess Sydney, '),
  chunk.reasoning(0, 'but it is Canberra.'),
  chunk.start(1, 'text'),
  chunk.text(1, 'The capital of Australia is '),
  chunk.text(1, '**Canberra**, '),
  chunk.text(1, 'not Sydney.'),
  chunk.end(
    0,
    block.reasoning(
      'The user asks for the capital of Australia. Many people guess Sydney, but it is Canberra.',
    ),
  ),
  chunk.end(1, block.text('The capital of Australia is **Canberra**, not Sydney.')),
  chunk.usage({ inputTokens: 19, outputTokens: 38, cacheReadTokens: 1152, reasoningTokens: 24 }),
  chunk.finish(STOP),
]

/** The block-end re-serialises the arguments without spaces, so it differs from the deltas: the block-end wins. */
export const frozenDiffersChunks: StreamChunk[] = [
  ...textBlock(0, ['I’ll create the script.']),
  chunk.start(1, 'tool-call'),
  chunk.toolCall(1, 'toolu_01HeLLo', '{"path": "hello.py", ', 'write_file'),
  chunk.toolCall(1, 'toolu_01HeLLo', '"content": "print(\'Hello, class!\')"}'),
  chunk.end(
    1,
    block.toolCall('toolu_01HeLLo', 'write_file', '{"path":"hello.py","content":"print(\'Hello, class!\')"}'),
  ),
  chunk.usage({ inputTokens: 640, outputTokens: 47 }),
  chunk.finish(TOOL_CALLS),
]

/** Two blocks but one replayState entry: the mapping is misaligned, so the whole replayState is discarded. */
export const misalignedReplayChunks: StreamChunk[] = [
  chunk.start(0, 'reasoning'),
  chunk.reasoning(0, 'A haiku: five, seven, five syllables.'),
  chunk.end(0, block.reasoning('A haiku: five, seven, five syllables.')),
  ...textBlock(1, ['Morning build is green\n', 'coffee cools beside the logs\n', 'nothing left to fix']),
  chunk.usage({ inputTokens: 52, outputTokens: 41 }),
  chunk.finish(STOP, {
    response: { id: 'msg_01Haiku', model: 'claude-sonnet' },
    blocks: [{ kind: 'thinking', signature: 'EqQBCkYIBRgCKkAhaiku' }],
  }),
]

/** A block-start of a type the assembler does not know, never closed: assembling the message throws. */
export const unknownTypeChunks: StreamChunk[] = [
  ...textBlock(0, ['Here is a short clip ', 'of the animation:']),
  chunk.start(1, 'video'),
  chunk.usage({ inputTokens: 301, outputTokens: 9 }),
  chunk.finish(STOP),
]
