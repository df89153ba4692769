import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A shell block a document marks ```sh runnable: its file, its line, its text. */
export type RunnableBlock = { file: string; line: number; text: string };

/**
 * The blocks of `files` (paths from the repository root) fenced as ```sh runnable: the commands
 * a reader is told to type, which a test runs as printed.
 */
export async function runnableBlocks(root: string, files: string[]): Promise<RunnableBlock[]> {
  const blocks: RunnableBlock[] = [];
  for (const file of files) {
    const lines = (await readFile(join(root, file), 'utf8')).split('\n');
    let open: { line: number; text: string[] } | undefined;
    lines.forEach((text, i) => {
      if (open === undefined && /^```sh runnable\s*$/.test(text)) open = { line: i + 1, text: [] };
      else if (open !== undefined && /^```\s*$/.test(text)) {
        blocks.push({ file, line: open.line, text: open.text.join('\n') });
        open = undefined;
      } else open?.text.push(text);
    });
  }
  return blocks;
}
