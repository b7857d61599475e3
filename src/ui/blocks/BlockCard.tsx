import { useMemo } from 'react'
import { showValue } from '../../core/checks'
import type { BlockFrame, ReplayEngine } from '../../core/ReplayEngine'
import { BLOCK_ACCENT, CHUNK_STYLE, OTHER_ACCENT, UNKNOWN_BADGE } from '../chunkStyle'
import { HiddenCharsBadge } from '../HiddenCharsBadge'
import { useT } from '../i18n/useT'
import { BlockBody } from './BlockBody'
import { blockNotes, frozenDiff, type Note } from './buildBlockCard'
import { FieldDiffList } from './DiffView'

type Props = {
  readonly block: BlockFrame
  readonly engine: ReplayEngine
  readonly k: number
  /** Characters of the latest delta to highlight in the text and in the arguments. */
  readonly mark: { readonly text: number; readonly arguments: number }
  readonly markClass: string
  /** The stream has finished with max-tokens so far: tool-call blocks are dropped from the message. */
  readonly maxTokens: boolean
}

const NOTE_CLASS: Record<Note['tone'], string> = {
  info: 'text-slate-600 dark:text-slate-300',
  warning: 'text-amber-800 dark:text-amber-300',
  error: 'text-red-700 dark:text-red-400',
}
const NOTE_ICON: Record<Note['tone'], string> = { info: 'ℹ', warning: '⚠', error: '✕' }
const BADGE = 'rounded px-1 py-px text-[10px] font-medium leading-none'
const WARN_BADGE = 'bg-amber-100 text-amber-900 dark:bg-amber-900/60 dark:text-amber-100'

/** One block as it stands at the cursor: type, state, what streamed so far, notes, and the block-end's verdict. */
export function BlockCard({ block, engine, k, mark, markClass, maxTokens }: Props) {
  const t = useT()
  const { life } = block
  const accent = BLOCK_ACCENT[life.blockType] ?? OTHER_ACCENT
  const notes = blockNotes(engine, block, k, maxTokens, t)
  const diff = frozenDiff(engine, block)
  const known = life.blockType in BLOCK_ACCENT
  const firstSeq = engine.chunks.at(life.openedAt)?.seq
  const closedSeq = life.closedAt === null || life.closedAt >= k ? null : engine.chunks.at(life.closedAt)?.seq
  const texts = useMemo(
    () => [
      block.text,
      block.toolCallArguments,
      block.toolCallName ?? '',
      block.toolCallId ?? '',
      ...Object.values(block.block ?? {}).filter((v): v is string => typeof v === 'string'),
    ],
    [block],
  )
  return (
    <article
      aria-label={t('block.title', { index: showValue(life.index) })}
      className={`rounded border border-l-4 border-slate-200 bg-white px-2 py-1.5 dark:border-slate-700 dark:bg-slate-900 ${accent.border}`}
    >
      <header className="mb-1 flex flex-wrap items-center gap-1.5 text-xs">
        <h3 className="font-semibold">{t('block.title', { index: showValue(life.index) })}</h3>
        <span
          className={`font-mono text-[11px] font-medium ${known ? accent.text : `${BADGE} ${UNKNOWN_BADGE}`}`}
        >
          {life.blockType}
        </span>
        <span
          className={`${BADGE} ${block.state === 'frozen' ? CHUNK_STYLE['block-end'].badge : CHUNK_STYLE['block-start'].badge}`}
        >
          {t('block.state', { state: block.state })}
        </span>
        {life.implicit && <span className={`${BADGE} ${WARN_BADGE}`}>{t('block.implicit')}</span>}
        {block.differs && <span className={`${BADGE} ${WARN_BADGE}`}>{t('block.differs')}</span>}
        <HiddenCharsBadge texts={texts} />
        <span className="ml-auto font-mono text-[10px] text-slate-600 dark:text-slate-300">
          {t('block.seqRange', { from: firstSeq ?? '?', to: closedSeq ?? '' })}
        </span>
      </header>
      {notes.length > 0 && (
        <ul className="mb-1 space-y-0.5 text-[11px] leading-snug">
          {notes.map((note) => (
            <li key={note.text} className={NOTE_CLASS[note.tone]}>
              <span aria-hidden="true">{NOTE_ICON[note.tone]} </span>
              {note.text}
            </li>
          ))}
        </ul>
      )}
      <BlockBody block={block} mark={mark} markClass={markClass} />
      {diff && (
        <details
          open
          className="mt-1.5 rounded border border-amber-300 bg-amber-50/60 px-1.5 py-1 dark:border-amber-700/70 dark:bg-amber-950/30"
        >
          <summary className="cursor-pointer text-[11px] font-medium text-amber-900 marker:text-amber-500 dark:text-amber-200">
            {t('block.diffSummary')}
          </summary>
          <div className="mt-1">
            <FieldDiffList fields={diff} before={t('block.theDeltas')} after={t('block.theBlockEnd')} />
          </div>
        </details>
      )}
    </article>
  )
}
