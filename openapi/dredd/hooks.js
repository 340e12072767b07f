// Dredd hooks for `make contract` (server/checks/contract.py writes the fixtures file).
//
// Dredd makes one transaction per documented response status. These hooks make each one
// happen for real: seeded ids for 200s, a well-formed id nobody has for 404s, a request the
// contract refuses for 400s, and a real bearer token on secured operations (the demo viewer's,
// or the demo staff account's under /admin/). Each area lists its requests in ./requests/*.js:
// operationId -> status -> (transaction) => void | Promise, or a string: the reason that status
// cannot happen here (the transaction is skipped with that reason).
const fs = require('fs');
const path = require('path');
const hooks = require('hooks');
const { fixtures } = require('./support');

const { operations, tokens } = fixtures;
const requestsDir = path.join(__dirname, 'requests');
const requests = {};
for (const file of fs.readdirSync(requestsDir).filter((f) => f.endsWith('.js')).sort()) {
  for (const [operationId, statuses] of Object.entries(require(path.join(requestsDir, file)))) {
    if (requests[operationId]) throw new Error(`${operationId} has requests in two files (${file})`);
    requests[operationId] = statuses;
  }
}

hooks.beforeEach((t, done) => {
  const key = `${t.request.method} ${t.origin.resourceName}`;
  const operation = operations[key];
  if (!operation) {
    t.fail = `no operation ${key} in the contract index: the fixtures file is stale`;
    return done();
  }
  if (operation.secured) {
    const staff = t.origin.resourceName.startsWith('/admin/');
    t.request.headers.Authorization = `Bearer ${staff ? tokens.staff : tokens.viewer}`;
  }
  const make = (requests[operation.operationId] || {})[t.expected.statusCode];
  if (typeof make === 'string') {
    hooks.log(`skip ${t.name}: ${make}`);
    t.skip = true;
    return done();
  }
  if (!make) {
    t.fail = `openapi/dredd/requests has no request for ${operation.operationId} ${t.expected.statusCode}`;
    return done();
  }
  return Promise.resolve()
    .then(() => make(t))
    .then(() => done(), (error) => {
      t.fail = `preparing ${operation.operationId} ${t.expected.statusCode} failed: ${error.message}`;
      done();
    });
});
