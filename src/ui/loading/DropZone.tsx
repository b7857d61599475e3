import { useEffect, useState } from 'react'
import { useT } from '../i18n/useT'
import { useSourceLoader } from './useSourceLoader'

/** Drop a file anywhere on the page; an overlay says where it will go while dragging. */
export function DropZone() {
  const t = useT()
  const { openFiles } = useSourceLoader()
  const [over, setOver] = useState(false)
  useEffect(() => {
    let depth = 0
    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false
    const onEnter = (event: DragEvent) => {
      if (!hasFiles(event)) return
      depth += 1
      setOver(true)
    }
    const onLeave = () => {
      depth = Math.max(0, depth - 1)
      if (depth === 0) setOver(false)
    }
    const onOver = (event: DragEvent) => {
      if (hasFiles(event)) event.preventDefault()
    }
    const onDrop = (event: DragEvent) => {
      depth = 0
      setOver(false)
      const files = [...(event.dataTransfer?.files ?? [])]
      if (files.length === 0) return
      event.preventDefault()
      // A stream and its trace export dropped together: the trace becomes the stream's recorded message.
      void openFiles(files)
    }
    window.addEventListener('dragenter', onEnter)
    window.addEventListener('dragleave', onLeave)
    window.addEventListener('dragover', onOver)
    window.addEventListener('drop', onDrop)
    return () => {
      window.removeEventListener('dragenter', onEnter)
      window.removeEventListener('dragleave', onLeave)
      window.removeEventListener('dragover', onOver)
      window.removeEventListener('drop', onDrop)
    }
  }, [openFiles])
  if (!over) return null
  return (
    <div className="pointer-events-none fixed inset-0 z-40 flex items-center justify-center bg-sky-500/10 ring-4 ring-sky-500 ring-inset">
      <p className="rounded bg-white px-4 py-2 text-sm font-medium shadow dark:bg-slate-900">
        {t('drop.hint')}
      </p>
    </div>
  )
}
