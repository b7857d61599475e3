import { chunksOf, eventsBesideChunks } from '../../core/chunkList'
import type { Attempt, Session, SessionEvent, Turn } from '../../core/session'
import type { LoadedSource } from '../../formats/types'
import { streamKey } from '../../formats/streamRefs'
import { describeEvent, type Tone } from './describeEvent'
import { isRecord } from '../../core/base/isRecord'
import { partitionPoint } from '../../core/base/partitionPoint'
import { english, type T } from '../i18n/translate'

/**
 * The outline of a loaded source: sessions → turns → steps → attempts, with the step's other events (user
 * messages, tool calls and results, retries, compaction, …) placed between the attempts by seq (docs/protocol.md §6).
 * Built once per source; the tree component only flattens what is expanded.
 */

export type OutlineEvent = {
  readonly kind: 'event'
  readonly id: string
  readonly seq: number
  readonly type: string
  readonly text: string
  readonly tone: Tone
}

export type OutlineAttempt = {
  readonly kind: 'attempt'
  /** The stream key (`t1.s1.a2`, `1/t1.s1.a1`): what `selectStream` takes. */
  readonly id: string
  /** `a1`; the attempt id when it has no (turn, step); `stream` for a bare chunk file. */
  readonly label: string
  readonly attempt: Attempt
  /** For a stream from a capture that records its request (HAR): method, short URL and time, as the row shows it. */
  readonly request?: string
  /** The full request line, for a tooltip. */
  readonly requestDetail?: string
}

export type OutlineStep = {
  readonly kind: 'step'
  readonly id: string
  readonly label: string
  readonly children: readonly (OutlineAttempt | OutlineEvent)[]
}

export type OutlineTurn = {
  readonly kind: 'turn'
  readonly id: string
  readonly label: string
  /** How the turn ended (`turn/end` reason, §6). */
  readonly end: { readonly text: string; readonly tone: Tone }
  readonly children: readonly (OutlineStep | OutlineEvent)[]
}

export type OutlineSession = {
  readonly kind: 'session'
  readonly id: string
  readonly label: string
  /** Full header id and origin, for a tooltip. */
  readonly detail: string
  /** Subagent sessions (header.parentSession = this id) come last, as children. */
  readonly children: readonly (OutlineTurn | OutlineAttempt | OutlineEvent | OutlineSession)[]
}

export type OutlineNode = OutlineSession | OutlineTurn | OutlineStep | OutlineAttempt | OutlineEvent

export type Outline = {
  /** The sessions, or for a single session its children directly (one level less to indent in a narrow sidebar). */
  readonly roots: readonly OutlineNode[]
  readonly attempts: readonly OutlineAttempt[]
  /** Every node, groups included: decides whether everything can start expanded. */
  readonly size: number
}

/** Events the tree itself stands for: chunks are attempts, the rest is turn/step structure. */
const STRUCTURAL = new Set(['assistant/chunk', 'turn/start', 'turn/end', 'step/start', 'step/end'])

/**
 * @example
 * const outline = buildOutline(loadSource(text))
 * outline.roots[0] // { kind: 'turn', label: 'Turn 1', end: { text: 'completed', … }, children: [step 1, …] }
 */
export function buildOutline(source: LoadedSource | null, t: T = english): Outline {
  const attempts: OutlineAttempt[] = []
  const all = source?.sessions ?? []
  const sessions = all.map((session, sessionIndex) => buildSessionNode(session, sessionIndex, attempts, t))
  const single = sessions.length === 1 ? sessions[0] : undefined
  const roots = single ? single.children : nestSubagents(all, sessions)
  return { roots, attempts, size: countNodes(roots) }
}

/**
 * Puts each session whose header names a parent (`parentSession`, a subagent) under that parent when the source
 * holds it (a zip's subagents, a SQLite store's sessions); orphans stay at the top. Cycles are not followed.
 */
