// What Material's bundle needs changed before it starts (this script is loaded just before it).
// What this relies on of Material's own scripts is listed, and checked, in src/rulebook/adapters/material.py.
//
// 1. Search: Material's search worker runs inside our worker script (workers/rulebook-search.js),
//    which stems the reader's words as the index was stemmed and keeps game terms whole. It
//    starts when the reader opens search (the search toggle: a click in the box, a keyboard
//    shortcut, a shared ?q= link), not on every page load: its scripts, the language's stemmer
//    and building the index cost a third of the CPU a page load costs the browser, for
//    readers who never search. Material holds the reader's query until the worker is ready.
//    Its index (search_index.json, a few hundred kB on a site of a few books) is fetched then
//    too: Material asks for it on every page load, to hand it to the worker. It is fetched at
//    once where Material highlights the words a search found (?h= in the address: it reads
//    the index's word separator), or may come to (instant navigation).
// 2. Sitemaps: on every page load Material asks for a sitemap.xml beside every hreflang
//    alternate (seven on our pages), expecting language roots, to send a click on a link into
//    another language to the same page there. rulebook.js handles our language switcher
//    itself (ours are alternates of the very page), so those sitemaps would be fetched and
//    parsed for nothing (a sixth of the CPU a page load costs the browser): they are not
//    asked for. Instant navigation (navigation.instant, and its link previews) does need one:
//    with it on, every such request gets the site's one sitemap, at its root, listing every
//    page of every language with its alternates.
// 3. Material's search overlay is a dialog without a name (axe: aria-dialog-name): it is named
//    as its search box is, in the page's language (Material's own word for "Search").
(function () {
  var config = JSON.parse(document.getElementById("__config").textContent);
  var root = new URL(config.base, window.location.href);

  // Runs start() once the reader opens search (at once if it is open, or if the page has none).
  function whenSearchOpens(start) {
    var toggle = document.getElementById("__search");
    if (!toggle || toggle.checked) start();
    else toggle.addEventListener("change", function opened() {
      if (!toggle.checked) return;
      toggle.removeEventListener("change", opened);
      start();
    });
  }

  var NativeWorker = window.Worker;
  if (NativeWorker) {
    var Worker = function (url, options) {
      var href = new URL(String(url), window.location.href);
      if (/\/workers\/search\.[^/]*\.js$/.test(href.pathname)) {
        var ours = new URL("rulebook-search.js", href);
        ours.searchParams.set("material", href.href);
        return new Deferred(ours.href, options);
      }
      return new NativeWorker(href.href, options);
    };
    Worker.prototype = NativeWorker.prototype;
    window.Worker = Worker;
  }

  // A worker started when search opens: until then, messages to it wait, in order.
  function Deferred(url, options) {
    var worker = null;
    var waiting = [];
    var listeners = [];
    var start = function () {
      if (worker) return;
      worker = new NativeWorker(url, options);
      listeners.forEach(function (args) { worker.addEventListener.apply(worker, args); });
      waiting.forEach(function (args) { worker.postMessage.apply(worker, args); });
      waiting = listeners = null;
    };
    this.postMessage = function () {
      if (worker) worker.postMessage.apply(worker, arguments);
      else waiting.push(arguments);
    };
    this.addEventListener = function () {
      if (worker) worker.addEventListener.apply(worker, arguments);
      else listeners.push(arguments);
    };
    this.removeEventListener = function (type, listener) {
      if (worker) return worker.removeEventListener.apply(worker, arguments);
      listeners = listeners.filter(function (args) { return args[0] !== type || args[1] !== listener; });
    };
    this.terminate = function () {
      if (worker) worker.terminate();
    };
    whenSearchOpens(start);
  }

  // Material requests with XMLHttpRequest (for progress and cancelling).
  var instant = (config.features || []).some(function (feature) {
    return feature.indexOf("navigation.instant") === 0;
  });
  var open = XMLHttpRequest.prototype.open;
  var send = XMLHttpRequest.prototype.send;
  XMLHttpRequest.prototype.open = function (method, url) {
    var args = Array.prototype.slice.call(arguments);
    var path = new URL(String(url), window.location.href).pathname;
    this.rulebookUnsent = false;
    this.rulebookIndex = /\/search\/search_index\.json$/.test(path);
    if (/\/sitemap\.xml$/.test(path)) {
      args[1] = new URL("sitemap.xml", root).href;
      this.rulebookUnsent = !instant;
    }
    return open.apply(this, args);
  };
  XMLHttpRequest.prototype.send = function () {
    var request = this, body = arguments;
    if (this.rulebookIndex && !instant && !new URL(window.location.href).searchParams.has("h")) {
      return whenSearchOpens(function () { send.apply(request, body); });
    }
    if (!this.rulebookUnsent) return send.apply(this, body);
    // Not sent: told so as a cancelled request is (Material then goes on without that sitemap).
    setTimeout(function () {
      request.dispatchEvent(new ProgressEvent("abort"));
      request.dispatchEvent(new ProgressEvent("loadend"));
    });
  };
})();

(function () {
  var dialog = document.querySelector(".md-search[role=dialog]");
  var box = document.querySelector(".md-search__input");
  if (dialog && box && !dialog.hasAttribute("aria-label") && !dialog.hasAttribute("aria-labelledby")) {
    dialog.setAttribute("aria-label", box.getAttribute("aria-label") || box.getAttribute("placeholder") || "");
  }
})();
