// Dredd requests for the federated sign-on (tag oauth2): the provider list and the ifa popup
// callback. exchange_token's transactions (refresh and federated) are in accounts.js.
//
// The ifa transactions that need a provider run the popup's authorization-code flow for real
// against the provider GET /oauth2/providers names (PKCE, state, nonce; the authorize form is
// submitted as a browser would). When the contract server offers no ifa sign-on they are
// skipped, saying so.
const crypto = require('crypto');
const { api, emptyMap, keepExample, setBody, uniqueDevice } = require('../support');

const NO_IFA = 'the contract server offers no ifa sign-on (no TOUCHLINE_IFA_ISSUER): '
  + 'server/tests/api/test_oauth2_federated.py runs this against a real provider';
const RATE_LIMIT = 'needs the per-address attempt limit exhausted; server/tests/api/test_oauth2_federated.py produces it';
const PROVIDER_DOWN = 'needs the ifa provider to stop answering; server/tests/api/test_oauth2_federated.py produces it';

const random = () => crypto.randomBytes(32).toString('base64url'); // 43 characters, a valid PKCE verifier

async function offeredIfa() {
  const { content } = await api('GET', '/oauth2/providers');
  return content.providers.find((p) => p.provider === 'ifa');
}

// The popup: the provider's authorize page, its form submitted for `sub`, the code from the redirect.
async function popup(ifa, sub) {
  const verifier = random();
  const state = random();
  const nonce = random();
  const query = new URLSearchParams({
    response_type: 'code', client_id: ifa.client_id, redirect_uri: ifa.redirect_uri, scope: ifa.scope, state, nonce,
    code_challenge: crypto.createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
  });
  const page = `${ifa.authorize_url}?${query}`;
  const form = await fetch(page);
  if (!form.ok) throw new Error(`the authorize page answered ${form.status}`);
  const submitted = await fetch(page, { method: 'POST', body: new URLSearchParams({ sub }), redirect: 'manual' });
  const location = new URL(submitted.headers.get('location') || 'about:blank');
  if (location.searchParams.get('state') !== state) throw new Error(`no code came back: ${submitted.status} ${location}`);
  return { code: location.searchParams.get('code'), verifier, state, nonce };
}

function callbackBody(ifa, { code, verifier, state, nonce }) {
  const device = uniqueDevice();
  return { code, redirect_uri: ifa.redirect_uri, code_verifier: verifier, state, nonce,
    device: { id: device, name: device }, strategy: 'refresh' };
}

function withIfa(make) {
  return async (t) => {
    const ifa = await offeredIfa();
    if (!ifa) {
      console.log(`skip ${t.name}: ${NO_IFA}`);
      t.skip = true;
      return;
    }
    await make(t, ifa);
  };
}

module.exports = {
  list_providers: { 200: keepExample },
  ifa_callback: {
    200: withIfa(async (t, ifa) => {
      setBody(t, callbackBody(ifa, await popup(ifa, `dredd-${process.pid}-${Date.now()}`)));
      emptyMap(t, ['content', 'profile', 'options']); // a new account has no survey records
    }),
    400: (t) => setBody(t, { code: 'c', redirect_uri: 'r', code_verifier: 'too-short', state: 's', nonce: 'n',
      device: { id: 'd', name: 'd' } }), // code_verifier is 43 to 128 characters
    401: withIfa(async (t, ifa) => {
      // A code the provider never issued: it answers invalid_grant.
      setBody(t, callbackBody(ifa, { code: random(), verifier: random(), state: random(), nonce: random() }));
    }),
    429: RATE_LIMIT,
    502: PROVIDER_DOWN,
  },
};
