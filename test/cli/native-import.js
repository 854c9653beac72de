// `import(specifier)` as Node runs it: check-helpers.ts loads this file with Node's own require, outside jest.
module.exports = (specifier) => import(specifier);
