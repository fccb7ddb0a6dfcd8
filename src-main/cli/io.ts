// The command's streams, as a dependency so that tests can run commands in-process.
export interface CliIo {
  stdout: (line: string) => void;
  stderr: (line: string) => void;
  /** All of stdin; with maxBytes, stops reading past it (the caller sees it is too long). */
  readStdin: (maxBytes?: number) => Promise<string>;
  env: NodeJS.ProcessEnv;
}

export const processIo: CliIo = {
  stdout: (line) => process.stdout.write(`${line}\n`),
  stderr: (line) => process.stderr.write(`${line}\n`),
  readStdin: async (maxBytes = Infinity) => {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of process.stdin) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
      if (size > maxBytes) break;
    }
    return Buffer.concat(chunks).toString('utf8');
  },
  env: process.env,
};
