// Dredd requests for search: events alone (`search_events`) and every group (`search_all`).
const { setPath, setToken } = require('../support');

// A token that does not verify is a 401 on these public, personalised operations.
const forgedToken = (t) => setToken(t, 'abc.def.ghi');

module.exports = {
  search_events: {
    200: (t) => setPath(t, '/event/search?q=mariners'),
    400: (t) => setPath(t, `/event/search?q=${'x'.repeat(101)}`), // longer than maxLength 100
    401: (t) => { setPath(t, '/event/search?q=mariners'); forgedToken(t); },
  },
  search_all: {
    // A typo of a seed team finds it and its games; which leagues, categories and sports come
    // too is the seed's business, so expect any list of them (Schemathesis checks their schema).
    200: (t) => {
      setPath(t, '/search?q=asford');
      const body = JSON.parse(t.expected.body);
      for (const group of ['leagues', 'categories', 'sports']) body.content[group] = [];
      t.expected.body = JSON.stringify(body);
    },
    400: (t) => setPath(t, '/search?q=asford&size=0'), // size is at least 1
    401: (t) => { setPath(t, '/search?q=asford'); forgedToken(t); },
  },
};
