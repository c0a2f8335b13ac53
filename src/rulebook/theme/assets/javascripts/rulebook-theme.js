// What Material's bundle needs changed before it starts (this script is loaded just before it).
//
// 1. Search: Material's search worker runs inside our worker script (workers/rulebook-search.js),
//    which stems the reader's words as the index was stemmed and keeps game terms whole.
// 2. Sitemaps: Material's language switcher asks for a sitemap.xml beside every hreflang
//    alternate, expecting language roots; ours are the same page in each language, with no
//    sitemap beside them (a 404 each). The site has one sitemap, at its root, listing every page
//    of every language with its alternates: those requests get that one.
(function () {
  var config = JSON.parse(document.getElementById("__config").textContent);
  var root = new URL(config.base, window.location.href);

  var NativeWorker = window.Worker;
  if (NativeWorker) {
    var Worker = function (url, options) {
      var href = new URL(String(url), window.location.href);
      if (/\/workers\/search\.[^/]*\.js$/.test(href.pathname)) {
        var ours = new URL("rulebook-search.js", href);
        ours.searchParams.set("material", href.href);
        href = ours;
      }
      return new NativeWorker(href.href, options);
    };
    Worker.prototype = NativeWorker.prototype;
    window.Worker = Worker;
  }

  // Material requests with XMLHttpRequest (for progress and cancelling).
  var open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url) {
    var args = Array.prototype.slice.call(arguments);
    if (/\/sitemap\.xml$/.test(new URL(String(url), window.location.href).pathname)) {
      args[1] = new URL("sitemap.xml", root).href;
    }
    return open.apply(this, args);
  };
})();
