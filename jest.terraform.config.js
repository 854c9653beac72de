/** `npm run test:terraform`: terraform validate on the synthesized AWS stack; needs terraform and the provider mirror. */
const base = require('./jest.config.js');
module.exports = { ...base, testMatch: ['**/test/terraform/*.validate.ts'], testTimeout: 120000 };
