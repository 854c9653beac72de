/**
 * Output quoted in the docs, kept true by tests: a fenced ```text block right after a `<!-- <kind>: <id> -->` marker
 * (kind `output`, `refusal` or `warning`) must be, line for line, what the test's case of that id produces today.
 * `UPDATE_README=1 npx jest test/docs` rewrites every marked block from its case instead of comparing.
 */
import { readFileSync, writeFileSync } from 'node:fs';

/** Set to rewrite the quoted blocks from the real output instead of failing on a difference. */
export const UPDATE = process.env.UPDATE_README === '1';

const MARKED = /<!-- ((?:output|refusal|warning): [a-z0-9-]+) -->\n```text\n([\s\S]*?)\n```/g;

/** Each marker's id (`output: synth-summary`) and the text of the block right after it. */
export function quotedBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const m of markdown.matchAll(MARKED)) {
    if (blocks.has(m[1])) throw new Error(`${m[1]} is quoted twice`);
    blocks.set(m[1], m[2]);
  }
  return blocks;
}

/** How many ```text blocks have no marker right before them: quoted output that no test would regenerate. */
export function unmarkedTextBlocks(markdown: string): number {
  return (markdown.match(/^```text$/gm) ?? []).length - quotedBlocks(markdown).size;
}

/**
 * Compares each marked block of `file` with its case's text (`cases` by marker id), or with UPDATE rewrites the blocks
 * that differ. Returns the ids whose block differs (none after an update), and throws for a marker without a case or a
 * case without its marker.
 */
export function staleQuotes(file: string, cases: Readonly<Record<string, string>>): string[] {
  const markdown = readFileSync(file, 'utf8');
  const blocks = quotedBlocks(markdown);
  const unknown = [...blocks.keys()].filter((id) => !(id in cases));
  const unquoted = Object.keys(cases).filter((id) => !blocks.has(id));
  if (unknown.length + unquoted.length > 0) {
    throw new Error(`${file}: markers without a case: [${unknown.join(', ')}]; cases without a marker: [${unquoted.join(', ')}]`);
  }
  const stale = Object.keys(cases).filter((id) => blocks.get(id) !== cases[id]);
  if (UPDATE && stale.length > 0) {
    writeFileSync(file, markdown.replace(MARKED, (_whole, id: string) => `<!-- ${id} -->\n\`\`\`text\n${cases[id]}\n\`\`\``));
    return [];
  }
  return stale.map((id) => firstDifference(id, blocks.get(id)!, cases[id]));
}

/** `<id>, line N: quoted <line> / now <line>`: where a quoted block first departs from the output. */
function firstDifference(id: string, quoted: string, now: string): string {
  const [a, b] = [quoted.split('\n'), now.split('\n')];
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `${id}, line ${at + 1}:\n  quoted: ${a[at] ?? '(end)'}\n  now:    ${b[at] ?? '(end)'}`;
}

/** The failure message for stale quotes: where each differs, and the command that rewrites them. */
export const howToUpdate = (file: string, stale: readonly string[]) =>
  `${file}: quoted output differs from what the code prints today:\n${stale.join('\n')}\n`
  + 'If the change is intended, rewrite the quoted blocks with: UPDATE_README=1 npx jest test/docs';
