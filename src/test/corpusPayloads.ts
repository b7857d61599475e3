import { loadSource } from '../formats/load'
import { buildSharePayload, type ShareInput, type SharePayload } from '../formats/share/payload'
import { corpusFiles, readCorpus } from './corpus'

/** One corpus attempt with the payload of its "Only this attempt" link, the cursor on its first chunk. */
export type CorpusAttemptPayload = {
  readonly name: string
  readonly attempt: ShareInput['attempt']
  readonly payload: SharePayload
}

/** Every attempt of every corpus log (fixtures/dsh) with its stream-scope share payload, in file order. */
export function corpusAttemptPayloads(): CorpusAttemptPayload[] {
  return corpusFiles().flatMap((name) => {
    const source = loadSource(readCorpus(name), name)
    return source.sessions[0]!.streams.map((attempt) => ({
      name,
      attempt,
      payload: buildSharePayload({ source, attempt, streamKey: attempt.id, k: 0 }, { scope: 'stream' }),
    }))
  })
}
