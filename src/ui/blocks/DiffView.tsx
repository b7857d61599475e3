import { visibleWhitespace } from '../chunkStyle'
import { markHiddenChars } from '../hiddenChars'
import { useT } from '../i18n/useT'
import type { DiffPart, FieldDiff } from './buildDiff'

const PART_CLASS: Record<DiffPart['op'], string> = {
  same: '',
  removed: 'bg-red-100 text-red-900 dark:bg-red-900/50 dark:text-red-100',
  added: 'bg-emerald-100 text-emerald-900 dark:bg-emerald-900/50 dark:text-emerald-100',
}

/** Past this length an addition right after a removal starts a new line. */
const LONG = 40

/** A text diff inline: removed runs struck through, added ones on green; whitespace changes made visible. */
export function DiffText({ parts }: { readonly parts: readonly DiffPart[] }) {
  const t = useT()
  return (
    <span className="font-mono text-[12px] break-all whitespace-pre-wrap">
      {parts.map((part, position) =>
        part.op === 'same' ? (
          <span key={position}>{markHiddenChars(part.text)}</span>
        ) : part.op === 'added' && parts[position - 1]?.op === 'removed' && part.text.length > LONG ? (
          // A long replacement reads better as old, then new on its own line.
          <span key={position} className="block">
            <span title={t('diff.added')} className={`rounded-sm px-px ${PART_CLASS.added}`}>
              <span className="sr-only"> {t('diff.added')}: </span>
              {markHiddenChars(part.text)}
            </span>
          </span>
        ) : (
          <span
            key={position}
            title={part.op === 'added' ? t('diff.added') : t('diff.removed')}
            className={`rounded-sm px-px ${PART_CLASS[part.op]} ${part.op === 'removed' && part.text.trim() !== '' ? 'line-through decoration-red-500/60' : ''}`}
          >
            <span className="sr-only"> {part.op === 'added' ? t('diff.added') : t('diff.removed')}: </span>
            {part.text.trim() === '' ? visibleWhitespace(part.text) : markHiddenChars(part.text)}
          </span>
        ),
      )}
    </span>
  )
}

type Props = {
  readonly fields: readonly FieldDiff[]
  /** What the two sides are called ("deltas" / "block-end", "assembled" / "recorded"). */
  readonly before: string
  readonly after: string
}

/** Field-by-field differences between two versions of a block. */
export function FieldDiffList({ fields, before, after }: Props) {
  return (
    <dl className="space-y-1 text-xs">
      {fields.map((field) => (
        <div key={field.field}>
          <dt className="font-mono text-[11px] text-slate-600 dark:text-slate-300">{field.field}</dt>
          <dd className="pl-2">
            {field.parts ? (
              <DiffText parts={field.parts} />
            ) : (
              <span className="font-mono text-[12px] break-all">
                <span className={`rounded-sm ${PART_CLASS.removed}`}>
                  {field.before ?? `(absent in ${before})`}
                </span>
                {' → '}
                <span className={`rounded-sm ${PART_CLASS.added}`}>
                  {field.after ?? `(absent in ${after})`}
                </span>
              </span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  )
}
