/** `npm run fuzz`: seeded single mutations of the example fleet descriptions (test/fuzz); not part of `npm test`. */
const base = require('./jest.config.js');
module.exports = { ...base, testMatch: ['**/test/fuzz/*.fuzz.ts'], testTimeout: 170000 };