function nestSubagents(sessions: readonly Session[], nodes: OutlineSession[]): OutlineSession[] {
  const byId = new Map<string, number>()
  sessions.forEach((session, i) => {
    const id = session.header?.id
    if (id !== undefined && id !== null && !byId.has(id)) byId.set(id, i)
  })
  const parentOf = sessions.map((session, i) => {
    const parent = session.header?.parentSession
    const at = parent === undefined ? undefined : byId.get(parent)
    return at === undefined || at === i ? -1 : at
  })
  // A parent chain that loops back leaves the session at the top.
  const reachesTop = (i: number): boolean => {
    const seen = new Set<number>()
    for (let at = i; at !== -1; at = parentOf[at]!) {
      if (seen.has(at)) return false
      seen.add(at)
    }
    return true
  }
  const childrenOf = new Map<number, number[]>()
  const top: number[] = []
  parentOf.forEach((parent, i) => {
    if (parent === -1 || !reachesTop(i)) top.push(i)
    else childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), i])
  })
  const build = (i: number): OutlineSession => {
    const node = nodes[i]!
    const kids = childrenOf.get(i)
    return kids === undefined ? node : { ...node, children: [...node.children, ...kids.map(build)] }
  }
  return top.map(build)
}

function countNodes(nodes: readonly OutlineNode[]): number {
  let count = nodes.length
  for (const node of nodes) if ('children' in node) count += countNodes(node.children)
  return count
}

type Range = { lo: number; hi: number }
type Placed<T> = { readonly at: number; readonly node: T }

