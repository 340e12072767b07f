"""The kickoff load test (issue 17 §3): how many viewers a match can take when it starts.

What it measures. Signed-in viewers of one free live match, driven by locust
(`locustfile.py`, the request mix in `mix.py`):

- arriving, a viewer refreshes its session (`POST /api/oauth2/token`, as the webapp does on
  opening a page) or, 5 % of them, signs in with a password (`POST /api/user/login`, argon2id);
  opens the event page (`GET /api/event/get_by_id/id/{id}` with its bearer), the signed live
  master playlist from that answer and the event list (`POST /api/event/list`); 20 % of them also
  open the socket and join the event room (`join-event-room` over python-socketio's client,
  timed from connect to the join's acknowledgement as one request);
- watching, it polls its live playlist every 2 s and reloads the event page and the list every
  20 s each: 0.6 requests a second per viewer, so a rate is a number of viewers.

Each viewer sends an X-Forwarded-For address of its own (believed from 127.0.0.1, as from the
proxy in front of production), so the servers run with their default sign-in limits and the
per-address counters are as many as in production rather than one hot row.

The kickoff shape: the base rate for 10 s, then 12.5 times as many viewers within 5 s, held for
15 s. A step is held when, over every request of the run, p99 < 250 ms and errors < 0.1 %, and
the viewers really offered 90 % of the peak rate while it was held. The runner searches the
highest base rate held (doubling, then bisecting; about 200 s of steps per configuration) for:

- 1 process, SQLite;
- 1 process, PostgreSQL;
- 2 processes, PostgreSQL + Redis (`touchline cluster --workers 2`: HAProxy in front).

Sign-in is bound by argon2 on purpose; the fairness check sends 150 sign-ins over 2 s (faster
than the machine verifies passwords) on top of viewers watching at half the highest peak held,
and reports the sign-ins' latencies, how many were answered in the order sent (the server's
argon2 queue is first come, first served) and the p99 of every other request before and during
the burst.

Every rate is also given as a ratio to GET /api/config (the trivial operation, saturated with wrk
on the same servers) and to a bare ASGI endpoint answering as many bytes, both measured in the
same run, with the machine's core count: absolute rates move with the machine and its load.

Run it: `make bench` (which installs the `bench` extra), or `python -m server.bench.kickoff`
(`--configurations sqlite`, `--budget`, `--start-viewers`, `--burst 0` ...; `--help`). It needs
PostgreSQL on 127.0.0.1:5432 (user postgres; it creates and drops the database
`touchline_kickoff_bench`), redis-server, HAProxy and wrk, and takes about 5 minutes per
configuration. It prints a table and writes var/bench/kickoff.json; each locust run's requests
(one CSV row each), summary and console output stay under var/bench/kickoff/.

Locust by hand against a running server: write a plan with `prepare.write_plan` (accounts with
fresh refresh tokens), then
`KICKOFF_PLAN=plan.json KICKOFF_BASE_RPS=6 locust -f server/bench/kickoff/locustfile.py --headless
--host http://127.0.0.1:8080` (the KICKOFF_* variables are described in the locustfile).

The load generator shares the machine with the servers: on a small machine it takes a core of
its own, and a step where locust warned of high CPU says so in the output.
"""
