// Runs a TypeScript module of this repository in a plain Node process (not jest's module system), so that
// `import()` of the ESM-only schema packages works as in the built package: `node test/cli/run-ts.js <module.ts> <export> [args...]`
// calls `<export>(args)` and exits with the number it resolves to. swc compiles to CommonJS keeping `import()`.
const { readFileSync } = require('fs');
const { resolve } = require('path');
const swc = require('@swc/core');

require.extensions['.ts'] = (module, filename) => {
  const { code } = swc.transformSync(readFileSync(filename, 'utf8'), {
    filename, jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: true },
  });
  module._compile(code, filename);
};

const [file, fn, ...args] = process.argv.slice(2);
Promise.resolve(require(resolve(file))[fn](args)).then((code) => { process.exitCode = typeof code === 'number' ? code : 0; }, (e) => {
  process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
  process.exitCode = 99;
});
