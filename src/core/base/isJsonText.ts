/**
 * V8's stack depth for new errors, when it may be set here (not in other engines, nor where Error is frozen). A
 * SyntaxError that nobody reads still captures a stack: deep in a command that read a 100 MB log, that cost ~50 µs
 * a throw, and a log holds thousands of tool calls whose arguments are not JSON.
 */
const STACK_LIMIT_WRITABLE = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')?.writable === true

/** What a JSON value starts with (ECMA-404): an object, array, string, number, true, false or null. */
const VALUE_FIRST = '{["-0123456789tfn'
/** …and ends with: `}`, `]`, `"`, a number's last digit, true's and false's `e`, null's `l`. */
const VALUE_LAST = '}]"0123456789el'

/**
 * Whether `text` is a JSON text: what `JSON.parse(text)` not throwing says. Text whose ends rule it out (past JSON's
 * whitespace, no value starts or ends with that character) is answered without parsing: a throw builds a
 * SyntaxError whose message quotes the text, ~5 µs each for the thousands of tool calls in a 100 MB log whose
 * arguments are prose.
 *
 * @example
 * isJsonText('{"k": 1}') // true
 * isJsonText('ok. {"k": 1}') // false
 */
export function isJsonText(text: unknown): boolean {
  if (typeof text !== 'string') return false
  let first = 0
  while (first < text.length && isJsonSpace(text.charCodeAt(first))) first++
  if (first === text.length) return false
  let last = text.length - 1
  while (isJsonSpace(text.charCodeAt(last))) last--
  if (!VALUE_FIRST.includes(text[first]!) || !VALUE_LAST.includes(text[last]!)) return false
  const limit = Error.stackTraceLimit
  if (STACK_LIMIT_WRITABLE) Error.stackTraceLimit = 0
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  } finally {
    if (STACK_LIMIT_WRITABLE) Error.stackTraceLimit = limit
  }
}

/** JSON's whitespace: space, tab, line feed, carriage return (not U+00A0, U+FEFF nor the other Unicode spaces). */
function isJsonSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d
}
