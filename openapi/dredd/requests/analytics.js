// Dredd requests for the webapp's analytics sink (tag analytics): the contract's example batch is
// stored as the demo viewer's; an empty batch is a 400; a token that does not verify is a 401
// (never an anonymous batch).
const { setBody, setToken } = require('../support');

module.exports = {
  record_analytics_events: {
    202: () => {}, // the documented example, as the demo viewer
    400: (t) => setBody(t, { events: [] }),
    401: (t) => setToken(t, 'not-a-token'),
  },
};
