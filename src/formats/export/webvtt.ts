import type { SourcedChunk } from '../../core/protocol'
import { narrationAt, pickText, type Lang, type Lesson } from '../lesson/lesson'

/** Seconds per chunk when the stream's times are no usable timeline (a chunk file has none). */
export const CAPTION_PACE_MS = 3000

export type CaptionInput = {
  readonly chunks: readonly SourcedChunk[]
  readonly lesson: Lesson
  readonly streamKey: string
  readonly lang: Lang
  readonly paceMs?: number
}

/**
 * A lesson's narration as a WebVTT caption file (W3C WebVTT): one cue per narrated seq, identified `seq-<n>`. A cue
 * starts when its chunk arrived — the chunks' own times, counted from the first, when every chunk has one and they
 * never go back; else chunk position × `paceMs` — and lasts until the next narrated chunk (the last: `paceMs`).
 *
 * @example
 * lessonToWebVtt({ chunks, lesson, streamKey: 'stream', lang: 'ja' })
 * // 'WEBVTT\n\nseq-0\n00:00:00.000 --> 00:00:03.000\nブロック 0 が…\n\n…'
 */
export function lessonToWebVtt(input: CaptionInput): string {
  const pace = input.paceMs ?? CAPTION_PACE_MS
  const { chunks, lesson, streamKey, lang } = input
  const times = chunks.map((c) => c.time)
  const timed =
    times.length > 0 &&
    times.every((t, i): t is number => t !== null && (i === 0 || t >= (times[i - 1] ?? t)))
  const first = timed ? (times[0] as number) : 0
  const startOf = (pos: number) => (timed ? (times[pos] as number) - first : pos * pace)
  const cues: { seq: number; pos: number; text: string }[] = []
  chunks.forEach((chunk, pos) => {
    const said = narrationAt(lesson, streamKey, chunk.seq)
    if (said === null) return
    const text = cueText(pickText(said, lang))
    if (text !== '') cues.push({ seq: chunk.seq, pos, text })
  })
  const title = cueText(pickText(lesson.title, lang)).replace(/\n/g, ' ')
  let out = `WEBVTT - ${title}\n`
  cues.forEach((cue, n) => {
    const start = startOf(cue.pos)
    const next = cues[n + 1]
    const end = next === undefined ? start + pace : Math.max(startOf(next.pos), start + 1)
    out += `\nseq-${cue.seq}\n${timestamp(start)} --> ${timestamp(end)}\n${cue.text}\n`
  })
  return out
}

/**
 * Cue text as WebVTT allows it: `&`, `<` and `>` escaped, no blank line (it would end the cue), no `-->`.
 */
function cueText(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('\n')
}

/** `hh:mm:ss.ttt`. */
function timestamp(ms: number): string {
  const whole = Math.max(0, Math.round(ms))
  const pad = (n: number, width = 2) => String(n).padStart(width, '0')
  const hours = Math.floor(whole / 3_600_000)
  const minutes = Math.floor(whole / 60_000) % 60
  const seconds = Math.floor(whole / 1000) % 60
  return `${pad(hours)}:${pad(minutes)}:${pad(seconds)}.${pad(whole % 1000, 3)}`
}
