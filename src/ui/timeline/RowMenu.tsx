import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import { parseChunk, type ChunkEdit } from '../../core/experiments/streamEdits'
import type { AnyChunk } from '../../core/protocol'
import type { WhatIf } from '../experiments/useWhatIf'
import type { T } from '../i18n/translate'

/** Where the menu opens: the chunk it acts on and the screen point it hangs from. */
export type RowMenuAt = { readonly pos: number; readonly x: number; readonly y: number }

type Item = { readonly id: string; readonly label: string; readonly disabled: boolean; run(): void }

const ITEM =
  'block w-full rounded px-2 py-0.5 text-left hover:bg-slate-100 focus:bg-sky-100 focus:outline-none disabled:opacity-40 dark:hover:bg-slate-700 dark:focus:bg-sky-900'
const BUTTON =
  'rounded border border-slate-300 px-1.5 py-0.5 hover:bg-slate-100 disabled:opacity-40 dark:border-slate-600 dark:hover:bg-slate-800'

/**
 * The timeline's one row menu (docs/protocol.md §13): what-if edits of the chunk at `at.pos` — drop, duplicate,
 * move, edit its JSON, insert one after it — through the same what-if session the Experiments panel uses. A
 * single instance positioned at the row, so the virtualised rows stay light. Arrow keys move between items,
 * Escape (or any edit) closes it and hands focus back to the grid through `onClose`.
 */
export function RowMenu({
  at,
  chunk,
  total,
  whatIf,
  onClose,
  t,
}: {
  readonly at: RowMenuAt
  readonly chunk: AnyChunk
  readonly total: number
  readonly whatIf: WhatIf
  readonly onClose: () => void
  readonly t: T
}) {
  const [editing, setEditing] = useState<'replace' | 'insert' | null>(null)
  const ref = useRef<HTMLDivElement>(null)
  const { pos } = at
  const history = whatIf.session?.history
  const act = (edit: ChunkEdit, cursor: number) => {
    onClose()
    whatIf.edit(edit, cursor)
  }
  const items: Item[] = [
    { id: 'drop', label: t('rowMenu.drop'), disabled: false, run: () => act({ kind: 'drop', pos }, pos) },
    {
      id: 'duplicate',
      label: t('rowMenu.duplicate'),
      disabled: false,
      run: () => act({ kind: 'duplicate', pos }, pos + 2),
    },
    {
      id: 'up',
      label: t('rowMenu.moveUp'),
      disabled: pos === 0,
      run: () => act({ kind: 'move', from: pos, to: pos - 1 }, pos),
    },
    {
      id: 'down',
      label: t('rowMenu.moveDown'),
      disabled: pos >= total - 1,
      run: () => act({ kind: 'move', from: pos, to: pos + 1 }, pos + 2),
    },
    { id: 'edit', label: t('rowMenu.edit'), disabled: false, run: () => setEditing('replace') },
    { id: 'insert', label: t('rowMenu.insert'), disabled: false, run: () => setEditing('insert') },
    {
      id: 'undo',
      label: t('rowMenu.undo'),
      disabled: !history?.done.length,
      run: () => (onClose(), whatIf.undo()),
    },
    {
      id: 'redo',
      label: t('rowMenu.redo'),
      disabled: !history?.undone.length,
      run: () => (onClose(), whatIf.redo()),
    },
  ]

  // Opens with the first item focused, clamped into the window (a row near the bottom opens the menu upwards).
  useLayoutEffect(() => {
    const el = ref.current
    if (el === null) return
    const box = el.getBoundingClientRect()
    el.style.left = `${Math.max(0, Math.min(at.x, window.innerWidth - box.width - 4))}px`
    el.style.top = `${Math.max(0, at.y + box.height > window.innerHeight ? at.y - box.height : at.y)}px`
    el.querySelector<HTMLElement>(editing === null ? '[role=menuitem]:not(:disabled)' : 'textarea')?.focus()
  }, [at, editing])

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      onClose()
      return
    }
    if (editing !== null) return
    if (event.key === 'Tab') {
      event.preventDefault()
      onClose()
      return
    }
    const enabled = [...(ref.current?.querySelectorAll<HTMLElement>('[role=menuitem]:not(:disabled)') ?? [])]
    const at = enabled.indexOf(document.activeElement as HTMLElement)
    const step: Record<string, number> = {
      ArrowDown: at + 1,
      ArrowUp: at - 1,
      Home: 0,
      End: enabled.length - 1,
    }
    const next = step[event.key]
    if (next === undefined) return
    event.preventDefault()
    enabled[(next + enabled.length) % enabled.length]?.focus()
  }

  return (
    // The menu's keys (arrows, Escape) and its focus-out close are handled once for the menu and the chunk form.
    // oxlint-disable-next-line jsx-a11y/no-static-element-interactions
    <div
      ref={ref}
      // Closing on a focus move outside: a click elsewhere or the page losing focus leaves no stray menu.
      onBlur={(event) => {
        if (!ref.current?.contains(event.relatedTarget as Node | null)) onClose()
      }}
      onKeyDown={onKeyDown}
      style={{ left: at.x, top: at.y }}
      className="fixed z-50 min-w-40 rounded border border-slate-300 bg-white p-1 text-xs shadow-lg dark:border-slate-600 dark:bg-slate-800"
    >
      {editing === null ? (
        <div role="menu" aria-label={t('rowMenu.label', { pos })}>
          {items.map((item) => (
            <button
              key={item.id}
              type="button"
              role="menuitem"
              tabIndex={-1}
              disabled={item.disabled}
              onClick={item.run}
              className={ITEM}
            >
              {item.label}
            </button>
          ))}
        </div>
      ) : (
        <ChunkForm
          title={t(editing === 'replace' ? 'rowMenu.editTitle' : 'rowMenu.insertTitle', { pos })}
          initial={JSON.stringify(chunk)}
          requireChange={editing === 'replace'}
          onApply={(next) =>
            editing === 'replace'
              ? act({ kind: 'replace', pos, chunk: next }, pos + 1)
              : act({ kind: 'insert', pos: pos + 1, chunk: next }, pos + 2)
          }
          onCancel={onClose}
          t={t}
        />
      )}
    </div>
  )
}

