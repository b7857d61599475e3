import { isBlank } from '../formats/json'
import { loadSource } from '../formats/load'
import {
  decodeTextInput,
  isBinaryContainer,
  loadBytes,
  withDiagnostics,
  type LoadBytesOptions,
} from '../formats/loadBytes'
import { detectFormat } from '../formats/registry'
import { readSessionStreams } from '../formats/sessionSource'
import type { LoadedSource } from '../formats/types'

/**
 * loadBytes for `inspect` and `lint`, which print streams, findings and diagnostics but never `session.events`: a
 * harness session log is segmented while it is read (readSessionStreams), so the millions of chunk events of a
 * 100 MB log are never all alive next to its streams. The report is the same as over loadBytes: any other input,
 * a log out of seq order, or a reader that throws, loads exactly as loadBytes loads it.
 */
export async function loadForReport(
  bytes: Uint8Array,
  name: string,
  options: LoadBytesOptions,
): Promise<LoadedSource> {
  if (isBinaryContainer(bytes)) return loadBytes(bytes, name, options)
  const { text, diagnostics } = decodeTextInput(bytes)
  if (isBlank(text) || detectFormat(text) !== 'dsh-session-jsonl')
    return withDiagnostics(loadSource(text, name), diagnostics)
  let read: ReturnType<typeof readSessionStreams>
  try {
    read = readSessionStreams(text)
  } catch {
    read = null
  }
  if (read === null) return loadBytes(bytes, name, options)
  return withDiagnostics({ format: 'dsh-session-jsonl', name, ...read }, diagnostics)
}
