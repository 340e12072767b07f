// Dredd requests for buying (tag commerce): cards, subscriptions and contracts, pay-per-view
// purchases; the products that unlock an event (tag event) and every product for staff (tag admin).
// Access codes and renewals are in access-codes.js and billing.js.
//
// Every transaction that buys or looks at bought things uses a fresh viewer, set up through the
// API with the sandbox test cards (server/payments/sandbox.py), so nothing leaks between
// transactions and the demo viewer holds nothing. Money-moving calls get an Idempotency-Key of
// their own (the example's key would be shared by every transaction of the demo viewer).
const { fixtures, ids, NOBODY, keepExample, setBody, setPath, setToken, dropToken, api, signUp } = require('../support');

const CARDS = {
  success: '4242424242424242',
  declined: '4000000000000002', // card_declined
  action: '4000000000003220', // requires action: 202, then succeeds
};
const EXP_YEAR = new Date().getUTCFullYear() + 3;
const TOKENIZE_TRIES = 100; // the limit is 20 per hour and account; more means it is off
let counter = 0;

function idempotencyKey() {
  counter += 1;
  return `dredd-${process.pid}-${counter}-${Date.now()}`;
}

function freshKey(t) {
  t.request.headers['Idempotency-Key'] = idempotencyKey();
}

function asViewer(account, t) {
  setToken(t, account.access_token);
}

// The operations open to anonymous visitors (`- {}` in security) refuse a token whose session
// has ended, rather than serve it as anonymous (server/api/http/context.py bind_viewer).
async function endedSession(t) {
  const account = await signUp();
  await api('POST', '/user/logout', {}, account.access_token);
  setToken(t, account.access_token);
}

// A money-moving call made while setting a transaction up: it must succeed (200).
async function pay(path, body, account) {
  const answer = await fetch(`${fixtures.base}/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${account.access_token}`,
      'Idempotency-Key': idempotencyKey() },
    body: JSON.stringify(body),
  });
  const json = await answer.json();
  if (answer.status !== 200) throw new Error(`POST ${path} answered ${answer.status}: ${JSON.stringify(json)}`);
  return json.content;
}

async function cardToken(account, number = CARDS.success) {
  const card = { number, exp_month: 12, exp_year: EXP_YEAR, cvc: '123', holder: 'Dredd Contract' };
  return (await api('POST', '/commerce/card/tokenize', card, account.access_token)).content.token;
}

// A fresh viewer, with `number` as the stored card when given.
async function viewer(number) {
  const account = await signUp();
  if (number) await api('POST', '/commerce/card/update', { card: { token: await cardToken(account, number) } }, account.access_token);
  return account;
}

// Seeded products, looked up once: a pay-per-view, the bundle (with an event it contains), and
// "Touchline All Access" (a monthly svod covering everything; server/checks/contract.py has its id).
let seeded;
function products() {
  if (!seeded) {
    seeded = (async () => {
      const [ppv] = (await api('GET', '/admin/products?type=ppv&size=1', undefined, fixtures.tokens.staff)).content.entries;
      const [bundle] = (await api('GET', '/commerce/bundles?size=1')).content.entries;
      const svod = (await api('GET', `/commerce/get_subscriptions_by_id/id/${ids.allAccess}`)).content;
      if (!ppv || !bundle) throw new Error('the seed has no pay-per-view or no bundle on sale');
      return { ppv, bundle, bundledEvent: bundle.items[0].event_id, svod };
    })();
  }
  return seeded;
}

// The four money-moving operations share their transactions. `path` is the operation's own;
// `body(found, token)` its request body for the seeded products and a card token (null for the
// stored-card operations, whose viewer has the card stored instead).
function checkout(path, storedCard, body) {
  const request = async (t, { number = CARDS.success, ids = (found) => found, held = false, noCard = false } = {}) => {
    const found = await products();
    const account = await viewer(storedCard && !noCard ? number : undefined);
    if (held) await pay(path, body(found, await cardToken(account)), account); // bought with a card first
    asViewer(account, t);
    freshKey(t);
    setBody(t, body(ids(found), storedCard ? null : await cardToken(account, number)));
  };
  return {
    200: (t) => request(t),
    202: (t) => request(t, { number: CARDS.action }),
    400: (t) => {
      freshKey(t);
      setBody(t, { ...JSON.parse(t.request.body), unexpected: true }); // additionalProperties: false
    },
    401: (t) => {
      freshKey(t);
      dropToken(t);
    },
    402: (t) => request(t, { number: CARDS.declined }),
    404: (t) => request(t, { ids: (found) => ({ ...found, ppv: { ...found.ppv, _id: NOBODY }, svod: { _id: NOBODY } }) }),
    // With a new card: the viewer holds the product already (already_purchased, already_subscribed).
    // With the stored card: the viewer has none (no_stored_card).
    409: (t) => (storedCard ? request(t, { noCard: true }) : request(t, { held: true })),
  };
}

const ppvBody = (found, token) => ({ event_id: found.ppv.event_id, product_id: found.ppv._id,
  ...(token ? { card: { token }, save_card: true } : {}) });
const subscriptionBody = (found, token) => ({ subscription_id: found.svod._id, ...(token ? { card: { token } } : {}) });

// A fresh viewer who bought the pay-per-view / subscribed to All Access, with a card.
async function buyer() {
  const found = await products();
  const account = await viewer();
  return { account, purchase: await pay('/commerce/ppv/purchase', ppvBody(found, await cardToken(account)), account) };
}

async function subscriber() {
  const found = await products();
  const account = await viewer();
  const contract = await pay('/commerce/subscription_checkout', subscriptionBody(found, await cardToken(account)), account);
  return { account, contract };
}