function ChunkForm({
  title,
  initial,
  requireChange,
  onApply,
  onCancel,
  t,
}: {
  readonly title: string
  readonly initial: string
  readonly requireChange: boolean
  readonly onApply: (chunk: AnyChunk) => void
  readonly onCancel: () => void
  readonly t: T
}) {
  const [text, setText] = useState(initial)
  const parsed = parseChunk(text)
  const error = typeof parsed === 'string' ? parsed : null
  return (
    <form
      aria-label={title}
      className="flex w-96 max-w-[90vw] flex-col gap-1 p-1"
      onSubmit={(event) => {
        event.preventDefault()
        if (typeof parsed !== 'string') onApply(parsed)
      }}
    >
      <label className="flex flex-col gap-0.5">
        <span className="font-medium">{title}</span>
        <span className="text-slate-500">{t('rowMenu.json')}</span>
        <textarea
          value={text}
          onChange={(event) => setText(event.target.value)}
          rows={4}
          spellCheck={false}
          className="rounded border border-slate-300 p-1 font-mono text-[11px] dark:border-slate-600 dark:bg-slate-900"
        />
      </label>
      {error !== null && (
        <p role="alert" className="text-red-700 dark:text-red-300">
          {error}
        </p>
      )}
      <div className="flex justify-end gap-1">
        <button type="button" className={BUTTON} onClick={onCancel}>
          {t('rowMenu.cancel')}
        </button>
        <button
          type="submit"
          className={BUTTON}
          disabled={error !== null || (requireChange && text === initial)}
        >
          {t('rowMenu.apply')}
        </button>
      </div>
    </form>
  )
}
