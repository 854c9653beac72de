/**
 * jest globalSetup:
 * - a temporary folder for this run, made the system temp folder (TMPDIR, and TEMP/TMP on Windows) of every test worker
 *   and child process, so that what tests and libraries put in os.tmpdir() (cdk8s' and cdktf's Testing apps make an
 *   output folder there per call) goes in it; global-teardown.js removes it;
 * - the tools the tests run, first on PATH: promtool at the pinned Prometheus release and protoc, obtained once per
 *   machine by tools/obtain.js (a cold machine builds promtool from its Go module, about 2 min, with progress lines).
 */
const { mkdtempSync } = require('fs');
const { tmpdir } = require('os');
const { delimiter, join } = require('path');
const { obtainTools, ToolError } = require('../tools/obtain');

module.exports = async () => {
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-jest-'));
  process.env.TRITON_OPS_JEST_TMPDIR = dir;
  process.env.TMPDIR = process.env.TEMP = process.env.TMP = dir;
  try {
    const dirs = await obtainTools(['promtool', 'protoc']);
    if (dirs.length) process.env.PATH = [...dirs, process.env.PATH].join(delimiter);
  } catch (e) {
    // One line naming the tool and how to get it, instead of twenty failed tests.
    if (e instanceof ToolError) { process.stderr.write(`\n${e.message}\n`); process.exit(1); }
    throw e;
  }
};
