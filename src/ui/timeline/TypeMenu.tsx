import { useEffect, useId, useRef, useState } from 'react'
import { CHUNK_TYPES, type ChunkType } from '../../core/protocol'
import { CHUNK_STYLE } from '../chunkStyle'
import { useT } from '../i18n/useT'

type Props = {
  readonly types: readonly ChunkType[]
  readonly onChange: (types: ChunkType[]) => void
}

/** "Types ▾": a checkbox menu choosing which chunk types the timeline shows (none ticked = all). */
export function TypeMenu({ types, onChange }: Props) {
  const t = useT()
  const [open, setOpen] = useState(false)
  const rootRef = useRef<HTMLDivElement>(null)
  const menuId = useId()

  useEffect(() => {
    if (!open) return
    const onPointer = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false)
    }
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !rootRef.current?.contains(document.activeElement)) return
      event.preventDefault()
      setOpen(false)
      rootRef.current.querySelector('button')?.focus()
    }
    document.addEventListener('pointerdown', onPointer)
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('pointerdown', onPointer)
      document.removeEventListener('keydown', onKey)
    }
  }, [open])

  const toggle = (type: ChunkType) =>
    onChange(types.includes(type) ? types.filter((t) => t !== type) : [...types, type])

  return (
    <div ref={rootRef} className="relative">
      <button
        type="button"
        className={`btn ${types.length > 0 ? 'border-sky-500 dark:border-sky-400' : ''}`}
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen(!open)}
        title={t('timeline.typesTitle')}
      >
        {t('timeline.types', { count: types.length === 0 ? 'all' : String(types.length) })}
      </button>
      {open ? (
        <fieldset
          id={menuId}
          className="absolute right-0 z-30 mt-1 w-48 rounded border border-slate-300 bg-white p-1 text-xs shadow-lg dark:border-slate-600 dark:bg-slate-800"
        >
          <legend className="sr-only">{t('timeline.typesShown')}</legend>
          {CHUNK_TYPES.map((type) => (
            <label
              key={type}
              className="flex items-center gap-2 rounded px-1 py-0.5 hover:bg-slate-100 dark:hover:bg-slate-700"
            >
              <input type="checkbox" checked={types.includes(type)} onChange={() => toggle(type)} />
              <span className={`rounded px-1 font-mono ${CHUNK_STYLE[type].badge}`}>{type}</span>
            </label>
          ))}
          <button
            type="button"
            className="btn mt-1 w-full"
            disabled={types.length === 0}
            onClick={() => onChange([])}
          >
            {t('timeline.allTypes')}
          </button>
        </fieldset>
      ) : null}
    </div>
  )
}
