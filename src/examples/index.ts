import type { AnyChunk } from '../core/protocol'
import { pickText, type LocalText } from '../formats/lesson/lesson'
import cancelled from './lessons/cancelled.json' with { type: 'json' }
import chapter11 from './lessons/chapter-11.json' with { type: 'json' }
import deepseek from './lessons/deepseek.json' with { type: 'json' }
import deltaOnly from './lessons/delta-only.json' with { type: 'json' }
import duplicateEnd from './lessons/duplicate-end.json' with { type: 'json' }
import duplicateStart from './lessons/duplicate-start.json' with { type: 'json' }
import errorRetry from './lessons/error-retry.json' with { type: 'json' }
import frozenDiffers from './lessons/frozen-differs.json' with { type: 'json' }
import maxTokens from './lessons/max-tokens.json' with { type: 'json' }
import misalignedReplay from './lessons/misaligned-replay.json' with { type: 'json' }
import noFinish from './lessons/no-finish.json' with { type: 'json' }
import seedJa from './lessons/seed-ja.json' with { type: 'json' }
import seed from './lessons/seed.json' with { type: 'json' }
import simplified from './lessons/simplified.json' with { type: 'json' }
import straggler from './lessons/straggler.json' with { type: 'json' }
import unknownType from './lessons/unknown-type.json' with { type: 'json' }

/**
 * A built-in example: a lesson file (docs/protocol.md §15) under `src/examples/lessons/`, with narration and questions
 * in English, 简体中文 and 日本語. `source()` is the file's text, so examples load exactly like a dropped lesson.
 */
export type Example = {
  readonly id: string
  /** In English (the menu's words until the interface is translated); `titles` has every language. */
  readonly title: string
  /** One line: what to look for. */
  readonly description: string
  readonly titles: LocalText
  readonly descriptions: LocalText
  readonly source: () => string
}

/** Chunks as NDJSON, one per line: the bare chunk format. */
export function chunksToNdjson(chunks: readonly AnyChunk[]): string {
  return chunks.map((chunk) => JSON.stringify(chunk)).join('\n') + '\n'
}

type LessonFile = { readonly title: LocalText; readonly description: LocalText }

function example(id: string, file: LessonFile): Example {
  return {
    id,
    title: pickText(file.title, 'en'),
    description: pickText(file.description, 'en'),
    titles: file.title,
    descriptions: file.description,
    source: () => JSON.stringify(file, null, 1) + '\n',
  }
}

/**
 * The built-in lessons, in teaching order; the first is the default page. The first four reproduce the seed
 * articles (seeds/000, 004, 002, 003): their examples and their self-test questions.
 */
export const EXAMPLES: readonly Example[] = [
  example('seed', seed),
  example('seed-ja', seedJa),
  example('chapter-11', chapter11),
  example('simplified', simplified),
  example('delta-only', deltaOnly),
  example('straggler', straggler),
  example('duplicate-end', duplicateEnd),
  example('duplicate-start', duplicateStart),
  example('max-tokens', maxTokens),
  example('no-finish', noFinish),
  example('error-retry', errorRetry),
  example('cancelled', cancelled),
  example('deepseek', deepseek),
  example('frozen-differs', frozenDiffers),
  example('misaligned-replay', misalignedReplay),
  example('unknown-type', unknownType),
]

export const DEFAULT_EXAMPLE = EXAMPLES[0]!

export function findExample(id: string): Example | undefined {
  return EXAMPLES.find((example) => example.id === id)
}
