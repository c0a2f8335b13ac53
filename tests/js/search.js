// Runs the site's real search (Material's search worker inside workers/rulebook-search.js, with
// lunr and the language's stemmer from Material's package) in Node, outside a browser: a
// context stands in for the worker's global scope (self, importScripts, postMessage,
// addEventListener). Reads {"theme": DIR, "material": DIR, "index": FILE, "queries": [...]} on
// stdin; writes, for each query, the worker's answer (its items, grouped by page as Material
// groups them) with the index's words each item matched, and the word's stem as the index
// stems it.
"use strict";
const fs = require("fs");
const path = require("path");
const vm = require("vm");

const request = JSON.parse(fs.readFileSync(0, "utf-8"));
const ours = path.join(path.resolve(request.theme), "assets", "javascripts", "workers", "rulebook-search.js");
request.material = path.resolve(request.material);
const materials = fs.readdirSync(path.join(request.material, "assets", "javascripts", "workers"))
  .filter((name) => /^search\.[^/]*\.js$/.test(name));
if (materials.length !== 1) throw new Error(`one Material search worker expected, found ${materials}`);
const material = path.join(request.material, "assets", "javascripts", "workers", materials[0]);

const listeners = [];
const answers = [];
// Material reports a query it could not run with console.warn and answers with no items: here
// that is a failure, never an empty result.
const warnings = [];
const quiet = { log: console.log, error: console.error, warn: (...args) => warnings.push(args.map(String).join(" ")) };
const context = { console: quiet, URL, setTimeout, clearTimeout, TextEncoder, TextDecoder };
context.self = context;
context.location = { href: `file://${ours}?material=${encodeURIComponent(`file://${material}`)}` };
let base = material;
context.importScripts = (...urls) => {
  for (const url of urls) {
    const file = new URL(url, `file://${base}`).pathname;
    base = file;
    vm.runInContext(fs.readFileSync(decodeURIComponent(file), "utf-8"), context, { filename: file });
    base = material; // Material's own URLs ("../lunr/…") are relative to its worker
  }
};
context.addEventListener = (type, listener) => { if (type === "message") listeners.push(listener); };
context.postMessage = (message) => { answers.push(message); };
vm.createContext(context);
vm.runInContext(fs.readFileSync(ours, "utf-8"), context, { filename: ours });

// The index's words each result matched (lunr's match data, which Material's answer does not
// carry): whether a result holds the word typed or only longer words is read here.
const matched = new Map();
const query = context.lunr.Index.prototype.query;
context.lunr.Index.prototype.query = function () {
  const results = query.apply(this, arguments);
  matched.clear();
  for (const result of results) matched.set(result.ref, Object.keys(result.matchData.metadata));
  return results;
};

function send(message) {
  const before = answers.length;
  for (const listener of listeners) listener({ data: message });
  return new Promise((resolve, reject) => {
    const started = Date.now();
    (function wait() {
      if (answers.length > before) resolve(answers[answers.length - 1]);
      else if (Date.now() - started > 60000) reject(new Error(`no answer to ${JSON.stringify(message).slice(0, 80)}`));
      else setTimeout(wait, 5);
    })();
  });
}

// The stems of the words marked in html, through the index's own pipeline steps.
function markedStems(lang, html) {
  const lunr = context.lunr;
  const owner = lang === "en" ? lunr : lunr[lang];
  const stems = [];
  html.replace(/<mark>([^<]*)<\/mark>/g, (_, word) => {
    let token = word.toLowerCase();
    for (const step of ["trimmer", "stemmer"]) {
      if (token === undefined || !owner[step]) continue;
      const out = lunr.Pipeline.prototype.runString.call({ _stack: [owner[step]], run: lunr.Pipeline.prototype.run }, token);
      token = out[0];
    }
    if (token !== undefined && !stems.includes(token)) stems.push(token);
    return "";
  });
  return stems;
}

(async () => {
  const index = JSON.parse(fs.readFileSync(request.index, "utf-8"));
  const lang = index.config.lang[0];
  // As Material's page sends it: the index and the options of its features (no search.suggest).
  const ready = await send({ type: 0, data: { ...index, options: { suggest: false } } });
  if (ready.type !== 1) throw new Error(`the worker did not say it is ready: ${JSON.stringify(ready)}`);
  const results = [];
  for (const query of request.queries) {
    const answer = await send({ type: 2, data: query });
    if (warnings.length) throw new Error(`the worker warned on ${JSON.stringify(query)}: ${warnings.join("; ")}`);
    await send({ type: 2, data: "" }); // the worker forgets the query's words: stems below are the index's
    results.push({
      query,
      stem: markedStems(lang, `<mark>${query}</mark>`)[0],
      groups: answer.data.items.map((group) => group.map((item) => ({
        location: item.location, score: item.score, terms: item.terms,
        matched: matched.get(item.location) || [],
      }))),
    });
  }
  process.stdout.write(JSON.stringify(results));
})().catch((error) => { console.error(error && error.stack || String(error)); process.exit(1); });
