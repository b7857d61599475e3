/**
 * A long harness session log for benchmarks and load tests (docs/protocol.md §6, §7): turns of a user message and
 * steps, each step one attempt (a reasoning, a text and a tool-call block as packed rows, usage, finish), the
 * assistant/message citing its chunks, then a tool call and its result. Deterministic. Some attempts are made to
 * stand out, so the outline's filters have something to find:
 * - every `mismatchEvery`-th attempt's recorded message differs from its chunks (✗);
 * - every `stragglerEvery`-th attempt has a text-delta after its text block froze (a straggler finding);
 * - every `errorEvery`-th tool result is an error.
 */
export type GeneratedSession = {
  readonly text: string
  readonly turns: number
  readonly attempts: number
  readonly chunks: number
  /** Stream keys (`t1.s2.a1`) of the attempts whose recorded message differs. */
  readonly mismatched: readonly string[]
  readonly stragglers: readonly string[]
  /** Stream keys whose step's tool result is an error. */
  readonly toolErrors: readonly string[]
}

export type SessionShape = {
  /** Stop adding turns once the text is this long (characters). */
  readonly targetChars: number
  readonly stepsPerTurn?: number
  /** Deltas per block. */
  readonly deltas?: number
  readonly mismatchEvery?: number
  readonly stragglerEvery?: number
  readonly errorEvery?: number
}

const WORDS = ['zebra ', 'quartz ', 'lantern ', '思考 ', 'delta\n', 'tool ', 'ok. ', 'grep ', 'fixed ']
const TOOLS = ['bash', 'read_file', 'edit_file', 'grep', 'list_dir']

export function generateSessionLog(shape: SessionShape): GeneratedSession {
  const steps = shape.stepsPerTurn ?? 4
  const deltas = shape.deltas ?? 550
  const mismatchEvery = shape.mismatchEvery ?? 97
  const stragglerEvery = shape.stragglerEvery ?? 61
  const errorEvery = shape.errorEvery ?? 53
  const lines: string[] = []
  let size = 0
  const put = (record: unknown): void => {
    const line = JSON.stringify(record)
    lines.push(line)
    size += line.length + 1
  }
  let seq = 0
  let time = 1_780_000_000_000
  let seed = 7
  const random = (): number => {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff
    return seed / 0x7fffffff
  }
  const pieces = (): { texts: string[]; dt: number[] } => {
    const texts: string[] = []
    const dt: number[] = []
    for (let i = 0; i < deltas; i++) {
      texts.push(WORDS[Math.floor(random() * WORDS.length)]!)
      if (i > 0) dt.push(Math.floor(random() * 20))
    }
    return { texts, dt }
  }
  const event = (type: string, data: unknown, extra: Record<string, unknown> = {}): number => {
    time += 1 + Math.floor(random() * 5)
    put({ type, seq, time, data, ...extra })
    return seq++
  }
  const mismatched: string[] = []
  const stragglers: string[] = []
  const toolErrors: string[] = []
  let attempts = 0
  let chunks = 0
  put({ type: 'session', version: 0, id: 'bench-session', createdAt: time, cwd: '/work' })
  let turn = 0
  while (size < shape.targetChars) {
    turn += 1
    event('turn/start', { turn })
    event('user/message', { content: [{ type: 'text', text: `Round ${turn}: keep going` }] })
    for (let step = 1; step <= steps; step++) {
      attempts += 1
      const key = `t${turn}.s${step}.a1`
      const tool = TOOLS[attempts % TOOLS.length]!
      const callId = `call_${String(attempts).padStart(5, '0')}`
      event('step/start', { turn, step })
      const cited: number[] = []
      const chunk = (value: unknown): void => {
        cited.push(event('assistant/chunk', { turn, step, chunk: value }))
        chunks += 1
      }
      const packed = (type: string, data: Record<string, unknown>, count: number): void => {
        time += 1
        put({ type, seq0: seq, time0: time, data: { turn, step, ...data } })
        for (let i = 0; i < count; i++) cited.push(seq++)
        chunks += count
      }
      const reasoning = pieces()
      chunk({ type: 'block-start', index: 0, blockType: 'reasoning' })
      packed('reasoning-chunks', { index: 0, ...reasoning }, deltas)
      const reasoningText = reasoning.texts.join('')
      chunk({ type: 'block-end', index: 0, block: { type: 'reasoning', text: reasoningText } })
      const text = pieces()
      chunk({ type: 'block-start', index: 1, blockType: 'text' })
      packed('text-chunks', { index: 1, ...text }, deltas)
      const answer = text.texts.join('')
      chunk({ type: 'block-end', index: 1, block: { type: 'text', text: answer } })
      if (attempts % stragglerEvery === 0) {
        chunk({ type: 'text-delta', index: 1, text: ' late' })
        stragglers.push(key)
      }
      // Valid JSON arguments (a string value), so only the planted findings show.
      const args = pieces()
      args.texts = args.texts.map((word) => word.replace(/[\n\t]/g, ' '))
      args.texts[0] = '{"command": "'
      args.texts[args.texts.length - 1] = '"}'
      chunk({ type: 'block-start', index: 2, blockType: 'tool-call' })
      packed('tool-call-chunks', { index: 2, id: callId, name: tool, dt: args.dt, args: args.texts }, deltas)
      const argumentsText = args.texts.join('')
      const toolBlock = { type: 'tool-call', id: callId, name: tool, arguments: argumentsText }
      chunk({ type: 'block-end', index: 2, block: toolBlock })
      chunk({ type: 'usage', usage: { inputTokens: 1000, outputTokens: 3 * deltas } })
      chunk({ type: 'finish', reason: { kind: 'tool-calls' } })
      const differs = attempts % mismatchEvery === 0
      if (differs) mismatched.push(key)
      const content = [
        { type: 'reasoning', text: reasoningText },
        { type: 'text', text: differs ? `${answer} (edited)` : answer },
        toolBlock,
      ]
      event(
        'assistant/message',
        {
          turn,
          step,
          message: { role: 'assistant', content, source: { kind: 'model', provider: 'p', model: 'm' } },
        },
        { sourceEventSeqs: cited },
      )
      event('tool/call', { turn, step, callId, name: tool, arguments: argumentsText })
      const isError = attempts % errorEvery === 0
      if (isError) toolErrors.push(key)
      event('tool/result', {
        turn,
        step,
        message: {
          role: 'user',
          content: [
            { type: 'tool-result', toolCallId: callId, content: [{ type: 'text', text: 'done' }], isError },
          ],
        },
      })
      event('step/end', { turn, step })
    }
    event('turn/end', { turn, reason: { kind: 'completed' } })
  }
  return {
    text: lines.join('\n') + '\n',
    turns: turn,
    attempts,
    chunks,
    mismatched,
    stragglers,
    toolErrors,
  }
}
