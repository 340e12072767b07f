// Dredd requests for a pay-per-view event's outage credit (tag admin): staff read it, trigger it and
// cancel it. Each transaction that changes a credit takes a seeded pay-per-view event of its own
// (found through GET /admin/products), never the first one, which the commerce requests buy. The
// contract server runs no outage-credit rounds (server/checks/contract.py), so a credit triggered
// here stays scheduled; pytest runs them (server/tests/services/test_outage_credit.py).
const { fixtures, NOBODY, setPath, setToken, dropToken, api, newEvent } = require('../support');

const asViewer = (t) => setToken(t, fixtures.tokens.viewer);
const staffCall = (method, path) => api(method, path, undefined, fixtures.tokens.staff);
const onEvent = (suffix) => (id) => `/admin/events/${id}/outage_credit${suffix}`;

let events;
// The next seeded pay-per-view event no other transaction here has used.
async function payPerViewEvent() {
  if (!events) {
    const page = await staffCall('GET', '/admin/products?type=ppv&size=100');
    events = [...new Set(page.content.entries.map((p) => p.event_id).filter(Boolean))].slice(1).reverse();
  }
  if (!events.length) throw new Error('the seeded catalogue has too few pay-per-view events');
  return events.pop();
}

// A seeded pay-per-view event whose credit staff triggered: scheduled, due now.
async function triggered() {
  const id = await payPerViewEvent();
  await staffCall('POST', onEvent('')(id));
  return id;
}

// 400 (an id that is no id), 401, 403 (a viewer) and 404 are alike for the three operations.
function refusals(suffix) {
  const path = onEvent(suffix);
  return {
    400: (t) => setPath(t, path('not-an-id')),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, path(NOBODY)),
  };
}

module.exports = {
  get_outage_credit: {
    200: async (t) => setPath(t, onEvent('')(await triggered())),
    ...refusals(''),
  },
  trigger_outage_credit: {
    200: async (t) => setPath(t, onEvent('')(await payPerViewEvent())),
    ...refusals(''),
    409: async (t) => setPath(t, onEvent('')((await newEvent())._id)), // no pay-per-view product: not_pay_per_view
  },
  cancel_outage_credit: {
    200: async (t) => setPath(t, onEvent('/cancel')(await triggered())),
    ...refusals('/cancel'),
    409: async (t) => setPath(t, onEvent('/cancel')(await payPerViewEvent())), // nothing scheduled
  },
};
