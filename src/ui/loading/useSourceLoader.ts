import { useMemo } from 'react'
import { openInOrder } from './openInOrder'
import { useOpen } from '../OpenContext'

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
