import { useMemo } from 'react'
import { sniffTraceExport } from '../../formats/reference/traceReference'
import { useOpen } from '../OpenContext'

/**
 * Several files at once: trace exports (reference finals, docs/protocol.md §9, "A reference final") open after the streams, so each
 * attaches to the stream opened before it rather than being replaced by it.
 */
async function openInOrder(files: readonly File[], openOne: (file: File) => Promise<unknown>): Promise<void> {
  const traces = await Promise.all(
    files.map(async (file) => sniffTraceExport(await file.slice(0, 1 << 16).text())),
  )
  const ordered = [...files.filter((_, i) => !traces[i]), ...files.filter((_, i) => traces[i])]
  for (const file of ordered) await openOne(file)
}

/** The loading controls' entrances (drop, "Open file", paste, the examples menu), each one `open()` request. */
export function useSourceLoader() {
  const open = useOpen()
  return useMemo(
    () => ({
      openFile: (file: File) => open({ kind: 'file', file }),
      openFiles: (files: readonly File[]) => openInOrder(files, (file) => open({ kind: 'file', file })),
      openText: (text: string) => open({ kind: 'text', text }),
      openExample: (id: string) => open({ kind: 'example', id }),
    }),
    [open],
  )
}
