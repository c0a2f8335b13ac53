// Stemmed search with Material's search worker, loaded before Material's bundle.
//
// Material's worker appends "*" to every query term for search-as-you-type, and lunr runs no
// pipeline (so no stemmer) on a wildcard term: "колодой*" can never find the stem "колод"
// of "колоды". For each plain word we also send the word with a neutral boost ("колодой^1"),
// which Material leaves without "*", so lunr stems it with the page language's stemmer.
// Prefix matching while typing is kept; documents matching either form are found.
(function () {
  var Native = window.Worker;
  if (!Native) return;
  var PLAIN = /^[^\s"'+\-:~^*]+$/;
  function stemmable(query) {
    if (typeof query !== "string" || query.indexOf('"') !== -1) return query;
    var extra = query.trim().split(/\s+/).filter(function (word) { return PLAIN.test(word); });
    return extra.length ? query + " " + extra.map(function (word) { return word + "^1"; }).join(" ") : query;
  }
  function Worker(url, options) {
    var worker = new Native(url, options);
    var post = worker.postMessage.bind(worker);
    worker.postMessage = function (message, transfer) {
      // Material's message types: 0 setup, 2 query (data: the text typed).
      if (message && message.type === 2) message = { type: 2, data: stemmable(message.data) };
      return transfer === undefined ? post(message) : post(message, transfer);
    };
    return worker;
  }
  Worker.prototype = Native.prototype;
  window.Worker = Worker;
})();
