/**
 * docs/app.md, "A 15-line app of your own": its package.json, tsconfig.json and app.ts are the files of test/docs/app/
 * (type-checked with the project, `npm run typecheck`), and running that app prints the output the page quotes.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { installCommand } from '../../lib/private/optional-peers';

const ROOT = join(__dirname, '..', '..');
const PAGE = readFileSync(join(ROOT, 'docs', 'app.md'), 'utf8');
const APP = join(__dirname, 'app');

/** The code block after each "`<file>`:" line of the page, by file name. */
function quotedFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [, name, body] of PAGE.matchAll(/^`([\w.]+)`[^\n]*:\n\n```\w*\n([\s\S]*?)```/gm)) files[name] = body;
  return files;
}

test('the page quotes the app\'s three files as they are', () => {
  const quoted = quotedFiles();
  expect(Object.keys(quoted)).toEqual(['package.json', 'tsconfig.json', 'app.ts']);
  for (const [name, body] of Object.entries(quoted)) expect(body).toBe(readFileSync(join(APP, name), 'utf8'));
});

test('the page gives the command that installs the Terraform side, with the peer ranges of package.json', () => {
  expect(PAGE).toContain(`\`${installCommand(['cdktf', '@cdktf/provider-aws', '@cdktf/provider-kubernetes', '@cdktf/provider-helm'])}\``);
});

test('the app synthesizes its fleet and prints the summary the page quotes', () => {
  const quoted = /prints on stderr:\n\n```\n([\s\S]*?)```/.exec(PAGE)![1];
  const [cwd, exitCode] = [process.cwd(), process.exitCode];
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-app-'));
  let printed = '';
  const write = jest.spyOn(process.stderr, 'write').mockImplementation((text) => { printed += String(text); return true; });
  try {
    process.chdir(dir);
    jest.isolateModules(() => require('./app/app'));
    expect(printed).toBe(quoted);
    expect(readdirSync(dir).sort()).toEqual(['artifacts', 'dist']);
    expect(readdirSync(join(dir, 'dist', 'ml-serving')).sort()).toEqual(['cluster.yaml', 'search.yaml']);
  } finally {
    write.mockRestore();
    process.chdir(cwd);
    process.exitCode = exitCode;
    rmSync(dir, { recursive: true, force: true });
  }
});
