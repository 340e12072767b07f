// Dredd requests for the webapp's analytics sink (tag analytics): the contract's example batch is
// stored as the demo viewer's; an empty batch is a 400; a token that does not verify is a 401
// (never an anonymous batch); a browser past its budget of batches is a 429.
const { base, setBody, setToken, dropToken } = require('../support');

let browsers = 0;

// The example batch as one new anonymous browser's (the demo viewer's budget is never spent).
function browserBatch(t) {
  browsers += 1;
  const anonymousId = `dredd${process.pid}x${browsers}x${Date.now()}`;
  const { events } = JSON.parse(t.request.body);
  return { events: events.map((event) => ({ ...event, anonymousId })) };
}

async function postStatus(body) {
  const answer = await fetch(`${base}/api/analytics/events`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  await answer.arrayBuffer();
  return { status: answer.status, retryAfter: Number(answer.headers.get('Retry-After') || 0) };
}

module.exports = {
  record_analytics_events: {
    202: () => {}, // the documented example, as the demo viewer
    400: (t) => setBody(t, { events: [] }),
    401: (t) => setToken(t, 'not-a-token'),
    429: async (t) => {
      // Send as one anonymous browser until its budget refuses, early enough in the budget's
      // window that the transaction itself still falls in it.
      let body = browserBatch(t);
      for (let n = 0; n < 10000; n += 1) {
        const { status, retryAfter } = await postStatus(body);
        if (status === 429 && retryAfter >= 5) break;
        if (status === 429) body = browserBatch(t); // the window is about to move: a new browser
        else if (status !== 202) throw new Error(`sending analytics answered ${status}`);
      }
      dropToken(t);
      setBody(t, body);
    },
  },
};
