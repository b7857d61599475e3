// Gives the emitted .d.ts files' relative imports explicit `.js` extensions: TypeScript's Node16/NodeNext
// resolution (what a package consumer uses) does not guess extensions in an ES module package.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

const root = process.argv[2] ?? 'dist-lib/types'

function* declarationFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* declarationFiles(path)
    else if (entry.name.endsWith('.d.ts')) yield path
  }
}

let rewritten = 0
for (const file of declarationFiles(root)) {
  const text = readFileSync(file, 'utf8')
  const fixed = text.replace(
    /((?:from|import)\s*\(?\s*)(['"])(\.\.?\/[^'"]*)\2/g,
    (whole, lead, quote, spec) => {
      if (/\.(js|mjs|cjs|json)$/.test(spec)) return whole
      const base = join(dirname(file), spec)
      const target = existsSync(`${base}.d.ts`)
        ? `${spec}.js`
        : existsSync(join(base, 'index.d.ts'))
          ? `${spec}/index.js`
          : null
      if (target === null) throw new Error(`${file}: cannot resolve ${spec}`)
      return `${lead}${quote}${target}${quote}`
    },
  )
  if (fixed !== text) {
    writeFileSync(file, fixed)
    rewritten += 1
  }
}
console.log(`fixDtsImports: ${rewritten} declaration files in ${root}`)
