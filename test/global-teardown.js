/** jest globalTeardown: removes the run's temporary folder (global-setup.js). */
const { rmSync } = require('fs');

module.exports = () => {
  rmSync(process.env.TRITON_OPS_JEST_TMPDIR, { recursive: true, force: true });
};
