// Dredd requests for sign-up, sign-in, sessions and devices (tag user) and token refresh.
const {
  fixtures, NOBODY, keepExample, emptyMap, setBody, setToken, dropToken, uniqueDevice, api, signUp, verificationToken,
} = require('../support');

// A fresh account has no survey records: expect `options` without the example's key.
const noSurvey = (t) => emptyMap(t, ['content', 'profile', 'options']);
// A well-formed RS256 ID token: checking it needs the provider's keys, which cannot be fetched.
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');
const FOREIGN_ID_TOKEN = `${b64({ alg: 'RS256', kid: 'contract-key', typ: 'JWT' })}.${b64({ sub: 'x', aud: 'contract-google-client' })}.c2ln`;
const RATE_LIMIT = 'needs the per-address attempt limit exhausted; server/tests/api/test_signin.py produces it';
const BUSY = 'needs more sign-ins at once than the hash slots serve in the wait; server/tests/api/user/test_signin_busy.py produces it';
const REFRESH = 'urn:ietf:params:oauth:token-type:refresh_token';

async function accountAtLimit() {
  const account = await signUp();
  for (let i = 1; i < fixtures.deviceLimit; i += 1) {
    const device = uniqueDevice();
    await api('POST', '/user/login', { username: account.email, password: account.password, device_id: device, device_name: device });
  }
  const device = uniqueDevice();
  const stopped = await api('POST', '/user/login', { username: account.email, password: account.password, device_id: device, device_name: device });
  return { account, device, ticket: stopped.content.device_error.limit_ticket };
}

module.exports = {
  register_user: {
    202: (t) => {
      const device = uniqueDevice();
      setBody(t, { email: `dredd-register-${Date.now()}-${process.pid}@example.com`, password: 'ledger quartz harbour 2026',
        displayName: 'Dredd', device_id: device, device_name: device, strategy: 'refresh' });
    },
    // A password of one character repeated: refused as weak, before the address matters.
    400: (t) => setBody(t, { email: 'fan@example.com', password: 'aaaaaaaaaaaa', displayName: 'Dredd', device_id: 'd', device_name: 'd' }),
    404: (t) => setBody(t, { email: `dredd-404-${Date.now()}@example.com`, password: 'ledger quartz harbour 2026',
      displayName: 'Dredd', device_id: 'd', device_name: 'd', identity: NOBODY }),
    429: RATE_LIMIT,
    503: BUSY,
  },
  verify_email: {
    200: async (t) => {
      const email = `dredd-verify-${Date.now()}-${process.pid}@example.com`;
      const device = uniqueDevice();
      await api('POST', '/user/register', { email, password: 'ledger quartz harbour 2026', displayName: 'Dredd',
        device_id: device, device_name: device });
      setBody(t, { token: await verificationToken(email), device_id: device, device_name: device, strategy: 'refresh' });
      noSurvey(t);
    },
    400: (t) => setBody(t, { token: `ev_${'x'.repeat(40)}`, device_id: 'd', device_name: 'd' }),
    429: RATE_LIMIT,
    503: BUSY,
  },
  login_user: {
    200: async (t) => {
      const account = await signUp();
      setBody(t, { username: account.email, password: account.password, device_id: account.device, device_name: account.device, strategy: 'refresh' });
      noSurvey(t);
    },
    400: (t) => setBody(t, { username: 'fan@example.com' }), // password and device are required
    401: (t) => setBody(t, { username: fixtures.accounts.viewer.email, password: 'not the password', device_id: 'd', device_name: 'd' }),
    429: RATE_LIMIT,
    503: BUSY,
  },
  complete_login: {
    200: async (t) => {
      const { account, device, ticket } = await accountAtLimit();
      await api('POST', '/user/delete_device', { deviceId: account.device }, ticket);
      setBody(t, { limit_ticket: ticket, device_id: device, device_name: device, strategy: 'refresh' });
      noSurvey(t);
    },
    400: (t) => setBody(t, { limit_ticket: 'too-short' }),
    401: (t) => setBody(t, { limit_ticket: `lt_${'x'.repeat(40)}`, device_id: 'd', device_name: 'd' }),
    429: RATE_LIMIT,
  },
  logout_user: {
    200: async (t) => setToken(t, (await signUp()).access_token),
    401: dropToken,
  },
  check_current_device: {
    200: keepExample,
    400: (t) => setBody(t, { device_id: '' }), // device_name is required and device_id may not be empty
    401: dropToken,
  },
  get_devices: { 200: keepExample, 401: dropToken },
  delete_device: {
    200: async (t) => {
      const account = await signUp();
      const device = uniqueDevice();
      await api('POST', '/user/login', { username: account.email, password: account.password, device_id: device, device_name: device });
      setToken(t, account.access_token);
      setBody(t, { deviceId: device });
    },
    400: (t) => setBody(t, { device: 'the field is deviceId' }),
    401: dropToken,
    404: (t) => setBody(t, { deviceId: NOBODY }),
  },
  exchange_token: {
    200: async (t) => {
      const account = await signUp();
      setBody(t, { grant_type: 'urn:ietf:params:oauth:grant-type:token-exchange', subject_token: account.refresh_token,
        subject_token_type: REFRESH, subject_issuer: 'touchline', strategy: 'refresh' });
    },
    400: (t) => setBody(t, { grant_type: 'token-exchange', subject_token: 'x', subject_token_type: REFRESH, subject_issuer: 'myspace' }),
    401: (t) => setBody(t, { grant_type: 'token-exchange', subject_token: 'rt_never-issued', subject_token_type: REFRESH }),
    429: RATE_LIMIT,
    // The contract server's google sign-on points at a closed port (server/checks/contract.py).
    502: (t) => setBody(t, { grant_type: 'token-exchange', subject_token: FOREIGN_ID_TOKEN, subject_issuer: 'google',
      subject_token_type: 'urn:ietf:params:oauth:token-type:id_token', device: { id: 'd', name: 'd' } }),
  },
};
