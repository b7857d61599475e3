import { useVirtualizer } from '@tanstack/react-virtual'
import { useCallback, useEffect, useLayoutEffect, useRef } from 'react'
import { isStreamChunk } from '../../core/protocol'
import type { BlockFrame } from '../../core/ReplayEngine'
import { CHUNK_STYLE } from '../chunkStyle'
import { Panel } from '../layout/Panel'
import type { T } from '../i18n/translate'
import { useT } from '../i18n/useT'
import { useChunkscope } from '../StoreContext'
import { BlockCard } from './BlockCard'
import { latestDelta } from './buildBlockCard'

const NO_BLOCKS: readonly BlockFrame[] = []

/**
 * Every block seen up to the cursor, one card per index in first-seen order. Virtualized with measured heights, so
 * a stream with thousands of blocks renders only the cards in view; it follows the block the last chunk touched.
 */
export function BlocksPanel() {
  const t = useT()
  // A long stream's first show renders the cards in a task of their own (the store's `showing`).
  const pending = useChunkscope((s) => s.showing === 'stream')
  const frame = useChunkscope((s) => (s.showing === 'stream' ? null : s.frame))
  const engine = useChunkscope((s) => (s.showing === 'stream' ? null : s.engine))
  const partials = frame?.partials ?? NO_BLOCKS
  const scrollRef = useRef<HTMLDivElement>(null)
  const listRef = useRef<HTMLDivElement>(null)
  // A card's key is its block's first-seen order. The partials at any cursor are the blocks seen so far in that
  // order, so one key function serves every step: one made per render would make the virtualizer recompute every
  // card's place on every step (thousands of cards in a long stream).
  const seen = useRef(partials)
  seen.current = partials
  const getItemKey = useCallback((position: number) => seen.current[position]?.life.order ?? position, [])
  const count = partials.length
  // No React Compiler in this build: the virtualizer's functions are read fresh on every render.
  // oxlint-disable-next-line react/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 96,
    overscan: 2,
    getItemKey,
  })

  // A step grows the open block's card. Left to the virtualizer's ResizeObserver, the new height would be seen in
  // the step's frame and the cards below moved by a render of their own, a frame later (a step then commits and
  // paints twice). Measured here, after the step's commit and before its frame, a changed height re-renders the
  // list at once, in the same task (bench/README.md, the → step).
  useLayoutEffect(() => {
    for (const card of listRef.current?.children ?? []) virtualizer.measureElement(card)
  }, [frame, virtualizer])

  const effect = frame?.last?.effect
  const touched = effect !== undefined && 'index' in effect ? engine?.life(effect.index)?.order : undefined
  const k = frame?.k
  useEffect(() => {
    if (touched === undefined) return
    // Only when the card is out of view: scrollToIndex reads the scroller's size (a forced layout) every
    // time, which a million-chunk replay cannot afford on each step.
    const range = virtualizer.range
    if (range !== null && touched >= range.startIndex && touched <= range.endIndex) return
    virtualizer.scrollToIndex(touched, { align: 'auto' })
  }, [touched, k, virtualizer])

  const open = partials.reduce((count, p) => count + (p.state === 'open' ? 1 : 0), 0)
  const lastType = frame?.last?.chunk.chunk
  const maxTokens = frame?.hasFinish === true && frame.finish.kind === 'max-tokens'
  const markClass = lastType && isStreamChunk(lastType) ? CHUNK_STYLE[lastType.type].badge : ''

  return (
    <Panel
      title={t('blocks.title')}
      className="flex-1"
      busy={pending}
      actions={
        partials.length > 0 && (
          <span className="font-mono text-[11px] text-slate-600 dark:text-slate-300">
            {t('blocks.count', { count: partials.length, open })}
          </span>
        )
      }
    >
      <div ref={scrollRef} className="h-full overflow-auto">
        {frame !== null && engine !== null && frame.errorPos !== null && (
          <p role="alert" className="px-2 pt-1.5 text-xs text-red-700 dark:text-red-400">
            {stoppedAt(engine.seqAt(frame.errorPos), frame.error, t)}
          </p>
        )}
        {frame === null || engine === null ? (
          !pending && <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('blocks.noStream')}</p>
        ) : partials.length === 0 ? (
          <p className="p-2 text-xs text-slate-600 dark:text-slate-300">
            {engine.lives.length === 0 ? t('blocks.none') : t('blocks.notYet')}
          </p>
        ) : (
          <div ref={listRef} className="relative" style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const block = partials[item.index]!
              return (
                <div
                  key={item.key}
                  data-index={item.index}
                  ref={virtualizer.measureElement}
                  className="absolute inset-x-0 px-1.5 pt-1.5"
                  style={{ transform: `translateY(${item.start}px)` }}
                >
                  <BlockCard
                    block={block}
                    engine={engine}
                    k={frame.k}
                    mark={latestDelta(frame, block.life.index)}
                    markClass={markClass}
                    maxTokens={maxTokens}
                  />
                </div>
              )
            })}
          </div>
        )}
      </div>
    </Panel>
  )
}

/** The banner over the blocks once a push threw (docs/protocol.md §3): what they are from then on. */
function stoppedAt(seq: number | undefined, error: string | null, t: T): string {
  return t('blocks.stopped', { seq: seq ?? '?', error: error ?? '' })
}
