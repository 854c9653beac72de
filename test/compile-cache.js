/**
 * jest setupFiles: a V8 code cache for the modules jest compiles, kept by each worker for its life. jest compiles
 * every module again for each test file (a fresh registry per file), and 160 files each compiling cdk8s-plus-28,
 * cdktf and the AWS provider (13 MB of JavaScript) cost 16 s of the suite's CPU; from the cache a module compiles
 * in a fraction of that. The cache is keyed by file name and source text, so a changed source compiles anew.
 * `require('vm')` here is Node's own module (jest passes core modules through), which jest-runtime calls.
 */
const vm = require('vm');

const CACHED = Symbol.for('triton-ops.compileCache');
if (!vm.compileFunction[CACHED]) {
  const compile = vm.compileFunction;
  const cache = new Map();
  const cached = function compileFunction(code, params, options = {}) {
    const name = options.filename;
    const hit = name === undefined ? undefined : cache.get(name);
    if (hit !== undefined && hit.code === code) {
      const fn = compile(code, params, { ...options, cachedData: hit.data });
      if (!fn.cachedDataRejected) return fn;
    }
    const fn = compile(code, params, { ...options, produceCachedData: true });
    if (name !== undefined && fn.cachedData) cache.set(name, { code, data: fn.cachedData });
    return fn;
  };
  cached[CACHED] = true;
  vm.compileFunction = cached;
}
