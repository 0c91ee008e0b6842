// The real server's query reader as a long-lived process: breeze-mongodb 0.0.8 (which parses with
// breeze-odataparser 0.0.1 and builds ObjectIDs with the mongodb 3.6.6 driver), exactly as
// @sealsystems/odata-mongo calls it: `new MongoQuery(req.query)`, after the middleware's key check.
//
// stdin: one JSON object per line, the query options as Express hands them over ({"$filter": "...",
// "$top": "5", ...}; a list for a key given twice). stdout: one JSON line per input line, either
// {"refused": "<message>"} or {"filter", "sort", "skip", "limit", "select", "inlineCount"} (absent options
// as null). What JSON cannot carry is encoded: RegExp {"$regex": {"source", "flags"}}, ObjectID
// {"$oid": hex}, undefined {"$undefined": true}, Date {"$date": ISO string or null when invalid}, and
// non-finite numbers {"$number": "NaN" | "Infinity" | "-Infinity"}.
"use strict";

const readline = require("readline");
const { ObjectID } = require("mongodb");
const { MongoQuery } = require("breeze-mongodb");

function encode(value) {
  if (value === undefined) return { $undefined: true };
  if (value === null) return null;
  if (typeof value === "number") {
    return Number.isFinite(value) ? value : { $number: String(value) };
  }
  if (typeof value !== "object") return value;
  if (value instanceof RegExp) return { $regex: { source: value.source, flags: value.flags } };
  if (value instanceof ObjectID) return { $oid: value.toHexString() };
  if (value instanceof Date) return { $date: isNaN(value.getTime()) ? null : value.toISOString() };
  if (Array.isArray(value)) return value.map(encode);
  const out = {};
  for (const key of Object.keys(value)) out[key] = encode(value[key]);
  return out;
}

// @sealsystems/odata-mongo (not on this machine) refuses query keys starting with "$" that it does not
// pass on, before breeze sees anything; that one rule is repeated here
const PASSED_ON = new Set(["$filter", "$top", "$skip", "$select", "$inlinecount", "$orderby"]);

function answer(options) {
  const unknown = Object.keys(options).find((key) => key.startsWith("$") && !PASSED_ON.has(key));
  if (unknown !== undefined) return { refused: `odata-mongo: unknown query option ${unknown}` };
  let query;
  try {
    query = new MongoQuery(options);
  } catch (error) {
    const inner = error.innerError ? ` (${error.innerError.message})` : "";
    return { refused: `${error.message}${inner}` };
  }
  const has = (key) => Object.prototype.hasOwnProperty.call(query.options, key);
  return {
    filter: encode(query.filter),
    sort: has("sort") ? encode(query.options.sort) : null,
    skip: has("skip") ? encode(query.options.skip) : null,
    limit: has("limit") ? encode(query.options.limit) : null,
    select: Object.keys(query.select).length ? encode(query.select) : null,
    inlineCount: query.inlineCount,
  };
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  let reply;
  try {
    reply = answer(JSON.parse(line));
  } catch (error) {
    reply = { error: String(error && error.stack ? error.stack : error) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
