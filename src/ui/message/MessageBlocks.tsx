import { useVirtualizer } from '@tanstack/react-virtual'
import { useLayoutEffect, useRef, useState } from 'react'
import type { ContentBlock } from '../../core/protocol'
import type { MessageDiff } from '../blocks/buildDiff'
import { BlockView } from './BlockView'
import { useT } from '../i18n/useT'

type Props = {
  readonly blocks: readonly ContentBlock[] | null
  /** The recorded content, shown in a second column; null for a stream with no recorded message. */
  readonly recorded: readonly ContentBlock[] | null
  readonly differing: MessageDiff | null
}

const HEADING = 'mb-0.5 text-[11px] font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300'

/**
 * The assembled blocks, and beside each its recorded counterpart with differing ones outlined. One row per
 * position, virtualized against the panel's own scroller: a message of thousands of blocks renders the rows in view.
 */
export function MessageBlocks({ blocks, recorded, differing }: Props) {
  const t = useT()
  const listRef = useRef<HTMLDivElement>(null)
  const [scroller, setScroller] = useState<HTMLElement | null>(null)
  const [margin, setMargin] = useState(0)
  const assembled = blocks ?? []
  const rows = Math.max(assembled.length, recorded?.length ?? 0)
  const differs = new Set(differing?.blocks.map((b) => b.position) ?? [])

  // The list sits below the meta lines inside the panel's scrolling body: find that scroller, and re-measure the
  // list's offset in it whenever the body's content changes size (a verdict unfolds, a finish line appears).
  useLayoutEffect(() => {
    const list = listRef.current
    const parent = scrollParent(list)
    setScroller(parent)
    if (list === null || parent === null) return
    const measure = () => {
      const top = list.getBoundingClientRect().top - parent.getBoundingClientRect().top + parent.scrollTop
      setMargin((current) => (Math.abs(current - top) > 0.5 ? top : current))
    }
    measure()
    const observer = new ResizeObserver(measure)
    observer.observe(parent.firstElementChild ?? parent)
    return () => observer.disconnect()
  }, [])

  // No React Compiler in this build: the virtualizer's functions are read fresh on every render.
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows,
    getScrollElement: () => scroller,
    estimateSize: () => 64,
    overscan: 4,
    scrollMargin: margin,
  })

  // A step grows the open block: measured after the step's commit, so the rows below move in the step's own frame
  // rather than by a second render after the virtualizer's ResizeObserver sees it (as in BlocksPanel).
  useLayoutEffect(() => {
    for (const row of listRef.current?.children ?? []) virtualizer.measureElement(row)
  }, [blocks, virtualizer])

  const columns = recorded === null ? '' : 'grid grid-cols-2 gap-2'
  return (
    <div>
      {recorded !== null && (
        <div className={columns}>
          <h3 className={HEADING}>{t('message.assembled')}</h3>
          <h3 className={HEADING}>{t('message.recorded')}</h3>
        </div>
      )}
      {rows === 0 && (
        <p className="text-xs text-slate-600 italic dark:text-slate-300">{t('message.noBlocks')}</p>
      )}
      <div ref={listRef} className="relative" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const block = assembled[item.index]
          const stored = recorded?.[item.index]
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              className={`absolute inset-x-0 pb-1 ${columns}`}
              style={{ transform: `translateY(${item.start - margin}px)` }}
            >
              <div className="min-w-0">
                {block !== undefined && <BlockView block={block} position={item.index} />}
                {block === undefined && blocks !== null && <Missing />}
              </div>
              {recorded !== null && (
                <div className="min-w-0">
                  {stored !== undefined ? (
                    <BlockView
                      block={stored}
                      position={item.index}
                      label="Recorded block"
                      differs={differs.has(item.index) || block === undefined}
                    />
                  ) : (
                    <Missing />
                  )}
                </div>
              )}
            </div>
          )
        })}
      </div>
    </div>
  )
}

const Missing = () => (
  <p className="rounded border border-dashed border-amber-400 px-2 py-1 text-xs text-amber-800 dark:border-amber-600 dark:text-amber-300">
    no block at this position
  </p>
)

function scrollParent(element: HTMLElement | null): HTMLElement | null {
  for (let node = element?.parentElement ?? null; node !== null; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node)
    if (overflowY === 'auto' || overflowY === 'scroll') return node
  }
  return null
}
