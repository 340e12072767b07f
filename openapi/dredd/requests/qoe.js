// Dredd requests for the players' QoE beacons (tag qoe) and staff's QoE report of an event (tag
// admin): the example batch, as a new browser's views of a seeded live event, is stored; an empty
// batch is a 400; a token that does not verify is a 401; one view past its budget a 429.
const { ids, fixtures, NOBODY, base, setBody, setPath, setToken, dropToken } = require('../support');

let views = 0;

// The example batch as a new browser's new view of a seeded live event.
function viewBatch(t) {
  views += 1;
  const id = `dredd${process.pid}x${views}x${Date.now()}`;
  const { beacons } = JSON.parse(t.request.body);
  return { anonymousId: `browser-${id}`, beacons: beacons.map((b) => ({ ...b, view: `view-${id}`, event: ids.freeLive })) };
}

async function postStatus(body) {
  const answer = await fetch(`${base}/api/qoe/beacons`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  await answer.arrayBuffer();
  return { status: answer.status, retryAfter: Number(answer.headers.get('Retry-After') || 0) };
}

const qoeOf = (t, id) => setPath(t, t.origin.resourceName.replace('{id}', id));

module.exports = {
  record_qoe_beacons: {
    202: (t) => setBody(t, viewBatch(t)), // as the demo viewer's session
    400: (t) => setBody(t, { ...viewBatch(t), beacons: [] }),
    401: (t) => { setToken(t, 'not-a-token'); setBody(t, viewBatch(t)); },
    429: async (t) => {
      // One view reports until its budget refuses, early enough in the window that the
      // transaction itself still falls in it.
      let body = viewBatch(t);
      for (let n = 0; n < 10000; n += 1) {
        const { status, retryAfter } = await postStatus(body);
        if (status === 429 && retryAfter >= 5) break;
        if (status === 429) body = viewBatch(t); // the window is about to move: a new view
        else if (status !== 202) throw new Error(`sending beacons answered ${status}`);
      }
      dropToken(t);
      setBody(t, body);
    },
  },
  get_event_qoe: {
    200: (t) => qoeOf(t, ids.freeLive), // what the 202 above sent is counted
    400: (t) => qoeOf(t, 'not-an-id'),
    401: dropToken,
    403: (t) => setToken(t, fixtures.tokens.viewer),
    404: (t) => qoeOf(t, NOBODY),
  },
};
