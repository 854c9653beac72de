/**
 * docs/app.md, "A 15-line app of your own", and README.md's "An app of your own": the package.json, tsconfig.json and
 * app.ts they quote are the files of test/docs/app/ (type-checked with the project, `npm run typecheck`), and running
 * that app prints the output docs/app.md quotes (a marked block, test/docs/quotes.ts).
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { installCommand } from '../../lib/private/optional-peers';
import { howToUpdate, staleQuotes } from './quotes';

const ROOT = join(__dirname, '..', '..');
const PAGE_FILE = join(ROOT, 'docs', 'app.md');
const PAGE = readFileSync(PAGE_FILE, 'utf8');
const APP = join(__dirname, 'app');

/** The code block after each "`<file>`:" line of `markdown`, by file name. */
function quotedFiles(markdown: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [, name, body] of markdown.matchAll(/^`([\w.]+)`[^\n]*:\n\n```\w*\n([\s\S]*?)```/gm)) files[name] = body;
  return files;
}

test.each(['docs/app.md', 'README.md'])("%s quotes the app's three files as they are", (page) => {
  const quoted = quotedFiles(readFileSync(join(ROOT, page), 'utf8'));
  expect(Object.keys(quoted)).toEqual(['package.json', 'tsconfig.json', 'app.ts']);
  for (const [name, body] of Object.entries(quoted)) expect(body).toBe(readFileSync(join(APP, name), 'utf8'));
});

test('the page gives the command that installs the Terraform side, with the peer ranges of package.json', () => {
  expect(PAGE).toContain(`\`${installCommand(['cdktf', '@cdktf/provider-aws', '@cdktf/provider-kubernetes', '@cdktf/provider-helm'])}\``);
});

// The day the page's output was quoted: the synth warns by the pins' end-of-life calendar, so the clock is fixed.
const QUOTED_ON = new Date('2026-12-05T12:00:00Z');

test('the app synthesizes its fleet and prints the summary the page quotes', () => {
  const [cwd, exitCode] = [process.cwd(), process.exitCode];
  jest.useFakeTimers({ now: QUOTED_ON });
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-app-'));
  let printed = '';
  const write = jest.spyOn(process.stderr, 'write').mockImplementation((text) => { printed += String(text); return true; });
  try {
    process.chdir(dir);
    jest.isolateModules(() => require('./app/app'));
    const stale = staleQuotes(PAGE_FILE, { 'output: app-summary': printed.trimEnd() });
    if (stale.length > 0) throw new Error(howToUpdate('docs/app.md', stale));
    expect(readdirSync(dir).sort()).toEqual(['artifacts', 'dist']);
    expect(readdirSync(join(dir, 'dist', 'ml-serving')).sort()).toEqual(['cluster.yaml', 'search.yaml']);
  } finally {
    jest.useRealTimers();
    write.mockRestore();
    process.chdir(cwd);
    process.exitCode = exitCode;
    rmSync(dir, { recursive: true, force: true });
  }
});
