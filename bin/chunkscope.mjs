#!/usr/bin/env node
// Thin launcher: the CLI itself is bundled into dist-cli/ by the `prepare` script, which npm install / npm ci run.
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const bundle = new URL('../dist-cli/chunkscope.mjs', import.meta.url)

if (!existsSync(bundle)) {
  process.stderr.write(
    `chunkscope: ${fileURLToPath(bundle)} is missing: run npm install (prepare builds the CLI)\n`,
  )
  process.exit(2)
}

await import(bundle.href)
