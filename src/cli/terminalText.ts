// Text from a peer (a harness host's close reason or error message, a session id) printed on the terminal.

/**
 * The text with every C0/C1 control character, DEL and bidi/zero-width format character shown as a `\u{…}` escape,
 * so a hostile peer cannot move the cursor, retitle the terminal or reorder what the line says. Tabs stay.
 *
 * @example
 * terminalText('bye\u001b]0;PWNED\u0007') // 'bye\\u{1b}]0;PWNED\\u{7}'
 */
export function terminalText(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex -- the control characters are what this escapes
    /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g,
    (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`,
  )
}