function buildSessionNode(
  session: Session,
  sessionIndex: number,
  allAttempts: OutlineAttempt[],
  t: T,
): OutlineSession {
  const prefix = `${sessionIndex}:`
  const stepSlots = new Map<string, { range: Range; items: Placed<OutlineAttempt | OutlineEvent>[] }>()
  const turnSlots = new Map<number, { range: Range; items: Placed<OutlineEvent>[] }>()
  const top: Placed<OutlineTurn | OutlineAttempt | OutlineEvent>[] = []

  const attemptNode = (attempt: Attempt, label: string): OutlineAttempt => {
    const request = attempt.wire?.request
    const node: OutlineAttempt = {
      kind: 'attempt',
      id: streamKey(sessionIndex, attempt),
      label,
      attempt,
      ...(request === undefined ? {} : describeRequest(request)),
    }
    allAttempts.push(node)
    return node
  }

  for (const turn of session.turns) {
    const turnRange = emptyRange()
    if (turn.start) extend(turnRange, turn.start.seq)
    if (turn.end) extend(turnRange, turn.end.seq)
    turnSlots.set(turn.turn, { range: turnRange, items: [] })
    for (const step of turn.steps) {
      const slot = { range: emptyRange(), items: [] as Placed<OutlineAttempt | OutlineEvent>[] }
      for (const attempt of step.attempts) {
        const chunks = chunksOf(attempt)
        if (chunks.length === 0) continue
        const first = chunks.seqAt(0)
        const last = chunks.seqAt(chunks.length - 1)
        extend(slot.range, first)
        extend(slot.range, last)
        slot.items.push({ at: first, node: attemptNode(attempt, `a${attempt.attempt ?? '?'}`) })
      }
      stepSlots.set(stepId(step.turn, step.step), slot)
    }
  }
  for (const attempt of session.streams) {
    if (attempt.turn !== null && attempt.step !== null) continue
    // `stream` for a bare chunk file; a capture with several streams names each.
    top.push({ at: chunksOf(attempt).at(0)?.seq ?? -1, node: attemptNode(attempt, attempt.id) })
  }

  // Ranges from every event that names its turn (and step); chunks are covered by their attempts above.
  for (const event of eventsBesideChunks(session)) {
    if (event.type === 'assistant/chunk') continue
    const { turn, step } = turnAndStep(event)
    if (turn === null) continue
    const turnSlot = turnSlots.get(turn)
    if (turnSlot) extend(turnSlot.range, event.seq)
    if (step !== null) {
      const stepSlot = stepSlots.get(stepId(turn, step))
      if (stepSlot) extend(stepSlot.range, event.seq)
    }
  }
  for (const turn of session.turns) {
    const turnRange = turnSlots.get(turn.turn)!.range
    for (const step of turn.steps) {
      const range = stepSlots.get(stepId(step.turn, step.step))!.range
      if (range.lo <= range.hi) {
        extend(turnRange, range.lo)
        extend(turnRange, range.hi)
      }
    }
  }

  const orderedSteps = [...stepSlots.values()].filter((s) => s.range.lo <= s.range.hi)
  orderedSteps.sort((a, b) => a.range.lo - b.range.lo)
  const orderedTurns = [...turnSlots.values()].filter((t) => t.range.lo <= t.range.hi)
  orderedTurns.sort((a, b) => a.range.lo - b.range.lo)

  const linked = new Set<number>()
  for (const message of session.messages) if (message.attemptId !== null) linked.add(message.seq)
  const toolNames = new Map<string, string>()

  for (const event of eventsBesideChunks(session)) {
    if (STRUCTURAL.has(event.type) || (event.type === 'assistant/message' && linked.has(event.seq))) continue
    const described = describeEvent(event, toolNames, t)
    const node: OutlineEvent = { kind: 'event', id: `${prefix}e${event.seq}`, seq: event.seq, ...described }
    const placed = { at: event.seq, node }
    const { turn, step } = turnAndStep(event)
    const stepSlot =
      (turn !== null && step !== null ? stepSlots.get(stepId(turn, step)) : undefined) ??
      containing(orderedSteps, event.seq)
    if (stepSlot) {
      stepSlot.items.push(placed)
      continue
    }
    const turnSlot = (turn !== null ? turnSlots.get(turn) : undefined) ?? containing(orderedTurns, event.seq)
    if (turnSlot) turnSlot.items.push(placed)
    else top.push(placed)
  }

  for (const turn of session.turns) {
    const turnSlot = turnSlots.get(turn.turn)!
    const children: Placed<OutlineStep | OutlineEvent>[] = [...turnSlot.items]
    for (const step of turn.steps) {
      const slot = stepSlots.get(stepId(step.turn, step.step))!
      const items = inOrder(slot.items)
      const node: OutlineStep = {
        kind: 'step',
        id: `${prefix}t${step.turn}.s${step.step}`,
        label: t('outline.step', { step: step.step }),
        children: items,
      }
      children.push({ at: slot.range.lo <= slot.range.hi ? slot.range.lo : Infinity, node })
    }
    const at = turnSlot.range.lo <= turnSlot.range.hi ? turnSlot.range.lo : Infinity
    top.push({ at, node: turnNode(turn, `${prefix}t${turn.turn}`, inOrder(children), t) })
  }
  const header = session.header
  const id = header?.id ?? null
  const subagent = header?.origin === 'subagent'
  const label =
    capturedLabel(header?.raw, sessionTitle(session)) ??
    t(subagent ? 'outline.subagent' : 'outline.session', {
      id: id === null ? `#${sessionIndex + 1}` : id.slice(0, 8),
    })
  const detail = [
    id === null ? `session #${sessionIndex + 1} (no header id)` : `session ${id}`,
    header?.origin !== undefined ? `origin ${header.origin}` : '',
    header?.parentSession !== undefined ? `parent ${header.parentSession}` : '',
    header?.delegationDepth !== undefined ? `depth ${header.delegationDepth}` : '',
  ]
    .filter(Boolean)
    .join(' · ')
  return { kind: 'session', id: `${prefix}session`, label, detail, children: inOrder(top) }
}

/**
 * A live capture's session reads better by what was asked than by its id: `deepseek-chat · api.deepseek.com` for the
 * page's own request, `mock-text · proxy` through `chunkscope proxy`, the session id for `chunkscope attach`.
 */
function capturedLabel(
  raw: Readonly<Record<string, unknown>> | undefined,
  title: string | null,
): string | null {
  const field = (value: unknown, key: string): string | null => {
    if (typeof value !== 'object' || value === null) return null
    const inner = (value as Record<string, unknown>)[key]
    return typeof inner === 'string' ? inner : null
  }
  const browser = raw?.['chunkscopeBrowser']
  const model = field(browser, 'model')
  if (model !== null) {
    const url = field(browser, 'url') ?? ''
    return `${model} · ${/^https?:\/\/([^/]+)/.exec(url)?.[1] ?? 'this page'}`
  }
  const proxy = raw?.['chunkscopeProxy']
  if (typeof proxy === 'object' && proxy !== null) return `${field(proxy, 'model') ?? 'request'} · proxy`
  const attach = raw?.['chunkscopeAttach']
  if (typeof attach === 'object' && attach !== null)
    return `harness ${title ?? String(raw?.['id'] ?? '')}`.trim()
  return null
}

