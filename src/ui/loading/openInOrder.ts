import { sniffTraceExport } from '../../formats/reference/traceReference'

/**
 * Several files at once: trace exports (reference finals, docs/protocol.md §9, "A reference final") open after the streams, so each
 * attaches to the stream opened before it rather than being replaced by it.
 */
export async function openInOrder(
  files: readonly File[],
  openOne: (file: File) => Promise<unknown>,
): Promise<void> {
  const traces = await Promise.all(
    files.map(async (file) => sniffTraceExport(await file.slice(0, 1 << 16).text())),
  )
  const ordered = [...files.filter((_, i) => !traces[i]), ...files.filter((_, i) => traces[i])]
  for (const file of ordered) await openOne(file)
}
