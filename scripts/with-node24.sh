# Runs a command under Node.js >= 24: `sh scripts/with-node24.sh node scripts/demo.ts`.
# Every npm script goes through it, so `npm ci && npm run demo` works whatever Node the machine
# has. When the machine's Node is older it bootstraps Node 24 (scripts/node24.sh) and says so in
# one line; otherwise it just runs the command. Children inherit the PATH, so nested `npm run`,
# vitest, tsc and vite resolve the same Node.
. "$(dirname "$0")/node24.sh" || exit 1
exec "$@"
