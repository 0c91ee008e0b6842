// The real parser's tree of a filter (breeze-odataparser 0.0.1) and the real server's translation of the
// same or another text (breeze-mongodb 0.0.8 with mongodb 3.6.6), as one long-lived process.
//
// stdin: one JSON object per line, {"meaning": text or null, "written": text}. stdout: one JSON line per
// input line: {"tree": <parse tree of "meaning"> | {"refused": message} | null, "server": <the query
// document breeze builds for "written"> | {"refused": message}}.
//
// The tree keeps each literal's text as the parser saw it: a number node's value is {"$number": text} (the
// text the grammar's number rule handed to parseFloat, so "1$x and …" shows what the rule swallowed) and a
// datetime node's value {"$date": ISO string or null, "text": the literal's text}. The server's document
// encodes what JSON cannot carry as breeze_referee.cjs does: RegExp, ObjectID, undefined, Date, NaN.
"use strict";

const readline = require("readline");
const { ObjectID } = require("mongodb");
const { MongoQuery } = require("breeze-mongodb");
const odataParser = require("breeze-odataparser");

function encode(value) {
  if (value === undefined) return { $undefined: true };
  if (value === null) return null;
  if (typeof value === "number") return Number.isFinite(value) ? value : { $number: String(value) };
  if (typeof value !== "object") return value;
  if (value instanceof RegExp) return { $regex: { source: value.source, flags: value.flags } };
  if (value instanceof ObjectID) return { $oid: value.toHexString() };
  if (value instanceof Date) {
    const iso = isNaN(value.getTime()) ? null : value.toISOString();
    return value.text === undefined ? { $date: iso } : { $date: iso, text: value.text };
  }
  if (Array.isArray(value)) return value.map(encode);
  const out = {};
  for (const key of Object.keys(value)) out[key] = encode(value[key]);
  return out;
}

// The grammar's actions call the global parseFloat and Date when they build a number or a datetime node;
// while the meaning is parsed they keep the text as well (nothing else runs meanwhile: one line at a time)
const RealDate = Date;
class TextDate extends RealDate {
  constructor(text) {
    super(text);
    this.text = String(text);
  }
}

function tree(text) {
  const realParseFloat = global.parseFloat;
  global.parseFloat = (text) => ({ $number: String(text) });
  global.Date = TextDate;
  try {
    return encode(odataParser.parse(text, "filterExpr"));
  } catch (error) {
    return { refused: String(error.message) };
  } finally {
    global.parseFloat = realParseFloat;
    global.Date = RealDate;
  }
}

function server(text) {
  try {
    return encode(new MongoQuery({ $filter: text }).filter);
  } catch (error) {
    const inner = error.innerError ? ` (${error.innerError.message})` : "";
    return { refused: `${error.message}${inner}` };
  }
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on("line", (line) => {
  let reply;
  try {
    const { meaning, written } = JSON.parse(line);
    reply = { tree: meaning === null ? null : tree(meaning), server: server(written) };
  } catch (error) {
    reply = { error: String(error && error.stack ? error.stack : error) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
