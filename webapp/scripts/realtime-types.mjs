#!/usr/bin/env node
// Writes src/realtime/events.gen.ts from asyncapi/asyncapi.yaml: one type per component schema
// (every message payload and acknowledgement is one of them) and the event maps socket.io-client
// types its Socket with. `npm run generate` runs it; tests/api/generated.test.ts fails when the
// committed file differs from what this writes.
//   node scripts/realtime-types.mjs [--input asyncapi.yaml] [--output events.gen.ts]
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const webapp = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function option(name, fallback) {
  const index = process.argv.indexOf(name);
  if (index === -1) return fallback;
  const value = process.argv[index + 1];
  if (!value || value.startsWith("--")) fail(`${name} needs a path`);
  return resolve(value);
}

function fail(message) {
  console.error(`realtime-types: ${message}`);
  process.exit(1);
}

const input = option("--input", resolve(webapp, "../asyncapi/asyncapi.yaml"));
const output = option("--output", resolve(webapp, "src/realtime/events.gen.ts"));

let document;
try {
  document = parse(readFileSync(input, "utf8"));
} catch (error) {
  fail(`cannot read ${input}: ${error.message}`);
}
const schemas = document?.components?.schemas ?? {};
const channel = document?.channels?.["/"];
if (!channel) fail(`${input} has no "/" channel`);

const COMPONENT_REF = /^#\/components\/(schemas|messages)\/(.+)$/;

function refName(ref, kind) {
  const match = COMPONENT_REF.exec(ref);
  if (!match || match[1] !== kind) fail(`unsupported $ref ${ref} (only #/components/${kind}/...)`);
  return match[2];
}

function typeName(schemaName) {
  if (!/^[A-Za-z_$][\w$]*$/.test(schemaName)) fail(`schema name "${schemaName}" is not a TypeScript identifier`);
  return schemaName;
}

function propertyKey(key) {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
}

function literal(value) {
  return value === null ? "null" : JSON.stringify(value);
}

function comment(text, indent) {
  if (!text) return "";
  const lines = String(text)
    .trim()
    .split("\n")
    .map((line) => line.replace(/\*\//g, "*\\/").trimEnd());
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} *${line ? " " + line : ""}`).join("\n")}\n${indent} */\n`;
}

const PRIMITIVES = { string: "string", integer: "number", number: "number", boolean: "boolean", null: "null" };

/** The TypeScript type of a JSON schema (the subset the AsyncAPI document uses). */
function toType(schema, indent = "") {
  if (schema === true || schema === undefined) return "unknown";
  if (schema === false) return "never";
  if (schema.$ref) return typeName(refName(schema.$ref, "schemas"));
  if ("const" in schema) return literal(schema.const);
  if (schema.enum) return schema.enum.map(literal).join(" | ");
  if (schema.oneOf || schema.anyOf) return (schema.oneOf ?? schema.anyOf).map((s) => toType(s, indent)).join(" | ");
  if (schema.allOf) return schema.allOf.map((s) => toType(s, indent)).join(" & ");
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.properties ? "object" : undefined)];
  const union = types.map((type) => {
    if (type === "object") return objectType(schema, indent);
    if (type === "array") return `${wrap(toType(schema.items, indent))}[]`;
    if (type in PRIMITIVES) return PRIMITIVES[type];
    return "unknown";
  });
  return [...new Set(union)].join(" | ");
}

function wrap(type) {
  return /[|&]/.test(type) ? `(${type})` : type;
}

function objectType(schema, indent) {
  const inner = `${indent}  `;
  const required = new Set(schema.required ?? []);
  const members = Object.entries(schema.properties ?? {}).map(
    ([key, property]) =>
      `${comment(property.description, inner)}${inner}${propertyKey(key)}${required.has(key) ? "" : "?"}: ${toType(property, inner)};`,
  );
  if (schema.additionalProperties && schema.additionalProperties !== true) {
    members.push(`${inner}[key: string]: ${toType(schema.additionalProperties, inner)};`);
  } else if (schema.additionalProperties !== false && !schema.properties) {
    members.push(`${inner}[key: string]: unknown;`);
  }
  return members.length ? `{\n${members.join("\n")}\n${indent}}` : "Record<string, never>";
}

function declaration(name, schema) {
  const type = toType(schema);
  const doc = comment(schema.description, "");
  return type.startsWith("{\n")
    ? `${doc}export interface ${typeName(name)} ${type}\n`
    : `${doc}export type ${typeName(name)} = ${type};\n`;
}

function messagesOf(operation) {
  const list = channel[operation]?.message?.oneOf ?? [];
  return list.map((entry) => {
    const message = entry.$ref ? document.components.messages[refName(entry.$ref, "messages")] : entry;
    if (!message?.name || !message.payload) fail(`a ${operation} message has no name or payload`);
    return message;
  });
}

function eventMap(name, messages, withAck) {
  const lines = messages.map((message) => {
    const payload = toType(message.payload, "  ");
    const ack = withAck && message["x-ack"] ? `, ack: (ack: ${toType(message["x-ack"].args, "  ")}) => void` : "";
    return `${comment(message.summary, "  ")}  ${JSON.stringify(message.name)}: (payload: ${payload}${ack}) => void;`;
  });
  return `export interface ${name} {\n${lines.join("\n")}\n}\n`;
}

function ackMap(messages) {
  const lines = messages
    .filter((message) => message["x-ack"])
    .map((message) => `  ${JSON.stringify(message.name)}: ${toType(message["x-ack"].payload, "  ")};`);
  return `export interface ClientMessageAcks {\n${lines.join("\n")}\n}\n`;
}

const incoming = messagesOf("publish"); // AsyncAPI 2: what clients publish
const outgoing = messagesOf("subscribe"); // what clients subscribe to

const parts = [
  "// Generated from asyncapi/asyncapi.yaml by scripts/realtime-types.mjs. Do not edit:\n// run `cd webapp && npm run generate`.\n",
  ...Object.entries(schemas).map(([name, schema]) => declaration(name, schema)),
  `${comment("Messages the server sends; listen with socket.on(name, handler).", "")}${eventMap("ServerToClientEvents", outgoing, false)}`,
  `${comment("Messages the client emits; the server acknowledges each with a JSON string.", "")}${eventMap("ClientToServerEvents", incoming, true)}`,
  `${comment("The parsed acknowledgement of each client message.", "")}${ackMap(incoming)}`,
  `export type ServerMessageName = keyof ServerToClientEvents;\nexport type ClientMessageName = keyof ClientToServerEvents;\n`,
];

writeFileSync(output, parts.join("\n"));
