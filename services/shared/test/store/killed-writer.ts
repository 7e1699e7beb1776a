import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Runs a writer fixture (`fixtures/<script>`, which prints each id once its insert is acknowledged), SIGKILLs it
 * after `acknowledgedBefore` acknowledged writes, and answers the ids it had printed in full: what a store must
 * still hold when it is opened again. `built` is the compiled adapter the fixture loads.
 */
export async function killWriterMidway(
  script: string,
  args: string[],
  built: string,
  acknowledgedBefore = 300,
): Promise<string[]> {
  if (!existsSync(built)) throw new Error(`${built} is missing: run \`npx tsc -b services/shared\` before the tests`);
  const child = spawn(process.execPath, [join(__dirname, 'fixtures', script), ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.split('\n').length > acknowledgedBefore) {
        child.kill('SIGKILL');
        resolve();
      }
    });
    child.on('exit', () => reject(new Error(`writer exited before it was killed: ${stderr}`)));
  });
  if ((await exited) !== 'SIGKILL') throw new Error(`the writer was not killed: ${stderr}`);
  // Only complete lines: each was printed after its insert resolved.
  return stdout.split('\n').slice(0, -1);
}
