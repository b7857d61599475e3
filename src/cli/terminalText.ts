/**
 * Text from a file or a peer printed on the terminal: tool-call names, finish kinds, block types, zip entry and file
 * names, a harness host's close reason. Printed raw, `"\u001b]0;PWNED\u0007"` retitles the terminal and a U+202E
 * reorders what the line says. Every C0/C1 control character, DEL, and bidi/zero-width format character is shown
 * as an escape instead.
 */

// oxlint-disable-next-line no-control-regex -- the control characters are what this escapes
const FIELD = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g
// oxlint-disable-next-line no-control-regex -- the same, less the newlines that end a command's own lines
const OUTPUT = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g

/**
 * One field's text with every such character (newlines too) shown as a `\u{…}` escape. Tabs stay.
 *
 * @example
 * terminalText('bye\u001b]0;PWNED\u0007') // 'bye\\u{1b}]0;PWNED\\u{7}'
 */
export function terminalText(text: string): string {
  return text.replace(FIELD, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`)
}

/**
 * A whole write of a command (many lines): the same characters but newlines, escaped as `\uXXXX`. That is JSON's
 * and JavaScript's own spelling, and JSON.stringify leaves such characters only inside strings, so `inspect --json`
 * and the exports printed to stdout still parse to exactly the same values.
 *
 * @example
 * terminalOutput('tool \u001b[2J done\n') // 'tool \\u001b[2J done\n'
 */
export function terminalOutput(text: string): string {
  return text.replace(OUTPUT, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

export type Io = { readonly out: (text: string) => void; readonly err: (text: string) => void }

/** The same sinks, with every write made {@link terminalOutput}-safe: what the commands print goes through here. */
export function terminalIo(io: Io): Io {
  return { out: (text) => io.out(terminalOutput(text)), err: (text) => io.err(terminalOutput(text)) }
}
