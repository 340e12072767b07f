// Dredd requests for billing as staff run it (tag admin): POST /admin/billing/renew. The example
// (a real run) is sent as it is; on the contract server's database few contracts, if any, are
// due, and the answer's counts are checked against the schema, not the example's numbers.
const { fixtures, keepExample, setBody, setToken, dropToken } = require('../support');

module.exports = {
  run_renewals: {
    200: keepExample,
    400: (t) => setBody(t, { dry_run: 'yes' }), // must be a boolean
    401: dropToken,
    403: (t) => setToken(t, fixtures.tokens.viewer),
    409: 'needs a renewal run in progress in the server process while the request arrives (a run takes '
      + 'milliseconds); server/tests/api/commerce/test_renewals_admin.py produces it',
  },
};
