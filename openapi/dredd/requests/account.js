// Dredd requests for passwords (forgotten, reset, changed), ending other sessions and deleting
// the account (tag user), and the mail outbox (tag admin): listing it, sending a mail again.
const fs = require('fs');
const {
  fixtures, NOBODY, keepExample, setBody, setPath, setToken, dropToken, api, signUp,
} = require('../support');

const NEW_PASSWORD = 'lantern orchard meridian 2027';
const BUSY = 'needs more sign-ins at once than the hash slots serve in the wait; server/tests/api/user/test_signin_busy.py produces it';
const TRIES = 100; // the limits are a few attempts per window; more means the limit is off

// The reset mail is written after the answer to /user/password/forgot went out: wait for it.
async function resetMail(email) {
  for (let i = 0; i < 50; i += 1) {
    const query = new URLSearchParams({ to: email, kind: 'password_reset' });
    const page = await api('GET', `/admin/outbox?${query}`, undefined, fixtures.tokens.staff);
    const [mail] = page.content.entries;
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no password_reset mail to ${email} in the outbox`);
}

// Staff see the reset link redacted in the outbox: the token comes from the mail drop, where the
// contract server also writes every reset mail (TOUCHLINE_MAIL_DROP_DIR, a test-only setting).
async function resetToken(email) {
  const { _id: id } = await resetMail(email);
  const dir = process.env.TOUCHLINE_MAIL_DROP_DIR;
  let file;
  for (let i = 0; i < 50 && !file; i += 1) {
    file = fs.readdirSync(dir).find((f) => f.endsWith(`-${id}.json`));
    if (!file) await new Promise((resolve) => setTimeout(resolve, 100)); // dropped just after the commit
  }
  if (!file) throw new Error(`no reset mail ${id} to ${email} in ${dir}`);
  const { text } = JSON.parse(fs.readFileSync(`${dir}/${file}`, 'utf8'));
  const match = text.match(/[?&]token=([^\s&]+)/);
  if (!match) throw new Error(`no reset link in the mail to ${email}`);
  return decodeURIComponent(match[1]);
}

// Call `request` until it answers 429 (the limit is reached, so the transaction's own request is refused too).
async function exhaust(request) {
  for (let i = 0; i < TRIES; i += 1) {
    if ((await request()).status === 429) return;
  }
  throw new Error(`no 429 after ${TRIES} attempts`);
}

function post(path, body, token) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(`${fixtures.base}/api${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

module.exports = {
  forgot_password: {
    200: keepExample,
    400: (t) => setBody(t, { mail: 'ada@example.com' }), // the field is `email`
    429: async (t) => {
      const email = `dredd-forgot-${process.pid}-${Date.now()}@example.com`;
      await exhaust(() => post('/user/password/forgot', { email }));
      setBody(t, { email });
    },
  },
  reset_password: {
    200: async (t) => {
      const account = await signUp();
      await api('POST', '/user/password/forgot', { email: account.email });
      setBody(t, { token: await resetToken(account.email), password: NEW_PASSWORD });
    },
    400: (t) => setBody(t, { token: `pr_${'x'.repeat(43)}`, password: NEW_PASSWORD }), // never issued
    429: 'needs the per-client limit of reset requests exhausted, which would refuse the other transactions '
      + 'from this client; server/tests/api/test_password.py produces it',
    503: BUSY,
  },
  change_password: {
    200: async (t) => {
      const account = await signUp();
      setToken(t, account.access_token);
      setBody(t, { current_password: account.password, new_password: NEW_PASSWORD });
    },
    400: async (t) => { // a new password of one character repeated is refused as weak
      const account = await signUp();
      setToken(t, account.access_token);
      setBody(t, { current_password: account.password, new_password: 'bbbbbbbbbbbb' });
    },
    401: dropToken,
    403: async (t) => {
      const account = await signUp();
      setToken(t, account.access_token);
      setBody(t, { current_password: 'not the password', new_password: NEW_PASSWORD });
    },
    429: async (t) => {
      const account = await signUp();
      const wrong = { current_password: 'not the password', new_password: NEW_PASSWORD };
      await exhaust(() => post('/user/change_password', wrong, account.access_token));
      setToken(t, account.access_token);
      setBody(t, wrong);
    },
    503: BUSY,
  },
  end_other_sessions: {
    200: async (t) => setToken(t, (await signUp()).access_token),
    401: dropToken,
  },
  delete_account: {
    200: async (t) => setToken(t, (await signUp()).access_token),
    401: dropToken,
  },
  list_outbox: {
    200: keepExample,
    400: (t) => setPath(t, '/admin/outbox?kind=newsletter'), // not a MailKind
    401: dropToken,
    403: (t) => setToken(t, fixtures.tokens.viewer),
  },
  resend_mail: {
    200: async (t) => {
      const account = await signUp();
      await api('POST', '/user/password/forgot', { email: account.email });
      setPath(t, `/admin/outbox/${(await resetMail(account.email))._id}/resend`);
    },
    400: (t) => setPath(t, '/admin/outbox/not-an-id/resend'),
    401: dropToken,
    403: (t) => setToken(t, fixtures.tokens.viewer),
    404: (t) => setPath(t, `/admin/outbox/${NOBODY}/resend`),
  },
};
