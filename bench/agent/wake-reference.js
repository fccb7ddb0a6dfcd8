// A bare Node process that wakes on a timer and does nothing else: what a wake-up alone costs on
// this machine (the scheduler, cold caches, a virtual machine's exits to its host), so the resting
// row can be read against it as the probe rows are read against the floor (docs/performance.md:
// on one virtual machine a wake-up of this process cost 0.2-0.7 ms of CPU).
// argv: the period in ms. Started with the command's own V8 flags and environment (resting.ts);
// plain JavaScript for the reason stack-process.js gives. The parent reads /proc and stops it.
const periodMs = Number(process.argv[2]);
if (!(periodMs > 0)) throw new Error('usage: wake-reference.js <period in ms>');
setInterval(() => {}, periodMs);