/** The session's last `session/title` (the harness names a session after its first prompt). */
function sessionTitle(session: Session): string | null {
  const events = eventsBesideChunks(session)
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!
    if (event.type !== 'session/title') continue
    const data = event.data
    const title =
      typeof data === 'object' && data !== null ? (data as Record<string, unknown>)['title'] : null
    if (typeof title === 'string' && title.trim() !== '') return title
  }
  return null
}

/** `POST api.deepseek.com/chat/completions 10:00:03` for the row; the full line for its tooltip. */
export function describeRequest(request: NonNullable<Attempt['wire']>['request'] & object): {
  request: string
  requestDetail: string
} {
  let short = request.url
  try {
    const url = new URL(request.url)
    short = `${url.host}${url.pathname}`
  } catch {
    // Not a URL: shown as written.
  }
  const time = request.startedAt?.match(/T(\d\d:\d\d:\d\d)/)?.[1]
  const method = request.method ?? ''
  const status = request.status === undefined ? '' : ` → ${request.status}`
  return {
    request: [method, short, time].filter(Boolean).join(' '),
    requestDetail:
      `${method} ${request.url}${status}${request.startedAt ? ` at ${request.startedAt}` : ''}`.trim(),
  }
}

function turnNode(turn: Turn, id: string, children: (OutlineStep | OutlineEvent)[], t: T): OutlineTurn {
  return {
    kind: 'turn',
    id,
    label: t('outline.turn', { turn: turn.turn }),
    end: describeTurnEnd(turn, t),
    children,
  }
}

/** The turn's end reason as the row shows it (§6 `turn/end` reason kinds). */
export function describeTurnEnd(turn: Turn, t: T = english): { text: string; tone: Tone } {
  if (!turn.end) return { text: 'no turn/end', tone: 'warning' }
  const reason = asRecord(turn.end.reason)
  const kind = typeof reason['kind'] === 'string' ? reason['kind'] : null
  switch (kind) {
    case 'completed':
      return { text: t('outline.end.completed'), tone: 'muted' }
    case 'aborted': {
      const by = asRecord(reason['reason'])['kind']
      return {
        text: typeof by === 'string' ? t('outline.end.abortedBy', { by }) : t('outline.end.aborted'),
        tone: 'warning',
      }
    }
    case 'error': {
      const code = asRecord(reason['error'])['code']
      return {
        text: typeof code === 'string' ? t('outline.end.errorCode', { code }) : t('outline.end.error'),
        tone: 'error',
      }
    }
    case null:
      return { text: `end ${JSON.stringify(turn.end.reason) ?? '(none)'}`, tone: 'warning' }
    default:
      // max-tokens, interrupted (crash repair), blocked, and kinds this page does not know yet.
      return { text: kind, tone: 'warning' }
  }
}

function turnAndStep(event: SessionEvent): { turn: number | null; step: number | null } {
  const data = asRecord(event.data)
  return { turn: asInt(data['turn']), step: asInt(data['step']) }
}

function stepId(turn: number, step: number): string {
  return `${turn}|${step}`
}

function emptyRange(): Range {
  return { lo: Infinity, hi: -Infinity }
}

function extend(range: Range, seq: number): void {
  if (seq < range.lo) range.lo = seq
  if (seq > range.hi) range.hi = seq
}

/** The slot whose seq range holds `seq` (slots sorted by `lo`, ranges assumed not to overlap). */
function containing<T extends { range: Range }>(slots: readonly T[], seq: number): T | undefined {
  const slot = slots[partitionPoint(slots.length, (i) => slots[i]!.range.lo <= seq) - 1]
  return slot !== undefined && seq <= slot.range.hi ? slot : undefined
}

function inOrder<T>(items: Placed<T>[]): T[] {
  return items.sort((a, b) => a.at - b.at).map((item) => item.node)
}

function asInt(value: unknown): number | null {
  return Number.isSafeInteger(value) ? (value as number) : null
}

function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {}
}
