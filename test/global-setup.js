/**
 * jest globalSetup: a temporary folder for this run, made the system temp folder (TMPDIR, and TEMP/TMP on Windows) of
 * every test worker and child process, so that what tests and libraries put in os.tmpdir() (cdk8s' and cdktf's
 * Testing apps make an output folder there per call) goes in it; global-teardown.js removes it.
 */
const { mkdtempSync } = require('fs');
const { tmpdir } = require('os');
const { join } = require('path');

module.exports = () => {
  const dir = mkdtempSync(join(tmpdir(), 'triton-ops-jest-'));
  process.env.TRITON_OPS_JEST_TMPDIR = dir;
  process.env.TMPDIR = process.env.TEMP = process.env.TMP = dir;
};