// An operation taking the id of one of the viewer's things in its path.
function ownedById(base, make) {
  return {
    200: async (t) => {
      const { account, id } = await make();
      asViewer(account, t);
      setPath(t, `${base}/${id}`);
    },
    400: (t) => setPath(t, `${base}/not-an-id`),
    401: (t) => {
      dropToken(t);
      setPath(t, `${base}/${NOBODY}`);
    },
    404: async (t) => setPath(t, `${base}/${(await make()).id}`), // another viewer's: as if it did not exist
  };
}

module.exports = {
  tokenize_card: {
    200: async (t) => {
      asViewer(await viewer(), t); // the demo viewer's tokenize budget is Schemathesis's
      setBody(t, { ...JSON.parse(t.request.body), exp_year: EXP_YEAR }); // the example's expiry passes one day
    },
    // Digits only (a number failing the Luhn check is a 400 too, `invalid_card`, without `details`).
    400: (t) => setBody(t, { number: '4242 4242 4242 4242', exp_month: 12, exp_year: EXP_YEAR, cvc: '123' }),
    401: dropToken,
    429: async (t) => {
      const account = await viewer();
      const card = { ...JSON.parse(t.request.body), exp_year: EXP_YEAR };
      for (let i = 0; ; i += 1) {
        if (i === TOKENIZE_TRIES) throw new Error(`no 429 after ${TOKENIZE_TRIES} attempts`);
        const answer = await fetch(`${fixtures.base}/api/commerce/card/tokenize`, {
          method: 'POST', body: JSON.stringify(card),
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${account.access_token}` },
        });
        if (answer.status === 429) break;
      }
      asViewer(account, t);
      setBody(t, card);
    },
  },
  get_stored_card: {
    200: async (t) => asViewer(await viewer(CARDS.success), t),
    401: dropToken,
  },
  update_stored_card: {
    200: async (t) => {
      const account = await viewer(CARDS.success); // replaces the stored card
      asViewer(account, t);
      setBody(t, { card: { token: await cardToken(account, CARDS.success) } });
    },
    400: (t) => setBody(t, { card: { token: 'tok_sandbox_never-issued' } }), // invalid_card_token
    401: dropToken,
  },
  delete_stored_card: {
    200: async (t) => asViewer(await viewer(CARDS.success), t),
    401: dropToken,
  },
  get_subscriptions: {
    200: keepExample,
    400: (t) => setPath(t, '/commerce/get_subscriptions?type=ppv'), // not a subscription type
    401: endedSession,
  },
  get_subscription_by_id: {
    200: async (t) => setPath(t, `/commerce/get_subscriptions_by_id/id/${(await products()).svod._id}`),
    400: (t) => setPath(t, '/commerce/get_subscriptions_by_id/id/not-an-id'),
    401: endedSession,
    404: async (t) => setPath(t, `/commerce/get_subscriptions_by_id/id/${(await products()).ppv._id}`), // not a subscription
  },
  list_bundles: {
    200: async (t) => setPath(t, `/commerce/bundles?eventId=${(await products()).bundledEvent}`),
    400: (t) => setPath(t, '/commerce/bundles?eventId=not-an-id'),
    401: endedSession,
  },
  get_customer_contracts: {
    200: async (t) => asViewer((await subscriber()).account, t), // the example asks for active, not canceled ones
    400: (t) => setPath(t, '/commerce/customer_contracts?active=maybe'),
    401: dropToken,
  },
  get_customer_subscription_by_id: ownedById('/commerce/get_customer_subscriptions_by_id/id', async () => {
    const { account, contract } = await subscriber();
    return { account, id: contract.id };
  }),
  cancel_contract: {
    200: async (t) => {
      const { account, contract } = await subscriber();
      asViewer(account, t);
      setBody(t, { platform: 'web', id: contract.id });
    },
    400: (t) => setBody(t, { platform: 'ios', id: NOBODY }), // platform is only ever web here
    401: dropToken,
    404: async (t) => setBody(t, { platform: 'web', id: (await subscriber()).contract.id }), // another viewer's
    409: 'needs a contract bought in an app store (platform other than web), and every contract the API makes '
      + 'is a web one (server/services/commerce/grants.py new_contract)',
  },
  subscribe_by_stored_cc: checkout('/commerce/subscribe_by_stored_cc', true, subscriptionBody),
  subscription_checkout: checkout('/commerce/subscription_checkout', false, subscriptionBody),
  purchase_ppv: checkout('/commerce/ppv/purchase', false, ppvBody),
  purchase_ppv_by_stored_cc: checkout('/commerce/ppv/purchase_by_stored_cc', true, ppvBody),
  list_ppv_purchases: {
    200: async (t) => asViewer((await buyer()).account, t),
    400: (t) => setPath(t, '/commerce/ppv/purchases?status=refunded'), // not a PurchaseStatus
    401: dropToken,
  },
  get_ppv_purchase: ownedById('/commerce/ppv/purchases/id', async () => {
    const { account, purchase } = await buyer();
    return { account, id: purchase._id };
  }),
  get_commerce_options: {
    // An event in the bundle: its pay-per-view and the bundle are on sale.
    200: async (t) => setPath(t, `/event/get_commerce_options?eventId=${(await products()).bundledEvent}`),
    400: (t) => setPath(t, '/event/get_commerce_options?eventId=not-an-id'),
    401: endedSession,
    404: (t) => setPath(t, `/event/get_commerce_options?eventId=${NOBODY}`),
  },
  list_products: {
    200: async (t) => setPath(t, `/admin/products?type=ppv&eventId=${(await products()).ppv.event_id}`),
    400: (t) => setPath(t, '/admin/products?type=season'), // not a ProductType
    401: dropToken,
    403: (t) => setToken(t, fixtures.tokens.viewer),
  },
};
