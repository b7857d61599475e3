import { describe, expect, it } from 'vitest'
import { terminalText } from './terminalText'

describe('terminalText', () => {
  it('shows control, bidi and zero-width characters as escapes and keeps the rest', () => {
    expect(terminalText('\u001b]0;PWNED\u0007\u001b[2J')).toBe('\\u{1b}]0;PWNED\\u{7}\\u{1b}[2J')
    expect(terminalText('if (isAdmin) {\u202e } \u2066// check\u2069 {\u200b')).toBe(
      'if (isAdmin) {\\u{202e} } \\u{2066}// check\\u{2069} {\\u{200b}',
    )
    expect(terminalText('a\nb\rc\u0085d\u007f')).toBe('a\\u{a}b\\u{d}c\\u{85}d\\u{7f}')
    expect(terminalText('tab\tstays, ünïcödé and 漢字 too')).toBe('tab\tstays, ünïcödé and 漢字 too')
  })
})
