// Dredd requests for access codes: staff issue, list, read and revoke them (tag admin), viewers redeem
// them (tag commerce). Codes are issued for a seeded pay-per-view product (found through
// GET /admin/products) and redeemed by fresh accounts, so the demo viewer's purchases and its
// redemption budget stay as seeded.
const { fixtures, NOBODY, setBody, setPath, setToken, dropToken, api, signUp } = require('../support');

const TRIES = 100;
const asViewer = (t) => setToken(t, fixtures.tokens.viewer);
const staffGet = (path) => api('GET', path, undefined, fixtures.tokens.staff);
const staffPost = (path, body) => api('POST', path, body, fixtures.tokens.staff);
const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

let ppvProduct;
async function ppvProductId() {
  if (!ppvProduct) {
    const page = await staffGet('/admin/products?type=ppv&size=1');
    if (!page.content.entries.length) throw new Error('the seeded catalogue has no pay-per-view product');
    ppvProduct = page.content.entries[0]._id;
  }
  return ppvProduct;
}

async function issue(extra = {}) {
  return (await staffPost('/admin/access_codes', { product_id: await ppvProductId(), count: 1, ...extra })).content;
}

function redeem(code, token) {
  return fetch(`${fixtures.base}/api/commerce/access_code/redeem`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ code }),
  });
}

// The transaction redeems `code` as a fresh account.
async function redeemAsNewViewer(t, code) {
  setToken(t, (await signUp()).access_token);
  setBody(t, { code });
}

module.exports = {
  redeem_access_code: {
    200: async (t) => redeemAsNewViewer(t, (await issue()).codes[0]),
    400: (t) => setBody(t, { code: 'DERBY!' }), // not a code's characters
    401: dropToken,
    404: (t) => redeemAsNewViewer(t, 'NOPE-NOPE-NOPE'),
    409: async (t) => {
      const [code] = (await issue()).codes;
      const first = await redeem(code, (await signUp()).access_token);
      if (first.status !== 200) throw new Error(`the first redemption answered ${first.status}`);
      await redeemAsNewViewer(t, code); // single-use and taken: already_redeemed
    },
    410: async (t) => {
      const [code] = (await issue({ expires_at: new Date(Date.now() + 2000).toISOString() })).codes;
      await sleep(2500);
      await redeemAsNewViewer(t, code);
    },
    429: async (t) => {
      const account = await signUp();
      for (let i = 0; i < TRIES; i += 1) {
        if ((await redeem('WRONG-WRONG-WRONG', account.access_token)).status === 429) {
          setToken(t, account.access_token);
          return setBody(t, { code: 'WRONG-WRONG-WRONG' });
        }
      }
      throw new Error(`no 429 after ${TRIES} attempts`);
    },
  },
  issue_access_codes: {
    200: async (t) => {
      const body = JSON.parse(t.request.body);
      setBody(t, { ...body, product_id: await ppvProductId(), expires_at: '2099-12-31T23:59:59Z' });
    },
    400: async (t) => setBody(t, { count: 1 }), // neither product_id nor event_id
    401: dropToken,
    403: asViewer,
    404: (t) => setBody(t, { product_id: NOBODY, count: 1 }),
  },
  list_access_codes: {
    200: async (t) => {
      const batch = await issue({ prefix: 'DERBY' });
      setPath(t, `/admin/access_codes?batch_id=${batch.batchId}&status=active&code=DERBY&count=true&next=true`);
    },
    400: (t) => setPath(t, '/admin/access_codes?status=lost'), // not an AccessCodeStatus
    401: dropToken,
    403: asViewer,
  },
  get_access_code: {
    200: async (t) => {
      const batch = await issue();
      const page = await staffGet(`/admin/access_codes?batch_id=${batch.batchId}`);
      setPath(t, `/admin/access_codes/${page.content.entries[0]._id}`);
    },
    400: (t) => setPath(t, '/admin/access_codes/not-an-id'),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, `/admin/access_codes/${NOBODY}`),
  },
  revoke_access_code: {
    200: async (t) => {
      const batch = await issue();
      const page = await staffGet(`/admin/access_codes?batch_id=${batch.batchId}`);
      setPath(t, `/admin/access_codes/${page.content.entries[0]._id}/revoke`);
    },
    400: (t) => setPath(t, '/admin/access_codes/not-an-id/revoke'),
    401: dropToken,
    403: asViewer,
    404: (t) => setPath(t, `/admin/access_codes/${NOBODY}/revoke`),
  },
};
