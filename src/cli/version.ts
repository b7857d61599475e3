// The package's version, from package.json at build time (the CLI bundle inlines just this field).
import { version } from '../../package.json'

export const VERSION: string = version
