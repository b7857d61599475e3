import { useMemo, useState } from 'react'
import { findStream } from '../../formats/streamRefs'
import type { Finding } from '../../core/checks'
import { findingText } from '../findings/findingText'
import { Panel } from '../layout/Panel'
import { useChunkscope } from '../StoreContext'
import {
  compareWithRecorded,
  describeThrow,
  droppedToolCalls,
  rawMessageJson,
  shownMessage,
  whyUnrecorded,
} from './buildFinalMessage'
import { MessageBlocks } from './MessageBlocks'
import { MessageMeta } from './MessageMeta'
import { RawJson } from './RawJson'
import { RecordedVerdict } from './RecordedVerdict'
import { useT } from '../i18n/useT'

const TOGGLE =
  'btn aria-pressed:bg-sky-100 aria-pressed:text-sky-900 dark:aria-pressed:bg-sky-900 dark:aria-pressed:text-sky-100'

/**
 * The message exactly as `blocks()` assembles it, at the cursor or at the end; for a harness log, side by side with
 * the recorded assistant/message and a verdict for the whole attempt.
 */
export function FinalMessagePanel() {
  const t = useT()
  // A long stream's first show renders the message in a task of its own (the store's `showing`).
  const pending = useChunkscope((s) => s.showing !== 'all')
  const frame = useChunkscope((s) => (s.showing !== 'all' ? null : s.frame))
  const engine = useChunkscope((s) => (s.showing !== 'all' ? null : s.engine))
  const source = useChunkscope((s) => s.source)
  const streamKey = useChunkscope((s) => s.streamKey)
  const mode = useChunkscope((s) => s.finalMode)
  const { setFinalMode } = useChunkscope((s) => s.actions)
  const [raw, setRaw] = useState(false)

  const entry = useMemo(() => findStream(source, streamKey), [source, streamKey])
  const attempt = entry?.attempt ?? null
  const recorded = attempt?.recorded ?? null
  const verdict = useMemo(
    () => (engine !== null && recorded !== null ? compareWithRecorded(engine.result, recorded) : null),
    [engine, recorded],
  )
  const why = useMemo(
    () =>
      engine !== null && attempt !== null && recorded === null
        ? whyUnrecorded(attempt, source?.sessions[entry?.sessionIndex ?? 0], engine.result, engine.streaming)
        : null,
    [engine, attempt, recorded, source, entry],
  )

  const read = mode === 'end' ? engine?.result : frame
  const shown = read == null ? null : shownMessage(read, recorded)
  const thrownSeq = read?.errorPos == null ? undefined : engine?.seqAt(read.errorPos)
  const thrown =
    shown === null ? null : describeThrow(shown, thrownSeq === undefined ? null : `seq ${thrownSeq}`)
  // At the end, the tool-call-dropped finding already counted them; at the cursor, the frame's blocks tell.
  const dropped =
    read == null
      ? null
      : mode === 'end'
        ? (mapFinding(
            engine?.findings.find((f) => f.rule === 'tool-call-dropped'),
            (f) => findingText(f, t),
          ) ?? null)
        : droppedToolCalls(read, frame?.partials ?? [])

  return (
    <Panel
      title={t('message.title')}
      className="flex-1"
      focusableScroll
      busy={pending}
      actions={
        <>
          <fieldset className="flex">
            <legend className="sr-only">{t('message.show')}</legend>
            {(['cursor', 'end'] as const).map((m) => (
              <button
                key={m}
                type="button"
                aria-pressed={mode === m}
                className={TOGGLE}
                onClick={() => setFinalMode(m)}
              >
                {m === 'cursor' ? t('message.atCursor') : t('message.atEnd')}
              </button>
            ))}
          </fieldset>
          <button type="button" aria-pressed={raw} className={TOGGLE} onClick={() => setRaw(!raw)}>
            {t('message.raw')}
          </button>
        </>
      }
    >
      {read == null || shown === null ? (
        !pending && <p className="p-2 text-xs text-slate-600 dark:text-slate-300">{t('blocks.noStream')}</p>
      ) : (
        <div className="space-y-1.5 p-2">
          <MessageMeta read={read} streaming={engine?.streaming ?? false} />
          {verdict !== null && recorded !== null && (
            <RecordedVerdict
              verdict={verdict}
              recorded={recorded}
              midStream={mode === 'cursor' && frame?.k !== frame?.total}
            />
          )}
          {why !== null && (
            <p className="text-xs text-slate-600 dark:text-slate-300">No recorded message: {why}.</p>
          )}
          {shown.interrupted && (
            <p className="text-xs text-amber-800 dark:text-amber-300">{t('message.interrupted')}</p>
          )}
          {dropped !== null && <p className="text-xs text-slate-600 dark:text-slate-300">ℹ {dropped}</p>}
          {thrown !== null && (
            <p role="alert" className="text-xs text-red-700 dark:text-red-400">
              {thrown}
            </p>
          )}
          {raw ? (
            <RawJson json={rawMessageJson(shown, read)} />
          ) : (
            <MessageBlocks
              blocks={shown.blocks}
              recorded={recorded?.content ?? null}
              differing={verdict?.kind === 'compared' ? verdict.diff : null}
            />
          )}
        </div>
      )}
    </Panel>
  )
}

const mapFinding = (finding: Finding | undefined, f: (finding: Finding) => string): string | null =>
  finding === undefined ? null : f(finding)
