// Material's search worker (its URL in ?material=), run unchanged inside this one, which
// What this relies on of Material's own scripts is listed, and checked, in src/rulebook/adapters/material.py.
// changes three things around it (issue 13.2). The index (written by the rulebook plugin from
// the model) holds each word as the language's stemmer makes it ("колоды" -> "колод").
//
// 1. The reader's words are stemmed the same way before Material sees them. Material appends
//    "*" to every word for search-as-you-type, and lunr never stems a word with "*": "колодой*"
//    could not find "колод". Sent as "колод", Material's "колод*" finds every form; its own
//    check of which words matched then compares like with like, so a word that matched is
//    never listed as missing.
// 2. Game terms are kept whole (config.rulebook.keep: [form, term], a form ending in "*"
//    matching any word that starts with it, accents ignored): in the index and in a query a
//    word of those forms is its term, never stemmed, so Spanish "maná" (mana) is not "man",
//    the stem of "mano" (hand).
// 3. The word typed ranks first. Material searches each word as a prefix ("dé*"), and lunr
//    scores every word of that prefix as if typed: a rare "départ" in a title outranked the
//    die ("dé") in a rule's text. Each word is therefore sent twice, as the exact stem with a
//    boost (lunr's query syntax, "dé^1000000", which Material leaves without a "*") and as
//    Material's prefix: a result holding the stem itself outranks one holding only a longer
//    word, though a title weighs 1000 times a text and a rare word (départ) a few hundred
//    times a common one (only a word in all but a handful of a language's documents would
//    weigh too little; tests/test_site_search_ranking.py holds it for the site's books).
//    lunr runs a query's exact words through the stemmer once more; the stems sent are let
//    through as they are.
// 4. Results: a word that matched leads the page to highlight the words the result shows
//    marked (the ?h= of its link), so a stemmed hit is highlighted on arrival; a word that did
//    not match is listed as missing as the reader typed it. A page that Material lists only
//    because sections of it matched (its own entry matched nothing) highlights its sections'
//    words: its link never carries an empty ?h=.
(function () {
  var SETUP = 0, QUERY = 2, RESULT = 3; // Material's message types
  // A word with lunr's query syntax (+word, -word, field:word, word~1, word^2, wor*, "a phrase")
  // goes to Material as typed; any other is split where the index splits words.
  var SYNTAX = /^[+\-]|["+:~^*]/;
  var separator = /[\s\-]+/g; // the index's (config.separator), set at SETUP
  var kept = []; // [folded form, is prefix, term]
  var languages = [];
  var steps = [];
  var analyser = null;
  var typed = {}; // the word the reader typed, by the term sent for it (last query)
  var sent = {}; // the stems sent as exact words (last query): the stemmer lets them through
  var EXACT = 1000000; // the boost of the exact stem over its prefix (3. above)

  function fold(word) {
    return word.normalize("NFD").replace(/[\u0300-\u036f]/g, "");
  }

  function keptTerm(word) {
    var folded = fold(word);
    for (var i = 0; i < kept.length; i++) {
      var form = kept[i][0];
      // Marked with "_", which no stem starts with: a stem typed as a prefix ("man", of
      // "mano") never runs into the term ("_mana").
      if (kept[i][1] ? folded.indexOf(form) === 0 : folded === form) return "_" + kept[i][2];
    }
    return null;
  }

  function owners() {
    return languages.map(function (lang) { return lang === "en" ? self.lunr : self.lunr[lang]; })
      .filter(function (owner) { return owner && owner.stemmer; });
  }

  // A language's stemmer, wrapped once it is loaded: a game term is its own stem.
  function keepTerms() {
    owners().forEach(function (owner) {
      var stem = owner.stemmer;
      if (stem.rulebookKeeps) return;
      var wrapped = function (token) {
        if (Object.prototype.hasOwnProperty.call(sent, token.toString())) return token;
        var term = keptTerm(token.toString());
        return term === null ? stem(token) : token.update(function () { return term; });
      };
      wrapped.label = stem.label; // registered under the stemmer's name: lunr does not warn
      wrapped.rulebookKeeps = true;
      owner.stemmer = wrapped;
    });
  }

  // The steps the index ran on each word (trimmer, stop words, stemmer), run on a typed word.
  function analyse(word) {
    if (analyser === null) {
      analyser = new self.lunr.Pipeline();
      var owner = owners()[0] || self.lunr;
      ["trimmer", "stopWordFilter", "stemmer"].forEach(function (step) {
        if (steps.indexOf(step) !== -1 && owner[step]) analyser.add(owner[step]);
      });
    }
    return analyser.runString(word.toLowerCase())[0];
  }

  function rewrite(query) {
    typed = {};
    sent = {};
    var words = [];
    query.trim().split(/\s+/).forEach(function (word) {
      if (SYNTAX.test(word)) words.push(word);
      // French "l'arène" is "l" and "arène", as the index has it (its separator splits there).
      else words.push.apply(words, word.split(separator).filter(Boolean));
    });
    return words.map(function (word) {
      if (SYNTAX.test(word)) return word;
      var term = analyse(word);
      if (term === undefined) return ""; // a stop word: the index has none
      typed[term] = word;
      sent[term] = true;
      return term + "^" + EXACT + " " + term;
    }).join(" ").replace(/\s+/g, " ").trim();
  }

  // The words a result shows marked, lower case, each once, without the punctuation around them.
  function marked(html) {
    var words = [];
    html.replace(/<mark>([^<&]+)<\/mark>/g, function (_, word) {
      word = word.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
      if (word && words.indexOf(word) === -1) words.push(word);
      return "";
    });
    return words;
  }

  function explain(item) {
    var terms = {};
    var matched = [];
    Object.keys(item.terms).forEach(function (term) {
      if (item.terms[term]) matched.push(term);
      else terms[typed[term] || term] = false;
    });
    if (matched.length) {
      var found = marked(String(item.title) + String(item.text));
      (found.length ? found : matched)
        .sort(function (a, b) { return b.length - a.length; })
        .forEach(function (word) { terms[word] = true; });
    }
    return Object.assign({}, item, { terms: terms });
  }

  function highlighted(item) {
    return Object.keys(item.terms).some(function (word) { return item.terms[word]; });
  }

  // One page's results: an entry that matched nothing (Material adds the page's own, score 0,
  // to head its sections) highlights the words its sections matched.
  function explainGroup(group) {
    var items = group.map(explain);
    var words = {};
    items.forEach(function (item) {
      Object.keys(item.terms).forEach(function (word) { if (item.terms[word]) words[word] = true; });
    });
    return items.map(function (item) {
      return highlighted(item) ? item : Object.assign({}, item, { terms: Object.assign({}, item.terms, words) });
    });
  }

  var load = self.importScripts;
  self.importScripts = function () {
    load.apply(self, arguments); // Material loads a language's stemmer here, then indexes
    keepTerms();
  };

  var post = self.postMessage;
  self.postMessage = function (message) {
    if (message && message.type === RESULT && message.data && message.data.items) {
      message.data.items = message.data.items.map(explainGroup);
    }
    return post.apply(self, arguments);
  };

  // Registered before Material's handler, so it sees each message first.
  self.addEventListener("message", function (event) {
    var message = event.data;
    if (message.type === SETUP) {
      var config = message.data.config || {};
      languages = config.lang || [];
      steps = config.pipeline || [];
      kept = ((config.rulebook || {}).keep || []).map(function (entry) {
        var prefix = entry[0].slice(-1) === "*";
        return [fold(prefix ? entry[0].slice(0, -1) : entry[0]), prefix, fold(entry[1])];
      });
      analyser = null;
      sent = {};
      separator = new RegExp(config.separator || "[\\s\\-]+", "g");
      keepTerms(); // English needs no script: its stemmer is already there
    } else if (message.type === QUERY && typeof message.data === "string") {
      message.data = rewrite(message.data);
    }
  });

  load(new URL(self.location.href).searchParams.get("material"));
})();
