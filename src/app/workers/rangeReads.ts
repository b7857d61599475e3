import type { ReadRange } from './readFile'

/**
 * A file's bytes read on the page's thread for the loading worker, over a MessagePort (docs/ARCHITECTURE.md, "Data
 * flow"). Reading a Blob copies its bytes out of the browser's data pipe on the thread that asked, in many small
 * tasks: in a Chromium trace of a 73 MB file that was about a tenth of the loading worker's time, plus waits for
 * the bytes, on the thread that decodes and parses, which is what the open waits for. The page's thread has room
 * while the worker parses (it replays the first stream as batches come, app/open/earlyReplay.ts), so it reads and
 * transfers each piece (no copy); the worker asks for each range as it would read it itself (readFile.ts).
 */

type Asked = { readonly from: number; readonly to: number }
type Answer =
  { readonly from: number; readonly bytes: ArrayBuffer } | { readonly from: number; readonly error: string }

/** Page side: answers the worker's ranges of `file` until `port` is closed. */
export function serveReads(file: Blob, port: MessagePort): void {
  port.onmessage = (event: MessageEvent<Asked>) => {
    const { from, to } = event.data
    file
      .slice(from, to)
      .arrayBuffer()
      .then(
        (bytes) => port.postMessage({ from, bytes } satisfies Answer, [bytes]),
        (error: unknown) => port.postMessage({ from, error: String(error) } satisfies Answer),
      )
  }
}

/** Worker side: reads a range through the page's {@link serveReads}. */
export function readsOver(port: MessagePort): ReadRange {
  const waiting = new Map<number, { resolve(bytes: ArrayBuffer): void; reject(error: Error): void }>()
  port.onmessage = (event: MessageEvent<Answer>) => {
    const answer = event.data
    const asked = waiting.get(answer.from)
    waiting.delete(answer.from)
    if ('bytes' in answer) asked?.resolve(answer.bytes)
    else asked?.reject(new Error(answer.error))
  }
  return (from, to) =>
    new Promise((resolve, reject) => {
      waiting.set(from, { resolve, reject })
      port.postMessage({ from, to } satisfies Asked)
    })
}
