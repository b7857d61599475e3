import type { WhatIfBase } from '../app/experiments/whatIf'
import { loadSource } from '../formats/load'
import { listStreams } from '../formats/streamRefs'
import { readCorpus } from './corpus'

/** A what-if edit's base: one attempt of a corpus log, opened from a file of that name. */
export function corpusWhatIfBase(name: string, streamKey: string): WhatIfBase {
  const recording = loadSource(readCorpus(name), name)
  const entry = listStreams(recording).find((e) => e.key === streamKey)!
  return {
    source: recording,
    origin: { kind: 'file', name },
    streamKey: entry.key,
    attempt: entry.attempt,
    name,
  }
}
