// The official AsyncAPI parser on asyncapi/asyncapi.yaml (or the file given), for `make lint`.
// It fails on errors and warnings, as Spectral does on openapi.yaml (--fail-severity=warn).
// Infos and hints are advice and do not fail: today "a newer AsyncAPI version exists" (the
// document, its tests and the generated webapp types follow 2.6 on purpose) and "ConnectError is
// unused" (the socket's description names it in prose; the server and the webapp validate
// connection refusals against it).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DiagnosticSeverity, Parser, fromFile } from '@asyncapi/parser';

const DOCUMENT =
  process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'asyncapi', 'asyncapi.yaml');

const parser = new Parser({
  ruleset: {
    rules: {
      // The contact names the team; the project publishes no contact address or site to add.
      'asyncapi-info-contact-properties': 'off',
    },
  },
});

const { document, diagnostics } = await fromFile(parser, DOCUMENT).parse();
const failures = diagnostics.filter((d) => d.severity <= DiagnosticSeverity.Warning);
const relative = path.relative(process.cwd(), DOCUMENT);
for (const d of failures) {
  const level = d.severity === DiagnosticSeverity.Error ? 'error' : 'warning';
  const where = `${relative}:${d.range.start.line + 1}:${d.range.start.character + 1}`;
  console.error(`${where} ${level} ${d.code} ${d.message} (${d.path.join('.') || 'document'})`);
}
if (!document || failures.length > 0) {
  console.error(`${relative}: ${failures.length} problem(s) from the AsyncAPI parser`);
  process.exit(1);
}
